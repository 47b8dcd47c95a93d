// KMZ archives and the NetworkLinks inside them.

extension Diagnostic.Code {
    /// `kmz.corrupt` (data): An entry of the KMZ does not inflate.
    public static let kmzCorrupt = Diagnostic.Code("kmz.corrupt", kind: .data)
    /// `kmz.invalid` (data): The input is not a readable zip archive.
    public static let kmzInvalid = Diagnostic.Code("kmz.invalid", kind: .data)
    /// `kmz.link-repeated` (finding): A NetworkLink inside the KMZ names a document already read.
    public static let kmzLinkRepeated = Diagnostic.Code("kmz.link-repeated", kind: .finding)
    /// `kmz.link-too-deep` (finding): NetworkLinks inside the KMZ nest deeper than the reader follows.
    public static let kmzLinkTooDeep = Diagnostic.Code("kmz.link-too-deep", kind: .finding)
    /// `kmz.read-failed` (data): An entry of the KMZ cannot be read.
    public static let kmzReadFailed = Diagnostic.Code("kmz.read-failed", kind: .data)
    /// `kmz.too-large` (data): An entry inflates beyond the size or ratio limit (a zip bomb guard, `--max-kmz-size`).
    public static let kmzTooLarge = Diagnostic.Code("kmz.too-large", kind: .data)
    /// `kmz.unsafe-entry-name` (finding): An entry name escapes the archive (absolute, `..` or a backslash); the message says how it is handled.
    public static let kmzUnsafeEntryName = Diagnostic.Code("kmz.unsafe-entry-name", kind: .finding)

    /// The codes above, in order, for ``allDeclared``.
    static let kmzCodes: [Diagnostic.Code] = [
        .kmzCorrupt,
        .kmzInvalid,
        .kmzLinkRepeated,
        .kmzLinkTooDeep,
        .kmzReadFailed,
        .kmzTooLarge,
        .kmzUnsafeEntryName,
    ]
}

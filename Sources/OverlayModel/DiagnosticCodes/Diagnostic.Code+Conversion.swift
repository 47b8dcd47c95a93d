// Choosing formats and converting between them: `input.*`, `output.*`, `convert.*`.

extension Diagnostic.Code {
    /// `convert.dropped-members` (finding): FeatureCollection members the output format has no place for are not written.
    public static let convertDroppedMembers = Diagnostic.Code("convert.dropped-members", kind: .finding)
    /// `convert.dropped-resource` (finding): A KMZ resource (an icon, an image) the output cannot carry is not written.
    public static let convertDroppedResource = Diagnostic.Code("convert.dropped-resource", kind: .finding)
    /// `convert.geometry` (finding): A tally of what geometry options (clipping, simplifying) did, and how many features they left empty.
    public static let convertGeometry = Diagnostic.Code("convert.geometry", kind: .finding)
    /// `input.stdin` (finding): Standard input is read from a terminal (a user who forgot the file name is told).
    public static let inputStdin = Diagnostic.Code("input.stdin", kind: .finding)
    /// `input.unknown-format` (data): Neither the extension nor the content tells the input format.
    public static let inputUnknownFormat = Diagnostic.Code("input.unknown-format", kind: .data)
    /// `input.unsupported-format` (data): The input is in a format that cannot be read as features or validated.
    public static let inputUnsupportedFormat = Diagnostic.Code("input.unsupported-format", kind: .data)
    /// `output.duplicate-name-renamed` (finding): Two properties would be written with the same name; the later is renamed.
    public static let outputDuplicateNameRenamed = Diagnostic.Code("output.duplicate-name-renamed", kind: .finding)
    /// `output.geometry-dropped` (finding): A geometry the output format cannot hold is dropped.
    public static let outputGeometryDropped = Diagnostic.Code("output.geometry-dropped", kind: .finding)
    /// `output.line-to-point` (finding): A line with one position is written as a point.
    public static let outputLineToPoint = Diagnostic.Code("output.line-to-point", kind: .finding)
    /// `output.ring-closed` (finding): An unclosed ring is closed by repeating its first position.
    public static let outputRingClosed = Diagnostic.Code("output.ring-closed", kind: .finding)
    /// `output.ring-dropped` (finding): A ring with too few positions is dropped.
    public static let outputRingDropped = Diagnostic.Code("output.ring-dropped", kind: .finding)
    /// `output.style-dropped` (finding): A style part the output format has no place for (a KML highlight style, an icon href in GeoParquet) is not written.
    public static let outputStyleDropped = Diagnostic.Code("output.style-dropped", kind: .finding)
    /// `output.unsupported-format` (usage): Features cannot be written in the format asked for.
    public static let outputUnsupportedFormat = Diagnostic.Code("output.unsupported-format", kind: .usage)

    /// The codes above, in order, for ``allDeclared``.
    static let conversionCodes: [Diagnostic.Code] = [
        .convertDroppedMembers,
        .convertDroppedResource,
        .convertGeometry,
        .inputStdin,
        .inputUnknownFormat,
        .inputUnsupportedFormat,
        .outputDuplicateNameRenamed,
        .outputGeometryDropped,
        .outputLineToPoint,
        .outputRingClosed,
        .outputRingDropped,
        .outputStyleDropped,
        .outputUnsupportedFormat,
    ]
}

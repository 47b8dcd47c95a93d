// JSON text, below any GeoJSON meaning.

extension Diagnostic.Code {
    /// `json.control-character` (data): A string holds an unescaped control character.
    public static let jsonControlCharacter = Diagnostic.Code("json.control-character", kind: .data)
    /// `json.duplicate-member` (data): A member appears twice in one JSON object (formats name their own code).
    public static let jsonDuplicateMember = Diagnostic.Code("json.duplicate-member", kind: .data)
    /// `json.invalid-escape` (data): A string holds an invalid escape sequence.
    public static let jsonInvalidEscape = Diagnostic.Code("json.invalid-escape", kind: .data)
    /// `json.invalid-number` (data): A number is not valid JSON number syntax.
    public static let jsonInvalidNumber = Diagnostic.Code("json.invalid-number", kind: .data)
    /// `json.invalid-utf8` (data): The text is not valid UTF-8.
    public static let jsonInvalidUtf8 = Diagnostic.Code("json.invalid-utf8", kind: .data)
    /// `json.number-out-of-range` (data): A number is beyond the range of a 64-bit float (±1.8e308).
    public static let jsonNumberOutOfRange = Diagnostic.Code("json.number-out-of-range", kind: .data)
    /// `json.syntax` (data): The text is not valid JSON.
    public static let jsonSyntax = Diagnostic.Code("json.syntax", kind: .data)
    /// `json.too-deep` (data): Arrays or objects nest deeper than the reader allows.
    public static let jsonTooDeep = Diagnostic.Code("json.too-deep", kind: .data)
    /// `json.trailing-content` (data): Content follows the single value of a JSON text.
    public static let jsonTrailingContent = Diagnostic.Code("json.trailing-content", kind: .data)
    /// `json.unexpected-end` (data): The text ends inside a value.
    public static let jsonUnexpectedEnd = Diagnostic.Code("json.unexpected-end", kind: .data)

    /// The codes above, in order, for ``allDeclared``.
    static let jsonCodes: [Diagnostic.Code] = [
        .jsonControlCharacter,
        .jsonDuplicateMember,
        .jsonInvalidEscape,
        .jsonInvalidNumber,
        .jsonInvalidUtf8,
        .jsonNumberOutOfRange,
        .jsonSyntax,
        .jsonTooDeep,
        .jsonTrailingContent,
        .jsonUnexpectedEnd,
    ]
}

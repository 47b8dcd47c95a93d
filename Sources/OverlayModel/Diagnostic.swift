/// Where something is in a source: file, 1-based line and column, and the path inside the
/// document (a JSON Pointer for GeoJSON, an element path for KML).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it; nil for standard input or in-memory data.
    public var file: String?
    /// 1-based line; 0 when the finding is about the file as a whole (its size, or that it
    /// cannot be read), which prints as the file alone.
    public var line: Int
    /// 1-based column, in bytes.
    public var column: Int
    /// RFC 6901 JSON Pointer, e.g. `/features/12/geometry/coordinates/0/3`.
    public var jsonPointer: String?
    /// KML element path, e.g. `/kml/Document/Folder[2]/Placemark[5]/Polygon`.
    public var kmlPath: String?

    /// A location; `jsonPointer` or `kmlPath` says where inside the document.
    public init(file: String? = nil, line: Int, column: Int, jsonPointer: String? = nil, kmlPath: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.jsonPointer = jsonPointer
        self.kmlPath = kmlPath
    }

    /// `file:line:column` (`<stdin>` without a file); `file` alone for line 0 (the whole file).
    public var description: String { line > 0 ? "\(file ?? "<stdin>"):\(line):\(column)" : file ?? "<stdin>" }

    /// The JSON Pointer or KML path, whichever is set.
    public var documentPath: String? { jsonPointer ?? kmlPath }
}

/// One finding about an input: an error that stops it, or a warning or note that does not.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// How much a finding matters; the word is the same in text, JSON reports and summaries.
    public enum Severity: String, Hashable, Sendable, Comparable, CaseIterable {
        /// The input is wrong; reading or validation fails.
        case error
        /// Allowed but discouraged, lossy or ambiguous; the run goes on.
        case warning
        /// Advice or a tally of what was done (SARIF level `note`).
        case note

        /// The name `note` had before 0.2 (`info`); kept so existing code compiles.
        public static var info: Severity { .note }

        private var rank: Int { self == .error ? 2 : self == .warning ? 1 : 0 }
        /// Orders by importance: note < warning < error.
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// Error, warning or note.
    public var severity: Severity
    /// A stable code, `area.kebab-case-name`, e.g. ``Code/geojsonPositionTooShort``
    /// (`geojson.position-too-short`); its kind decides the exit status.
    public var code: Code
    /// One sentence for a person: what is wrong and why.
    public var message: String
    /// Where in the input, when the finding has a place.
    public var location: SourceLocation?

    /// A finding with its severity, stable code, message and place.
    public init(_ severity: Severity, code: Code, message: String, location: SourceLocation? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
    }

    /// A finding named by a code string, as before codes were typed: a declared code keeps its
    /// kind, any other string becomes a ``Code/Kind/data`` code.
    @available(*, deprecated, message: "pass a Diagnostic.Code, e.g. .ioNotFound")
    public init(_ severity: Severity, code: String, message: String, location: SourceLocation? = nil) {
        self.init(severity, code: Code(rawValue: code) ?? Code(code, kind: .data), message: message, location: location)
    }

    /// `file:line:col: severity: code: message (path)`, the form compilers use, so editors and
    /// CI logs link it.
    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += "\(severity.rawValue): \(code): \(message)"
        if let path = location?.documentPath { text += " (\(path))" }
        return text
    }
}

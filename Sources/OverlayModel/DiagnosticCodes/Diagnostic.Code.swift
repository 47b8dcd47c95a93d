extension Diagnostic {
    /// A diagnostic's stable identity, `area.kebab-case-name` (e.g. `geojson.position-too-short`),
    /// with the ``Kind`` that decides what a failure on it means (as swift-system's `Errno`).
    ///
    /// Every code OverlayKit reports is a static member (`Diagnostic.Code.ioNotFound`), declared
    /// by area in `Sources/OverlayModel/DiagnosticCodes/` and listed in ``allDeclared``; the raw
    /// string is what text, JSON and SARIF reports print. Compare codes by member, never by
    /// string prefix: ``kind`` says whether a code is an I/O failure.
    public struct Code: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
        /// What a code is about, and so the exit status of a run it stops.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// A bad option or argument: the caller asked for something impossible (exit 64).
            case usage
            /// Bad input data: the input cannot be read as what it claims to be (exit 65).
            case data
            /// A file cannot be opened, read, written or created (exit 74).
            case io
            /// A finding about the data (a validation rule, a repair, a tally) that is reported
            /// and never stops a run by itself; under `validate` an error-severity finding
            /// makes the exit status 1.
            case finding

            /// The BSD sysexits status of a run this kind of diagnostic stops: usage 64, data 65,
            /// I/O 74, and 1 for findings (the status `validate` gives error findings).
            public var exitStatus: Int32 {
                switch self {
                case .usage: 64
                case .data: 65
                case .io: 74
                case .finding: 1
                }
            }
        }

        /// The code as reports print it, e.g. `io.not-found`.
        public let rawValue: String
        /// What the code is about; decides the exit status.
        public let kind: Kind

        /// A code with its kind. OverlayKit's own codes are the static members; a library user
        /// may make codes of its own the same way.
        public init(_ rawValue: String, kind: Kind) {
            self.rawValue = rawValue
            self.kind = kind
        }

        /// The declared code with this raw value, or nil when no declared code has it.
        public init?(rawValue: String) {
            guard let code = Self.declaredByRawValue[rawValue] else { return nil }
            self = code
        }

        /// The raw value, so `"\(code)"` prints what reports print.
        public var description: String { rawValue }

        /// Codes are equal when their raw values are (a raw value has one kind).
        public static func == (a: Code, b: Code) -> Bool { a.rawValue == b.rawValue }

        /// Hashes the raw value, as `==` compares it.
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

        /// Compares a code with a code string, as code written before codes were typed does.
        @available(*, deprecated, message: "compare with a Diagnostic.Code member, e.g. .ioNotFound")
        public static func == (code: Code, string: String) -> Bool { code.rawValue == string }

        /// Tells a code and a code string apart, as code written before codes were typed does.
        @available(*, deprecated, message: "compare with a Diagnostic.Code member, e.g. .ioNotFound")
        public static func != (code: Code, string: String) -> Bool { code.rawValue != string }

        /// Every code OverlayKit declares, grouped by area in declaration order; docs/diagnostics.md
        /// lists the same codes.
        public static let allDeclared: [Code] = ioCodes + conversionCodes + filterCodes + jsonCodes + geojsonCodes
            + kmlCodes + kmlRulesCodes + kmzCodes + geometryCodes + coverageCodes + tileCodes + renderCodes + tileSetCodes + profileCodes + diffCodes + geoparquetCodes

        private static let declaredByRawValue: [String: Code] =
            Dictionary(allDeclared.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether this diagnostic is an I/O failure (its code's kind is ``Code/Kind/io``): library
    /// catch sites let those through rather than report them as findings about the data.
    public var isIOError: Bool { code.kind == .io }

    /// The exit status of a run this diagnostic stops (``Code/Kind/exitStatus`` of its code).
    public var exitStatus: Int32 { code.kind.exitStatus }
}

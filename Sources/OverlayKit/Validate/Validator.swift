import OverlayModel

/// What validating one input found.
public struct ValidationResult: Sendable {
    /// The file as named, or nil for standard input.
    public var file: String?
    /// The format it was validated as; nil when it could not be told.
    public var format: FileFormat?
    /// Every finding, in document order.
    public var findings: [Diagnostic]
    /// True when the input could not be read at all (missing file, I/O error, unknown
    /// format); `findings` then holds the reason.
    public var isUnreadable: Bool
    /// For a tile set (`.mbtiles`, `.pmtiles`), its archive format; such an input has no
    /// format rules and is measured by profiles only.
    public var tileSet: TileArchiveFormat?

    /// The result for one input.
    public init(file: String?, format: FileFormat?, findings: [Diagnostic], isUnreadable: Bool = false,
                tileSet: TileArchiveFormat? = nil) {
        self.file = file
        self.format = format
        self.findings = findings
        self.isUnreadable = isUnreadable
        self.tileSet = tileSet
    }

    /// The format's name as reports give it: `geojson`, `kml`…, or the tile set's (`mbtiles`).
    public var formatName: String? { format?.rawValue ?? tileSet?.rawValue }

    /// The number of findings of a severity.
    public func count(_ severity: Diagnostic.Severity) -> Int {
        findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
    }
}

/// What to check beyond the built-in rules.
public struct ValidationOptions: Sendable {
    /// An XML Schema (XSD) file KML inputs are also validated against.
    public var schemaPath: String?
    /// Whether to check geometry validity (self-intersection, holes) as well as structure.
    public var checksGeometry: Bool
    /// KML: the highest OGC KML 2.2 Abstract Test Suite conformance level whose rules run —
    /// 1 (requirements, the default), 2 (recommendations, warnings) or 3 (informative, notes).
    /// See `KMLRuleCatalog`.
    public var atsLevel: Int
    /// KML: which version's constructs a document in KML's namespace may use.
    public var kmlVersion: KMLVersion

    /// Options: an XML Schema for KML, whether to check geometry validity, the KML ATS level
    /// and the KML version held to.
    public init(schemaPath: String? = nil, checksGeometry: Bool = true, atsLevel: Int = 1, kmlVersion: KMLVersion = .automatic) {
        self.schemaPath = schemaPath
        self.checksGeometry = checksGeometry
        self.atsLevel = atsLevel
        self.kmlVersion = kmlVersion
    }
}

/// The KML version a document is held to. KML 2.3 (OGC 12-007r2) kept KML 2.2's namespace, so
/// a 2.2 document may carry 2.3 constructs (a SimpleField `uom`, `SimpleArrayField`, XML
/// Schema types such as `positiveInteger`) that OGC's KML 2.3 test suite takes as valid.
public enum KMLVersion: String, Sendable, CaseIterable {
    /// 2.3 for a document that says so (`version="2.3"`, the 2.3 namespace); in any other
    /// document in KML's namespace, 2.3's constructs are accepted as 2.3's, the rest held to 2.2.
    case automatic
    /// KML 2.2 only: a 2.3 construct is an error (for targets that read 2.2 alone).
    case v2_2 = "2.2"
    /// KML 2.3 throughout.
    case v2_3 = "2.3"
}

/// The entry point of validation: picks the checks for the input's format and collects their
/// findings. Never throws: a file that cannot be read is a result marked unreadable.
public enum Validator {
    /// Validates one input. Format: the one given, else the file extension, else the content.
    /// An XML Schema that cannot be read (`options.schemaPath`) is a finding located at the
    /// schema file; the input is then checked without it (`run` loads the schema once for
    /// many inputs and reports it once).
    public static func validate(_ input: ByteInput, format: FileFormat? = nil,
                                options: ValidationOptions = ValidationOptions()) -> ValidationResult {
        let schema = SchemaLoad(options)
        var result = validate(input, format: format, options: options, filePath: nil, schema: schema.schema)
        if let problem = schema.problem, result.format == .kml { result.findings.insert(problem, at: 0) }
        return result
    }

    /// The XML Schema of `options.schemaPath`, compiled, or why it could not be.
    struct SchemaLoad {
        var schema: CompiledXMLSchema?
        var problem: Diagnostic?

        init(_ options: ValidationOptions) {
            guard let path = options.schemaPath else { return }
            do {
                schema = try CompiledXMLSchema(path: path)
            } catch let diagnostic as Diagnostic {
                problem = diagnostic
            } catch {
                problem = Diagnostic(.error, code: .kmlSchemaUnreadable, message: "cannot load the XML Schema: \(error)",
                                     location: SourceLocation(file: path, line: 0, column: 0))
            }
        }
    }

    /// `filePath`: where the input lives when it is a file (lets the XSD pass stream it again).
    static func validate(_ input: ByteInput, format: FileFormat?, options: ValidationOptions,
                         filePath: String?, schema: CompiledXMLSchema?) -> ValidationResult {
        let detected: FileFormat
        do {
            detected = try FeatureIO.detectFormat(of: input, given: format)
        } catch let diagnostic as Diagnostic {
            return ValidationResult(file: input.name, format: nil, findings: [diagnostic], isUnreadable: true)
        } catch {
            return ValidationResult(file: input.name, format: nil, findings: [unreadable(input, "\(error)")], isUnreadable: true)
        }
        do {
            var findings: [Diagnostic]
            switch detected {
            case .geojson, .geojsonseq:
                findings = try GeoJSONValidator(input: input, sequence: detected == .geojsonseq,
                                            checksGeometry: options.checksGeometry).validate()
            case .kml:
                findings = try validateKML(input, filePath: filePath, options: options, schema: schema)
            case .kmz:
                findings = try validateKMZ(input, options: options)
            case .geoparquet:
                // Reading every row group checks the file, its metadata and every geometry.
                var reader = try FeatureIO.reader(for: input, format: .geoparquet)
                while try reader.next() != nil {}
                findings = []
            default:
                return ValidationResult(file: input.name, format: detected, findings: [
                    Diagnostic(.error, code: .inputUnsupportedFormat, message: "\(detected.rawValue) files cannot be validated",
                               location: SourceLocation(file: input.name, line: 1, column: 1)),
                ], isUnreadable: true)
            }
            sortByPlace(&findings)
            return ValidationResult(file: input.name, format: detected, findings: findings)
        } catch let diagnostic as Diagnostic {
            return ValidationResult(file: input.name, format: detected, findings: [diagnostic], isUnreadable: true)
        } catch {
            return ValidationResult(file: input.name, format: detected, findings: [unreadable(input, "\(error)")],
                                    isUnreadable: true)
        }
    }

    /// Validates a file by path ("-" for standard input).
    public static func validate(path: String, format: FileFormat? = nil,
                                options: ValidationOptions = ValidationOptions()) -> ValidationResult {
        let schema = SchemaLoad(options)
        var result = validate(path: path, format: format, options: options, schema: schema.schema)
        if let problem = schema.problem, result.format == .kml { result.findings.insert(problem, at: 0) }
        return result
    }

    /// Validates a file by path against an already compiled schema.
    static func validate(path: String, format: FileFormat?, options: ValidationOptions, schema: CompiledXMLSchema?) -> ValidationResult {
        do {
            return validate(try ByteInput(path: path), format: format, options: options, filePath: path == "-" ? nil : path,
                            schema: schema)
        } catch let diagnostic as Diagnostic {
            return ValidationResult(file: path == "-" ? nil : path, format: nil, findings: [diagnostic], isUnreadable: true)
        } catch {
            return ValidationResult(file: path, format: nil,
                                    findings: [Diagnostic(.error, code: .ioOpenFailed, message: "cannot open \(path): \(error)")],
                                    isUnreadable: true)
        }
    }

    /// KML: the streaming checks, then (with `--schema`) libxml2's XSD validation. A file is
    /// read twice for the schema (streamed both times); standard input is held in memory.
    private static func validateKML(_ input: ByteInput, filePath: String?, options: ValidationOptions,
                                    schema: CompiledXMLSchema?) throws -> [Diagnostic] {
        guard let schema else {
            return try KMLValidator(input: input, checksGeometry: options.checksGeometry, atsLevel: options.atsLevel,
                                    kmlVersion: options.kmlVersion).validate()
        }
        if let path = filePath {
            var findings = try KMLValidator(input: input, checksGeometry: options.checksGeometry, atsLevel: options.atsLevel,
                                            kmlVersion: options.kmlVersion).validate()
            // A document that is not well-formed has already said so; the XSD would only repeat it.
            if !findings.contains(where: { $0.code == .kmlXmlSyntax }) {
                findings += try schema.violations(path: path, bytes: nil, displayName: path)
            }
            return findings
        }
        let bytes = try input.readAll()
        var findings = try KMLValidator(input: ByteInput(bytes: bytes, name: input.name), checksGeometry: options.checksGeometry,
                                        atsLevel: options.atsLevel, kmlVersion: options.kmlVersion).validate()
        if !findings.contains(where: { $0.code == .kmlXmlSyntax }) {
            findings += try schema.violations(path: nil, bytes: bytes, displayName: input.name)
        }
        return findings
    }

    /// KMZ: its main KML read through the KML reader (its warnings are findings) and the
    /// geometry of every feature checked. The element-level KML checks need the KML text;
    /// unzip the KMZ and validate its doc.kml for those.
    private static func validateKMZ(_ input: ByteInput, options: ValidationOptions) throws -> [Diagnostic] {
        var reader = try KMZ.reader(for: input)
        var findings: [Diagnostic] = []
        do {
            while let feature = try reader.next() {
                findings += reader.takeWarnings()
                guard options.checksGeometry, let shape = feature.shape else { continue }
                for finding in GeometryValidity.check(shape) {
                    findings.append(Diagnostic(finding.severity, code: finding.code, message: finding.message,
                                               location: feature.location))
                }
            }
        } catch let diagnostic as Diagnostic where !diagnostic.isIOError {
            findings.append(diagnostic)
        }
        findings += reader.takeWarnings()
        return findings
    }

    private static func unreadable(_ input: ByteInput, _ reason: String) -> Diagnostic {
        Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(input.name ?? "standard input"): \(reason)")
    }

    /// Document order (line, then column); findings without a place keep their order first.
    static func sortByPlace(_ findings: inout [Diagnostic]) {
        let indexed = findings.enumerated().map { ($0.offset, $0.element) }
        findings = indexed.sorted { a, b in
            let la = a.1.location.map { ($0.line, $0.column) } ?? (0, 0)
            let lb = b.1.location.map { ($0.line, $0.column) } ?? (0, 0)
            if la != lb { return la < lb }
            return a.0 < b.0
        }.map(\.1)
    }
}

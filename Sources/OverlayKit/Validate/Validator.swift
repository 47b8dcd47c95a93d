#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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

    /// The result for one input.
    public init(file: String?, format: FileFormat?, findings: [Diagnostic], isUnreadable: Bool = false) {
        self.file = file
        self.format = format
        self.findings = findings
        self.isUnreadable = isUnreadable
    }

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
    /// Also check that the file's polygons form a coverage (`validate --coverage`): no overlaps,
    /// shared borders with shared vertices, and gaps no narrower than its gap width.
    public var coverage: CoverageCheck?

    /// Options: an XML Schema for KML, whether to check geometry validity, the KML ATS level and
    /// the coverage check.
    public init(schemaPath: String? = nil, checksGeometry: Bool = true, atsLevel: Int = 1, coverage: CoverageCheck? = nil) {
        self.schemaPath = schemaPath
        self.checksGeometry = checksGeometry
        self.atsLevel = atsLevel
        self.coverage = coverage
    }
}

/// The entry point of validation: picks the checks for the input's format and collects their
/// findings. Never throws: a file that cannot be read is a result marked unreadable.
public enum Validator {
    /// Validates one input. Format: the one given, else the file extension, else the content.
    public static func validate(_ input: ByteInput, format: FileFormat? = nil,
                                options: ValidationOptions = ValidationOptions()) -> ValidationResult {
        validate(input, format: format, options: options, filePath: nil)
    }

    /// `filePath`: where the input lives when it is a file (lets the XSD pass stream it again).
    private static func validate(_ input: ByteInput, format: FileFormat?, options: ValidationOptions,
                                 filePath: String?) -> ValidationResult {
        if let coverage = options.coverage {
            // The coverage check reads the features again: keep the bytes for both passes.
            let bytes: [UInt8]
            do { bytes = try input.readAll() } catch let diagnostic as Diagnostic {
                return ValidationResult(file: input.name, format: nil, findings: [diagnostic], isUnreadable: true)
            } catch {
                return ValidationResult(file: input.name, format: nil, findings: [unreadable(input, "\(error)")], isUnreadable: true)
            }
            var rest = options
            rest.coverage = nil
            var result = validate(ByteInput(bytes: bytes, name: input.name), format: format, options: rest, filePath: filePath)
            guard !result.isUnreadable else { return result }
            result.findings += checkCoverage(coverage, ByteInput(bytes: bytes, name: input.name), format: result.format)
            sortByPlace(&result.findings)
            return result
        }
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
                findings = try validateKML(input, filePath: filePath, options: options)
            case .kmz:
                findings = try validateKMZ(input, options: options)
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
        do {
            return validate(try ByteInput(path: path), format: format, options: options, filePath: path == "-" ? nil : path)
        } catch let diagnostic as Diagnostic {
            return ValidationResult(file: path == "-" ? nil : path, format: nil, findings: [diagnostic], isUnreadable: true)
        } catch {
            return ValidationResult(file: path, format: nil,
                                    findings: [Diagnostic(.error, code: .ioOpenFailed, message: "cannot open \(path): \(error)")],
                                    isUnreadable: true)
        }
    }

    /// The coverage check's findings over every feature `input` holds; none when the features
    /// cannot be read (the other checks report why).
    private static func checkCoverage(_ check: CoverageCheck, _ input: ByteInput, format: FileFormat?) -> [Diagnostic] {
        var features = [Feature]()
        do {
            var reader = try FeatureIO.reader(for: input, format: format)
            while let feature = try reader.next() {
                var located = feature
                located.location?.file = input.name
                features.append(located)
            }
        } catch {
            return []
        }
        return check.findings(features)
    }

    /// KML: the streaming checks, then (with `--schema`) libxml2's XSD validation. A file is
    /// read twice for the schema (streamed both times); standard input is held in memory.
    private static func validateKML(_ input: ByteInput, filePath: String?, options: ValidationOptions) throws -> [Diagnostic] {
        guard let schemaPath = options.schemaPath else {
            return try KMLValidator(input: input, checksGeometry: options.checksGeometry, atsLevel: options.atsLevel).validate()
        }
        guard access(schemaPath, R_OK) == 0 else {
            throw Diagnostic(.error, code: .kmlSchemaUnreadable,
                             message: "cannot read the XML Schema \(schemaPath): \(String(cString: strerror(errno)))")
        }
        if let path = filePath {
            var findings = try KMLValidator(input: input, checksGeometry: options.checksGeometry, atsLevel: options.atsLevel).validate()
            // A document that is not well-formed has already said so; the XSD would only repeat it.
            if !findings.contains(where: { $0.code == .kmlXmlSyntax }) {
                findings += try XMLStreamReader.schemaViolations(path: path, bytes: nil, displayName: path, schemaPath: schemaPath)
            }
            return findings
        }
        let bytes = try input.readAll()
        var findings = try KMLValidator(input: ByteInput(bytes: bytes, name: input.name), checksGeometry: options.checksGeometry,
                                        atsLevel: options.atsLevel).validate()
        if !findings.contains(where: { $0.code == .kmlXmlSyntax }) {
            findings += try XMLStreamReader.schemaViolations(path: nil, bytes: bytes, displayName: input.name, schemaPath: schemaPath)
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

import OverlayModel

/// Validates a GeoJSON text (or a GeoJSON text sequence) by streaming it: a FeatureCollection's
/// features are read one at a time into a reused arena, checked for structure
/// (`GeoJSONStructureCheck`) and geometry validity, and dropped, so memory stays bounded by the
/// largest feature and time is linear in the input (plus O(n log n) per polygon).
///
/// Every finding carries file, line, column and JSON Pointer. A JSON syntax error ends the
/// check of that file (nothing after it can be located reliably) and is reported like any
/// other error.
struct GeoJSONValidator {
    let input: ByteInput
    /// True for GeoJSON text sequences (RFC 8142 / newline-delimited): several roots.
    let sequence: Bool
    var checksGeometry = true
    /// Whether positions are read as runs (`LocatedJSON.Kind.positions`); off only in tests
    /// that compare with the plain reading.
    var readsPositionRuns = true
    /// The reading window's first size (tests make it small to cross its end inside runs).
    var initialWindow = 1 << 20

    func validate() throws -> [Diagnostic] {
        let scanner = JSONScanner(input: input, initialCapacity: initialWindow)
        scanner.readsPositionRuns = readsPositionRuns
        var findings: [Diagnostic] = []
        var precision = GeoJSONStructureCheck.PrecisionTally()
        do {
            if try scanner.skipByteOrderMark() { findings.append(GeoJSONDiagnosticCode.byteOrderMarkNote(file: input.name)) }
            var rootIndex = 0
            while true {
                let next = sequence ? try scanner.peekSignificantSkippingRecordSeparators() : try scanner.peekSignificant()
                guard let byte = next else {
                    if rootIndex == 0 {
                        findings.append(scanner.error(.jsonUnexpectedEnd, "input holds no JSON value"))
                    }
                    break
                }
                if rootIndex > 0 && !sequence {
                    findings.append(scanner.error(.jsonTrailingContent,
                                                  "unexpected content after the GeoJSON object (a GeoJSON text holds exactly one value)"))
                    break
                }
                let base = sequence ? [String(rootIndex)] : []
                scanner.path = sequence ? [.index(rootIndex)] : []
                try validateRoot(scanner, first: byte, path: base, precision: &precision, into: &findings)
                rootIndex += 1
            }
        } catch var diagnostic as Diagnostic where !diagnostic.isIOError {
            if diagnostic.location?.jsonPointer == "" { diagnostic.location?.jsonPointer = nil }
            findings.append(diagnostic)
        }
        if precision.count > GeoJSONStructureCheck.PrecisionTally.reportedLimit, let first = precision.firstUnreported {
            findings.append(Diagnostic(.note, code: GeoJSONDiagnosticCode.precision.code,
                                       message: "\(precision.count) positions in all have more than \(GeoJSONStructureCheck.PrecisionTally.maximumDecimals) decimals; the ones after the first \(GeoJSONStructureCheck.PrecisionTally.reportedLimit) are not listed one by one",
                                       location: first))
        }
        return findings
    }

    /// Validates one root value. An object is read member by member so that a `features`
    /// array streams; its features' findings are kept until the object's type is known, since
    /// members may come in any order.
    private func validateRoot(_ scanner: JSONScanner, first: UInt8, path: [String],
                              precision: inout GeoJSONStructureCheck.PrecisionTally,
                              into findings: inout [Diagnostic]) throws {
        var top = LocatedJSON()
        guard first == UInt8(ascii: "{") else {
            let node = try scanner.readLocatedValue(into: &top)
            var check = GeoJSONStructureCheck(json: top, file: input.name, path: path, precision: precision)
            check.checksGeometry = checksGeometry
            check.checkObject(node)
            findings += check.findings
            return
        }
        let (line, column) = scanner.lineColumn(at: scanner.absolutePosition)
        scanner.position += 1
        var members: [(key: String?, node: Int)] = []
        var featureFindings: [Diagnostic] = []
        var streamedFeatures = false
        var feature = LocatedJSON()
        if try scanner.peekSignificant() == UInt8(ascii: "}") {
            scanner.position += 1
        } else {
            repeat {
                let key = try scanner.readKey()
                scanner.path.append(.key(key))
                if key == "features", !streamedFeatures, try scanner.peekSignificant() == UInt8(ascii: "[") {
                    streamedFeatures = true
                    let (arrayLine, arrayColumn) = scanner.lineColumn(at: scanner.absolutePosition)
                    scanner.position += 1
                    var index = 0
                    if try scanner.peekSignificant() == UInt8(ascii: "]") {
                        scanner.position += 1
                    } else {
                        repeat {
                            scanner.path.append(.index(index))
                            feature.removeAll()
                            let node = try scanner.readLocatedValue(into: &feature)
                            scanner.path.removeLast()
                            var check = GeoJSONStructureCheck(json: feature, file: input.name,
                                                              path: path + ["features", String(index)], precision: precision)
            check.checksGeometry = checksGeometry
                            if feature.kind(node) == .object {
                                check.checkDuplicates(node)
                                check.checkFeature(node)
                            } else {
                                featureFindings.append(Diagnostic(.error, code: GeoJSONDiagnosticCode.featureNotObject.code,
                                                                  message: "every feature must be an object, found \(feature.typeName(node))",
                                                                  location: SourceLocation(file: input.name, line: line, column: column,
                                                                                           jsonPointer: JSONPointer.make(path + ["features", String(index)]))))
                            }
                            precision = check.precision
                            featureFindings += check.findings
                            index += 1
                        } while try scanner.commaOrCloseAfterValue(UInt8(ascii: "]"))
                    }
                    // An empty stand-in, so the collection's own checks see a `features` array.
                    members.append((key, top.appendContainer(.array, line: arrayLine, column: arrayColumn, members: [])))
                } else {
                    members.append((key, try scanner.readLocatedValue(into: &top, runs: scanner.readsPositionRuns && key == "coordinates")))
                }
                scanner.path.removeLast()
            } while try scanner.commaOrCloseAfterValue(UInt8(ascii: "}"))
        }
        let root = top.appendContainer(.object, line: line, column: column, members: members)
        var check = GeoJSONStructureCheck(json: top, file: input.name, path: path, precision: precision)
            check.checksGeometry = checksGeometry
        check.checkObject(root)
        precision = check.precision
        findings += check.findings
        // geojsonhint reads `features` only as part of a FeatureCollection.
        if let type = top.member(root, "type").flatMap({ top.string($0) }), type == "FeatureCollection" {
            findings += featureFindings
        }
    }
}

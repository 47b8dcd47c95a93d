import TestSupport
import XCTest
@testable import OverlayKit
import OverlayModel

/// A JSON value for comparing tiles with geojson-vt's expected output (numbers as Double).
indirect enum TileJSON: Equatable, CustomStringConvertible {
    case null, bool(Bool), number(Double), string(String), array([TileJSON]), object([String: TileJSON])

    var description: String { text }

    /// Compact JSON text (object keys sorted).
    var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        case .string(let value): "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members): "{" + members.keys.sorted().map { "\"\($0)\":" + members[$0]!.text }.joined(separator: ",") + "}"
        }
    }

    subscript(key: String) -> TileJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var array: [TileJSON]? { if case .array(let items) = self { return items } else { return nil } }
    var number: Double? { if case .number(let value) = self { return value } else { return nil } }
    var string: String? { if case .string(let value) = self { return value } else { return nil } }

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let number): self = .number(Double(number))
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(TileJSON.init))
        case .object(let object): self = TileJSON(object)
        }
    }

    init(_ object: JSONObject) {
        var members = [String: TileJSON]()
        for member in object where members[member.key] == nil { members[member.key] = TileJSON(member.value) }
        self = .object(members)
    }

    /// geojson-vt's tile feature: {geometry, type, tags, id?}.
    init(_ feature: TileFeature) {
        let rings = feature.rings.map { ring in TileJSON.array(ring.map { .array([.number(Double($0.x)), .number(Double($0.y))]) }) }
        var members: [String: TileJSON] = [
            "geometry": feature.type == .point ? (rings.first ?? .array([])) : .array(rings),
            "type": .number(Double(feature.type.rawValue)),
            "tags": feature.properties.map(TileJSON.init) ?? .null,
        ]
        if let id = feature.id { members["id"] = TileJSON(id) }
        self = .object(members)
    }

    /// Parses JSON text with the project's scanner (the same one `KMLTestSupport.json` uses).
    static func parse(_ text: String) throws -> TileJSON {
        TileJSON(try JSONScanner(input: ByteInput(string: text)).readValue())
    }
}

/// Where the shared corpus is, relative to the package root; skips the test when absent.
func tileCorpusURL(_ relative: String) throws -> URL {
    try TestPaths.corpusFolder(relative)
}

/// Reads every feature of GeoJSON text with the project's reader.
func tileReadFeatures(_ text: String) throws -> [Feature] {
    var reader = GeoJSONReader(input: ByteInput(string: text))
    return try reader.readAll()
}

/// The geojson-vt options of a fixture case (`{indexMaxZoom: …}`), on top of `base`.
func tileOptions(_ json: TileJSON?, base: TileOptions = TileOptions()) -> TileOptions {
    var options = base
    guard case .object(let members)? = json else { return options }
    for (key, value) in members {
        switch key {
        case "maxZoom": options.maxZoom = Int(value.number!)
        case "indexMaxZoom": options.indexMaxZoom = Int(value.number!)
        case "indexMaxPoints": options.indexMaxPoints = Int(value.number!)
        case "tolerance": options.tolerance = value.number!
        case "extent": options.extent = Int(value.number!)
        case "buffer": options.buffer = Int(value.number!)
        case "promoteId": options.promoteID = value.string
        case "generateId": options.generateID = value == .bool(true)
        case "lineMetrics": options.lineMetrics = value == .bool(true)
        default: break
        }
    }
    return options
}

/// Conformance with mapbox/geojson-vt's own expected tiles (../shared/corpus/geojson-vt).
///
/// Each case runs twice: with `keepRingsValid = false` our tiles must equal geojson-vt's
/// exactly (same tiles, same features in the same order, same integer coordinates); with the
/// default `keepRingsValid = true` every tile that differs must differ only by the intentional
/// changes listed in `intentionalDifferences`, and the test prints each one.
final class GeoJSONVTTests: XCTestCase {
    /// Every way our output differs from geojson-vt on purpose, with the reason: the one place
    /// that lists them.
    static let intentionalDifferences: [String: String] = [
        "repairedRings": "a simplified ring had < 4 points or a self-crossing; we simplify it less "
            + "(geojson-vt writes it as is, which renderers and validators reject)",
        "droppedDegenerateRings": "a ring has < 4 points or zero area even at full detail (a clipping "
            + "sliver); we drop it and count it (geojson-vt writes it)",
        "droppedDegenerateLines": "a line clipped to a single point; we drop it (MVT needs 2)",
    ]

    struct Case {
        var input: String
        var expected: String
        var options: TileOptions
    }

    static let fullCases: [Case] = {
        func options(_ configure: (inout TileOptions) -> Void) -> TileOptions {
            var options = TileOptions()
            options.indexMaxZoom = 0
            options.indexMaxPoints = 10000
            configure(&options)
            return options
        }
        return [
            Case(input: "us-states.json", expected: "us-states-tiles.json",
                 options: options { $0.indexMaxZoom = 7; $0.indexMaxPoints = 200 }),
            Case(input: "dateline.json", expected: "dateline-tiles.json", options: options { _ in }),
            Case(input: "dateline.json", expected: "dateline-metrics-tiles.json", options: options { $0.lineMetrics = true }),
            Case(input: "feature.json", expected: "feature-tiles.json", options: options { _ in }),
            Case(input: "collection.json", expected: "collection-tiles.json", options: options { _ in }),
            Case(input: "single-geom.json", expected: "single-geom-tiles.json", options: options { _ in }),
            Case(input: "ids.json", expected: "ids-promote-id-tiles.json", options: options { $0.promoteID = "prop0" }),
            Case(input: "ids.json", expected: "ids-generate-id-tiles.json", options: options { $0.generateID = true }),
        ]
    }()

    /// Compares one case; returns (matching tiles, total tiles, mismatch descriptions).
    func compare(_ testCase: Case, keepRingsValid: Bool) throws -> (Int, Int, [String], TileIndex) {
        let directory = try tileCorpusURL("geojson-vt/fixtures")
        let input = try String(contentsOf: directory.appendingPathComponent(testCase.input), encoding: .utf8)
        let expectedText = try String(contentsOf: directory.appendingPathComponent(testCase.expected), encoding: .utf8)
        guard case .object(let expected) = try TileJSON.parse(expectedText) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: testCase.expected])
        }
        var options = testCase.options
        options.keepRingsValid = keepRingsValid
        let index = try TileIndex(features: tileReadFeatures(input), options: options)
        var mismatches = [String]()
        let built = Set(index.builtTiles.map { "z\($0.z)-\($0.x)-\($0.y)" })
        for key in built.subtracting(expected.keys).sorted() { mismatches.append("\(key): built, but geojson-vt has no such tile") }
        var matching = 0
        for (key, expectedFeatures) in expected.sorted(by: { $0.key < $1.key }) {
            let parts = key.dropFirst().split(separator: "-").map { Int($0)! }
            guard built.contains(key), let tile = index.tile(z: parts[0], x: parts[1], y: parts[2]) else {
                mismatches.append("\(key): geojson-vt has this tile, we did not build it")
                continue
            }
            let ours = tile.features.map(TileJSON.init)
            let theirs = expectedFeatures.array ?? []
            if ours == theirs {
                matching += 1
                continue
            }
            var detail = "\(key): \(ours.count) features vs \(theirs.count)"
            for (position, (a, b)) in zip(ours, theirs).enumerated() where a != b {
                detail += "; first differing feature #\(position):\n  ours:   \(a.text.prefix(400))\n  theirs: \(b.text.prefix(400))"
                break
            }
            let stats = tile.statistics
            detail += "\n  tile statistics: repairedRings \(stats.repairedRings), droppedDegenerateRings "
                + "\(stats.droppedDegenerateRings), droppedDegenerateLines \(stats.droppedDegenerateLines)"
            mismatches.append(detail)
        }
        return (matching, expected.count, mismatches, index)
    }

    func testFixturesMatchExactlyWithoutRingRepair() throws {
        for testCase in Self.fullCases {
            let (matching, total, mismatches, _) = try compare(testCase, keepRingsValid: false)
            print("geojson-vt \(testCase.expected) (\(testCase.input), exact mode): \(matching) of \(total) tiles match")
            XCTAssertEqual(matching, total, "\(testCase.expected):\n" + mismatches.prefix(5).joined(separator: "\n"))
            XCTAssertTrue(mismatches.isEmpty, mismatches.prefix(5).joined(separator: "\n"))
        }
    }

    func testFixturesDifferOnlyByRingRepairByDefault() throws {
        for testCase in Self.fullCases {
            let (matching, total, mismatches, _) = try compare(testCase, keepRingsValid: true)
            print("geojson-vt \(testCase.expected) (\(testCase.input), default mode): \(matching) of \(total) tiles match")
            for mismatch in mismatches {
                print("  intentional difference in \(mismatch)")
                // Every differing tile must have recorded a repair or a dropped degenerate part.
                XCTAssertFalse(mismatch.contains("repairedRings 0, droppedDegenerateRings 0, droppedDegenerateLines 0"),
                               "unexplained difference: \(mismatch)")
            }
        }
        for (name, reason) in Self.intentionalDifferences.sorted(by: { $0.key < $1.key }) { print("  \(name): \(reason)") }
    }

    func inlineCases() throws -> (TileJSON, URL) {
        let url = try tileCorpusURL("geojson-vt/inline-cases.json")
        return (try TileJSON.parse(String(contentsOf: url, encoding: .utf8)), url.deletingLastPathComponent())
    }

    func inputText(_ input: TileJSON, directory: URL) throws -> String {
        if let path = input.string { return try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8) }
        return input.text
    }

    func intValue(_ json: TileJSON?) -> Int { json?.number.map { Int($0.rounded(.down)) } ?? Int(json?.string ?? "") ?? 0 }

    /// test-get-tile.js: drill-down below the index, buffer edges, clipping on the boundary.
    func testGetTileDrillDownCases() throws {
        let (cases, directory) = try inlineCases()
        var checked = 0, matched = 0
        for testCase in cases["getTile"]?.array ?? [] {
            var options = tileOptions(testCase["options"])
            options.keepRingsValid = false
            let index = try TileIndex(features: tileReadFeatures(inputText(testCase["input"]!, directory: directory)), options: options)
            for call in testCase["calls"]?.array ?? [] {
                let (z, x, y) = (intValue(call["z"]), intValue(call["x"]), intValue(call["y"]))
                let tile = index.tile(z: z, x: x, y: y)
                let expected: TileJSON?
                if let features = call["expectedFeatures"] {
                    expected = features.string != nil ? try TileJSON.parse(inputText(features, directory: directory)) : features
                } else {
                    expected = nil
                }
                checked += 1
                let ours = tile.map { TileJSON.array($0.features.map(TileJSON.init)) }
                if ours == expected { matched += 1 }
                XCTAssertEqual(ours, expected, "\(testCase["name"]!.text) getTile(\(z), \(x), \(y))")
            }
            if let total = testCase["afterCalls"]?["indexTotalTilesGenerated"]?.number {
                XCTAssertEqual(index.builtTiles.count, Int(total), "tiles generated after the calls")
            }
        }
        print("geojson-vt inline getTile cases: \(matched) of \(checked) tiles match")
    }

    /// Empty input, null geometry and empty coordinates give no tiles; an unknown type throws.
    func testEmptyAndInvalidInputs() throws {
        let (cases, directory) = try inlineCases()
        for testCase in cases["fullTiling_emptyResults"]?.array ?? [] {
            let text = try inputText(testCase["input"]!, directory: directory)
            if testCase["expected"]?.string != nil {
                XCTAssertThrowsError(try TileIndex(features: tileReadFeatures(text)), "\(text) should not parse")
                continue
            }
            let index = try TileIndex(features: tileReadFeatures(text), options: tileOptions(testCase["options"]))
            XCTAssertEqual(index.builtTiles, [], "\(testCase["input"]!.text)")
        }
    }

    /// test-multi-world.js: points one world east or west land on the world's edge (x 1 or 0
    /// in geojson-vt's unit square; 4096 or 0 in tile units).
    func testMultiWorldPoints() throws {
        let (cases, _) = try inlineCases()
        for testCase in cases["multiWorld"]?["cases"]?.array ?? [] {
            let index = try TileIndex(features: tileReadFeatures(testCase["input"]!.text))
            let tile = try XCTUnwrap(index.tile(z: 0, x: 0, y: 0))
            let expected = testCase["expectedZ0Feature0XY"].map { [$0] } ?? testCase["expectedZ0FeaturesXY"]!.array!
            XCTAssertEqual(tile.features.count, expected.count)
            for (feature, xy) in zip(tile.features, expected) {
                let unit = xy.array!.map { $0.number! * 4096 }
                XCTAssertEqual(feature.rings.first.map { [Double($0[0].x), Double($0[0].y)] }, unit)
            }
        }
    }

    /// test-simplify.js: the importance pass plus a threshold keeps exactly the expected points.
    func testDouglasPeuckerImportanceCase() throws {
        let (cases, _) = try inlineCases()
        let dp = try XCTUnwrap(cases["douglasPeucker"])
        let points: [[Double]] = dp["points"]!.array!.map { point in point.array!.map { $0.number! } }
        var flat = [Double]()
        for point in points { flat += [point[0], point[1], 0] }
        flat[2] = ProjectedFeature.keep
        flat[flat.count - 1] = ProjectedFeature.keep
        DouglasPeucker.computeImportance(&flat, first: 0, last: points.count - 1, squaredTolerance: dp["sqTolerance"]!.number!)
        let threshold = dp["keepIfImportanceGreaterThan"]!.number!
        var kept = [[Double]]()
        for index in stride(from: 0, to: flat.count, by: 3) where flat[index + 2] > threshold {
            kept.append([flat[index], flat[index + 1]])
        }
        let expected: [[Double]] = dp["expectedKept"]!.array!.map { point in point.array!.map { $0.number! } }
        XCTAssertEqual(kept, expected)
        print("geojson-vt Douglas-Peucker case: \(kept.count) of \(points.count) points kept, expected \(expected.count)")
    }
}

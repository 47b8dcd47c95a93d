import Foundation
import OverlayKitTestFixtures
import XCTest
@testable import OverlayKit

/// MapLibre Tiles: what `MLTEncoder` writes, `MLTDecoder` reads back as the same features the
/// MVT of the same tile holds (geometry, ids, properties), for every geometry kind and every
/// column type, and for every tile of real inputs.
final class MLTTests: XCTestCase {
    private func feature(_ type: TileGeometryType, _ rings: [[(Int32, Int32)]], id: JSONValue? = nil,
                         _ properties: JSONObject? = nil) -> TileFeature {
        TileFeature(type: type, xy: rings.flatMap { $0.flatMap { [$0.0, $0.1] } }, ringLengths: rings.map(\.count),
                    id: id, properties: properties)
    }

    private func tile(_ features: [TileFeature], extent: Int = 4096) -> VectorTile {
        VectorTile(id: TileID(z: 3, x: 2, y: 1), extent: extent, features: features, statistics: TileStatistics(),
                   sourcePointCount: 0, pointCount: 0)
    }

    /// The MLT of `tile` decoded, checked against the MVT of it decoded.
    @discardableResult
    private func assertSameAsMVT(_ tile: VectorTile, file: StaticString = #filePath, line: UInt = #line) throws -> [DecodedTileLayer] {
        let (mlt, _) = MLTEncoder(layerName: "layer").encode(tile)
        let (mvt, _) = MVTEncoder(layerName: "layer").encode(tile)
        let fromMLT = try MLTDecoder.decode(mlt)
        let fromMVT = try MVTTileDecoder().decodeLayers(mvt)
        XCTAssertEqual(fromMLT, fromMVT, file: file, line: line)
        return fromMLT
    }

    private let square: [(Int32, Int32)] = [(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)]
    private let hole: [(Int32, Int32)] = [(20, 20), (20, 80), (80, 80), (80, 20), (20, 20)]
    private let farSquare: [(Int32, Int32)] = [(200, 200), (300, 200), (300, 300), (200, 300), (200, 200)]

    func testEveryGeometryKindInOneLayer() throws {
        let layers = try assertSameAsMVT(tile([
            feature(.point, [[(5, 5)]], id: .integer(1)),
            feature(.point, [[(5, 5), (-10, 4200), (7, 7)]], id: .integer(2)),
            feature(.line, [[(0, 0), (10, 10), (20, 0)]], id: .integer(3)),
            feature(.line, [[(0, 0), (10, 10)], [(50, 50), (60, 70), (80, 90)]]),
            feature(.polygon, [square, hole], id: .integer(5)),
            feature(.polygon, [square, hole, farSquare]),
            feature(.polygon, [farSquare]),
        ]))
        XCTAssertEqual(layers.first?.features.count, 7)
        XCTAssertEqual(layers.first?.features[5].ringLengths, [5, 5, 5])
    }

    /// Each kind alone (the length streams present differ with the kinds a column holds).
    func testEachKindAloneAndInPairs() throws {
        let kinds: [TileFeature] = [
            feature(.point, [[(5, 5)]]), feature(.point, [[(1, 2), (3, 4)]]),
            feature(.line, [[(0, 0), (10, 10)]]), feature(.line, [[(0, 0), (10, 10)], [(5, 5), (6, 6)]]),
            feature(.polygon, [square]), feature(.polygon, [square, farSquare]),
        ]
        for first in kinds.indices {
            for second in kinds.indices { try assertSameAsMVT(tile([kinds[first], kinds[second]])) }
        }
    }

    func testUndrawablePartsAreLeftOutAsMVTLeavesThemOut() throws {
        let layers = try assertSameAsMVT(tile([
            feature(.line, [[(1, 1)]]),                                       // one point: nothing to draw
            feature(.polygon, [[(0, 0), (5, 0), (0, 0)], square]),           // a two-point ring, then a square
            feature(.point, [[(3, 3)]]),
        ]))
        XCTAssertEqual(layers.first?.features.map(\.type), [.polygon, .point])
    }

    func testIDsNullableAndSixtyFourBit() throws {
        let layers = try assertSameAsMVT(tile([
            feature(.point, [[(1, 1)]], id: .integer(7)),
            feature(.point, [[(2, 2)]]),
            feature(.point, [[(3, 3)]], id: .integer(Int64(UInt32.max) + 10)),
            feature(.point, [[(4, 4)]], id: .string("0012")),                 // not an unsigned integer: not written
        ]))
        XCTAssertEqual(layers.first?.features.map(\.id), [.integer(7), nil, .integer(Int64(UInt32.max) + 10), nil])
        var sequence = [TileFeature]()
        for index in 0..<500 { sequence.append(feature(.point, [[(Int32(index), 0)]], id: .integer(Int64(1000 + index)))) }
        let (bytes, _) = MLTEncoder(layerName: "layer").encode(tile(sequence))
        let plainIDs = sequence.count * 2
        XCTAssertLessThan(bytes.count, 500 * 2 + plainIDs / 4, "ascending ids take delta-RLE: a few bytes, not 2 a feature")
        try assertSameAsMVT(tile(sequence))
    }

    /// Tiles an archive gzips are written without FSST: the same features come back, FSST makes
    /// the raw tile smaller, and gzip makes the tile without it smaller still (HTML descriptions,
    /// as KML placemarks carry them).
    func testTextIsNotFSSTCompressedForTilesGzippedAfter() throws {
        var features = [TileFeature]()
        for index in 0..<8 {
            var properties = JSONObject()
            properties.append("description", .string("<table><tr><td>State</td><td>\(index)</td></tr><tr><td>Area</td><td>"
                + "\(index * 1_234)</td></tr><tr><td>Population</td><td>\(index * 98_765)</td></tr></table>"))
            features.append(feature(.point, [[(Int32(index), Int32(index))]], properties))
        }
        let withFSST = MLTEncoder(layerName: "layer").encode(tile(features)).0
        let without = MLTEncoder(layerName: "layer", compressesStrings: false).encode(tile(features)).0
        XCTAssertEqual(try MLTDecoder.decode(without).first?.features.map(\.properties),
                       try MLTDecoder.decode(withFSST).first?.features.map(\.properties))
        XCTAssertLessThan(withFSST.count, without.count, "FSST is the smallest raw form of this column")
        XCTAssertLessThan(try Gzip.compress(without).count, try Gzip.compress(withFSST).count)
    }

    func testEveryColumnType() throws {
        var features = [TileFeature]()
        let words = ["Rue de la République", "Rue de la Paix", "Avenue de la République", "Boulevard de la Paix"]
        for index in 0..<300 {
            var properties = JSONObject()
            properties.append("flag", .bool(index % 3 == 0))
            properties.append("count", .integer(Int64(index)))
            properties.append("signed", .integer(Int64(index) - 150))
            properties.append("big", .integer(Int64(index) << 40))
            properties.append("half", .number(Double(index) + 0.5))                  // a float holds it
            properties.append("fine", .number(Double(index) / 7))                    // a double
            properties.append("class", .string(index % 2 == 0 ? "house" : "shed"))  // a dictionary
            properties.append("street", .string("\(words[index % 4]) \(index)"))     // FSST
            if index % 5 == 0 { properties.append("sparse", .string("yes")) }
            properties.append("nothing", .null)
            properties.append("list", .array([.integer(1), .integer(2)]))
            features.append(feature(.point, [[(Int32(index), Int32(index))]], properties))
        }
        let layers = try assertSameAsMVT(tile(features))
        let first = try XCTUnwrap(layers.first?.features.first?.properties)
        XCTAssertEqual(first["list"], .string("[1,2]"))
        XCTAssertNil(first["nothing"])
        let (bytes, losses) = MLTEncoder(layerName: "layer").encode(tile(features))
        XCTAssertEqual(losses.nullValuesNotWritten, 300)
        XCTAssertEqual(losses.valuesWrittenAsJSON, 300)
        let (mvt, _) = MVTEncoder(layerName: "layer").encode(tile(features))
        XCTAssertLessThan(Double(bytes.count), 0.6 * Double(mvt.count), "columns, dictionaries and FSST beat MVT's tags")
    }

    func testFSSTRoundTripsAndShrinksRepeatedPieces() throws {
        let strings = (0..<200).map { Array("Avenue des Champs-Élysées \($0 * 7) bis".utf8) }
        let table = MLTFSST(training: strings)
        var compressed = [UInt8]()
        for string in strings { table.compress(string, into: &compressed) }
        XCTAssertLessThan(compressed.count, strings.reduce(0) { $0 + $1.count } / 3)
        let back = try MLTFSST.decompress(compressed[...], symbolBytes: table.symbolBytes[...],
                                          symbolLengths: table.symbolLengths.map(UInt64.init), reader: MLTWire.Reader([]))
        XCTAssertEqual(back, strings.flatMap { $0 })
    }

    /// String columns size their candidates from the plans of their integer streams: each plan's
    /// size is the bytes the stream then takes, for every encoding it picks.
    func testIntegerStreamPlansGiveTheBytesWritten() throws {
        let streams: [[UInt64]] = [[], [7], [1, 300, 2, 70_000, 5],                              // plain
                                   Array(1_000...1_200).map(UInt64.init),                     // delta
                                   Array(repeating: 9, count: 200) + Array(repeating: 300, count: 300), // RLE
                                   Array(repeating: 1, count: 1_000),                          // RLE, a long run
                                   (0..<400).map { UInt64($0 * 3) }]                           // delta RLE
        for (index, values) in streams.enumerated() {
            for signed in [false, true] {
                var out = [UInt8]()
                let plan = MLTIntegerStream.plan(values, signed: signed)
                MLTIntegerStream.append(values, signed: signed, kind: .data, logicalStream: 0, to: &out)
                XCTAssertEqual(plan.byteCount, out.count, "stream \(index) signed \(signed)")
                var reader = MLTWire.Reader(out)
                let header = try MLTWire.StreamHeader.read(&reader)
                XCTAssertEqual(try MLTIntegerStream.read(&reader, header: header, signed: signed), values)
            }
        }
    }

    /// Boolean streams are built in one tile's reused buffers (`MLTColumnScratch`), column after
    /// column: each reads back as its bits, for runs ORC's byte RLE writes whole, splits (more than
    /// 130 equal bytes) or leaves as literals (fewer than 3), literal groups past 128 bytes, runs
    /// between literals, and a short stream after a long one in the same buffers.
    func testBooleanStreamsReadBackFromReusedBuffers() throws {
        let streams: [[Bool]] = [[], [true], [false, true, true],
                                 Array(repeating: true, count: 8 * 3),                       // one run of 3
                                 Array(repeating: false, count: 8 * 130),                    // the longest run
                                 Array(repeating: true, count: 8 * 131 + 5),                 // a run split, a tail
                                 (0..<8 * 300).map { ($0 * 7_919) % 13 < 5 },                // literals past 128
                                 (0..<3_000).map { $0 / 40 % 3 == 0 || $0 % 97 == 0 },       // runs and literals
                                 [true, false]]
        var scratch = MLTColumnScratch()
        for (index, bits) in streams.enumerated() {
            var out = [UInt8]()
            scratch.appendBooleanStream(bits, kind: .present, to: &out)
            var reader = MLTWire.Reader(out)
            let header = try MLTWire.StreamHeader.read(&reader)
            XCTAssertEqual(try MLTWire.readBooleans(&reader, header: header), bits, "stream \(index)")
            XCTAssertTrue(reader.isAtEnd, "stream \(index)")
        }
    }

    /// Tiles cut from a property table fill their columns with the table's value numbers and find
    /// text dictionaries by number: the bytes equal those of the same tile whose features carry
    /// their own properties (columns found by name, dictionaries by the texts' bytes), for columns
    /// of every type, few and many rows (the scan and the table of numbers), nulls, mixed kinds.
    func testColumnsFromAPropertyTableEqualThoseFromFeatureProperties() throws {
        for count in [1, 3, 16, 17, 400] {
            var features = [TileFeature](), attributes = [TileAttributes]()
            for index in 0..<count {
                var properties = JSONObject()
                properties.append("kind", .string(["house", "shed", "garage"][index % 3]))
                properties.append("name", .string("feature \(index % 7 == 0 ? 0 : index)"))
                properties.append("height", .number(Double(index % 50) + 0.3))
                properties.append("levels", .integer(Int64(index % 9) - 2))
                if index % 4 == 0 { properties.append("roof", .string("flat")) }
                properties.append("mixed", index % 2 == 0 ? .integer(Int64(index)) : .string("\(index)"))
                properties.append("open", .bool(index % 3 == 0))
                properties.append("none", .null)
                features.append(feature(.point, [[(Int32(index), Int32(2 * index))]], properties))
                attributes.append(TileAttributes(id: nil, properties: properties))
            }
            let own = tile(features)
            var fromTable = own
            fromTable.propertyTable = MVTPropertyTable(attributes)
            fromTable.propertySources = Array(0..<count)
            let encoder = MLTEncoder(layerName: "layer")
            let (ownBytes, ownLosses) = encoder.encode(own)
            let (tableBytes, tableLosses) = encoder.encode(fromTable)
            XCTAssertEqual(tableBytes, ownBytes, "\(count) features")
            XCTAssertEqual(tableLosses, ownLosses)
            XCTAssertEqual(tableLosses.valuesWrittenAsJSON, count == 1 ? 0 : (count + 1) / 2, "the mixed column's numbers as text")
            let decoded = try XCTUnwrap(MLTDecoder.decode(tableBytes).first)
            XCTAssertEqual(decoded.features.count, count)
            XCTAssertEqual(decoded.features.last?.properties?["name"], .string("feature \(count - 1 == 0 ? 0 : (count - 1) % 7 == 0 ? 0 : count - 1)"))
        }
    }

    /// A tile of one feature writes that feature's columns, kept per property-table entry from the
    /// second tile on: the bytes and losses are those of the same tile with its own properties
    /// every time, and a tile of another feature gets its own columns, not the kept ones.
    func testOneFeatureTilesKeepTheirColumnsPerEntry() throws {
        var attributes = [TileAttributes](), features = [TileFeature]()
        for index in 0..<2 {
            var properties = JSONObject()
            properties.append("name", .string(String(repeating: "Provincia de la Frontera \(index) ", count: 12)))
            properties.append("code", .integer(Int64(index) - 7))
            properties.append("area", .number(1.5 + Double(index)))
            properties.append("tags", .array([.integer(Int64(index))]))
            properties.append("note", .null)
            features.append(feature(.polygon, [square], properties))
            attributes.append(TileAttributes(id: nil, properties: properties))
        }
        let table = MVTPropertyTable(attributes)
        let encoder = MLTEncoder(layerName: "layer")
        for index in [0, 0, 0, 1, 1, 1, 0] {
            let own = tile([features[index]])
            var fromTable = own
            fromTable.propertyTable = table
            fromTable.propertySources = [index]
            let (ownBytes, ownLosses) = encoder.encode(own)
            let (tableBytes, tableLosses) = encoder.encode(fromTable)
            XCTAssertEqual(tableBytes, ownBytes, "feature \(index)")
            XCTAssertEqual(tableLosses, ownLosses)
            XCTAssertEqual(tableLosses.nullValuesNotWritten, 1)
            XCTAssertEqual(tableLosses.valuesWrittenAsJSON, 1)
            try assertSameAsMVT(fromTable)
        }

        let kept = MLTKeptColumns(entryCount: 3)
        var builds = 0
        func ask(_ entry: Int) -> [UInt8] {
            kept.columns(entries: [entry]) {
                builds += 1
                return MLTKeptColumns.Columns(count: 1, metadata: [UInt8(entry)], data: [UInt8(entry), 9], convertedToText: 0)
            }.data
        }
        XCTAssertEqual([ask(2), ask(2), ask(2), ask(2), ask(1)], [[2, 9], [2, 9], [2, 9], [2, 9], [1, 9]])
        XCTAssertEqual(builds, 3, "built the first and second time it is asked for, then kept")
        XCTAssertEqual([ask(5), ask(5), ask(5)], [[5, 9], [5, 9], [5, 9]])
        XCTAssertEqual(builds, 6, "an entry beyond the table is built every time, never kept")
    }

    /// A tile of several features writes the columns of its entries in feature order, kept from
    /// the second tile of the same entries on: the bytes and losses are those of the same tile
    /// with its own properties every time, whatever tiles came before; the same features in
    /// another order, or other features, get their own columns; tiles of more than
    /// `MLTKeptColumns.maximumRows` features are built every time.
    func testTilesOfTheSameFeaturesKeepTheirColumns() throws {
        var attributes = [TileAttributes](), features = [TileFeature]()
        for index in 0..<3 {
            var properties = JSONObject()
            properties.append("name", .string(String(repeating: "Provincia de la Frontera \(index) ", count: 12)))
            properties.append("code", .integer(Int64(index) - 7))
            properties.append("tags", .array([.integer(Int64(index))]))
            properties.append("note", .null)
            // Last, so the first-use order of the columns is every feature's own order.
            if index != 1 { properties.append("area", .number(1.5 + Double(index))) }
            features.append(feature(.polygon, [square], properties))
            attributes.append(TileAttributes(id: nil, properties: properties))
        }
        let table = MVTPropertyTable(attributes)
        let encoder = MLTEncoder(layerName: "layer")
        for entries in [[0, 1], [0, 1], [0, 1], [1, 0], [1, 0], [0, 1, 2], [1, 0], [0, 1, 2], [0, 1, 2], [2, 0], [0, 1]] {
            let own = tile(entries.map { features[$0] })
            var fromTable = own
            fromTable.propertyTable = table
            fromTable.propertySources = entries
            let (ownBytes, ownLosses) = encoder.encode(own)
            let (tableBytes, tableLosses) = encoder.encode(fromTable)
            XCTAssertEqual(tableBytes, ownBytes, "entries \(entries)")
            XCTAssertEqual(tableLosses, ownLosses)
            XCTAssertEqual(tableLosses.nullValuesNotWritten, entries.count)
            XCTAssertEqual(tableLosses.valuesWrittenAsJSON, entries.count)
            try assertSameAsMVT(fromTable)
        }

        let kept = MLTKeptColumns(entryCount: 1_000)
        var builds = 0
        func ask(_ entries: [Int]) -> [UInt8] {
            kept.columns(entries: entries) {
                builds += 1
                return MLTKeptColumns.Columns(count: 1, metadata: [], data: entries.map { UInt8($0 % 256) }, convertedToText: 0)
            }.data
        }
        XCTAssertEqual([ask([3, 4]), ask([3, 4]), ask([3, 4]), ask([4, 3]), ask([3, 4, 5])], [[3, 4], [3, 4], [3, 4], [4, 3], [3, 4, 5]])
        XCTAssertEqual(builds, 4, "[3, 4] built the first and second time, then kept; [4, 3] and [3, 4, 5] are other tiles")
        let many = Array(0...MLTKeptColumns.maximumRows)
        for _ in 0..<3 { XCTAssertEqual(ask(many), many.map { UInt8($0 % 256) }) }
        XCTAssertEqual(builds, 7, "a tile of more than maximumRows features is built every time")
    }

    /// Training samples at most 4 KB: one long string is sampled by its start (a string alone is
    /// counted in the last two generations only, so its table holds pieces of two bytes), and the
    /// table still compresses all of it; the same strings always train the same table.
    func testFSSTSamplesALongStringByItsStart() throws {
        let long = Array(String(repeating: "Calle Mayor, Madrid; ", count: 5_000).utf8)
        let table = MLTFSST(training: [long])
        var compressed = [UInt8]()
        table.compress(long, into: &compressed)
        XCTAssertLessThanOrEqual(compressed.count, long.count / 2)
        let back = try MLTFSST.decompress(compressed[...], symbolBytes: table.symbolBytes[...],
                                          symbolLengths: table.symbolLengths.map(UInt64.init), reader: MLTWire.Reader([]))
        XCTAssertEqual(back, long)
        let names = (0..<500).map { Array("Rue \($0 % 37) de la Paix".utf8) }
        let first = MLTFSST(training: names), second = MLTFSST(training: names)
        XCTAssertEqual(first.symbolBytes, second.symbolBytes)
        XCTAssertEqual(first.symbolLengths, second.symbolLengths)
    }

    /// FSST tables kept by their sample are the tables training makes: the same texts, texts
    /// whose sample is the same (beyond 4 KB only the sampled strings count), and other texts
    /// each get the table `MLTFSST(training:)` gives them, however often they are asked for.
    func testKeptFSSTTablesAreTheTrainedOnes() throws {
        let tables = MLTFSSTTables()
        let names = (0..<40).map { Array("Rue \($0 % 37) de la Paix".utf8) }
        let long = (0..<600).map { Array("feature \($0 * 37 % 100_003)".utf8) }
        var otherLong = long
        otherLong[599] = Array("not in the sample".utf8)                  // the sample is the first 4 KB here
        XCTAssertEqual(MLTFSST.sample(long), MLTFSST.sample(otherLong))
        XCTAssertNotEqual(MLTFSST.sample(names), MLTFSST.sample(Array(names.reversed())))
        for strings in [names, names, long, otherLong, long, Array(names.reversed()), names] {
            let kept = tables.table(training: strings), trained = MLTFSST(training: strings)
            XCTAssertEqual(kept.symbolBytes, trained.symbolBytes)
            XCTAssertEqual(kept.symbolLengths, trained.symbolLengths)
            var fromKept = [UInt8](), fromTrained = [UInt8]()
            for string in strings {
                kept.compress(string, into: &fromKept)
                trained.compress(string, into: &fromTrained)
            }
            XCTAssertEqual(fromKept, fromTrained)
        }
        XCTAssertNotEqual(MLTFSST(training: names).symbolBytes, MLTFSST(training: long).symbolBytes)
    }

    /// Tables are trained on a sample of a column's text (4 KB): a column of 3,000 distinct
    /// names, ten times the sample, still compresses to less than half its bytes; a column that
    /// repeats one short string (training's fixed point after two generations) gets it as one symbol.
    func testFSSTTrainedOnASampleCompressesTheWholeColumn() throws {
        let names = (0..<3_000).map { Array("feature \($0 * 37 % 100_003)".utf8) }
        let table = MLTFSST(training: names)
        var compressed = [UInt8]()
        for name in names { table.compress(name, into: &compressed) }
        let total = names.reduce(0) { $0 + $1.count }
        XCTAssertGreaterThan(total, 35_000)
        XCTAssertLessThan(compressed.count + table.symbolBytes.count, total / 2)
        let back = try MLTFSST.decompress(compressed[...], symbolBytes: table.symbolBytes[...],
                                          symbolLengths: table.symbolLengths.map(UInt64.init), reader: MLTWire.Reader([]))
        XCTAssertEqual(back, names.flatMap { $0 })

        let same = Array(repeating: Array("ab".utf8), count: 200)
        let repeated = MLTFSST(training: same)
        var codes = [UInt8]()
        repeated.compress(same[0], into: &codes)
        XCTAssertEqual(codes.count, 1, "\"ab\" is one symbol")
    }

    /// A column mixing kinds that no MLT type holds exactly is written as text, and counted.
    func testMixedKindsBecomeTextAndAreCounted() throws {
        let features = [feature(.point, [[(1, 1)]], ["v": .integer(3)]), feature(.point, [[(2, 2)]], ["v": .string("three")]),
                        feature(.point, [[(3, 3)]], ["v": .bool(true)]), feature(.point, [[(4, 4)]], ["w": .integer(-2), "x": .number(1.5)]),
                        feature(.point, [[(5, 5)]], ["x": .integer(2)])]
        let (bytes, losses) = MLTEncoder(layerName: "layer").encode(tile(features))
        XCTAssertEqual(losses.valuesWrittenAsJSON, 2)
        let decoded = try XCTUnwrap(MLTDecoder.decode(bytes).first).features.map { $0.properties ?? [:] }
        XCTAssertEqual(decoded.map { $0["v"] }, [.string("3"), .string("three"), .string("true"), nil, nil])
        XCTAssertEqual(decoded[3]["w"], .integer(-2))
        XCTAssertEqual(decoded.map { $0["x"] }, [nil, nil, nil, .number(1.5), .number(2)], "integers join a float column as numbers")
    }

    func testTruncatedAndDamagedTilesAreBadTileErrors() throws {
        let (bytes, _) = MLTEncoder(layerName: "layer").encode(tile([feature(.polygon, [square, hole], ["name": .string("a")])]))
        for cut in [1, 5, bytes.count / 2, bytes.count - 1] {
            XCTAssertThrowsError(try MLTDecoder.decode(Array(bytes.prefix(cut)))) { error in
                XCTAssertEqual((error as? Diagnostic)?.code, .mltBadTile, "cut at \(cut)")
            }
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var damaged = bytes
            damaged[Int.random(in: 1..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            _ = try? MLTDecoder.decode(damaged)                                 // an error or a tile, never a crash
        }
    }

    /// Every tile of real inputs: the MLT decodes to the MVT's features.
    func testEveryTileOfTheExamplesMatchesItsMVT() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("Examples")
        for (file, maxZoom) in [("countries.geojson", 5), ("parks.geojson", 8), ("roads.geojsonl", 8), ("render-holes.geojson", 6)] {
            let tiles = try MLTTileComparison.compareEveryTile(of: root.appendingPathComponent(file).path, maxZoom: maxZoom)
            XCTAssertGreaterThan(tiles, 0, file)
        }
    }

    func testEveryTileOfTheGeoJSONVTFixturesMatchesItsMVT() throws {
        let folder = try TestPaths.corpusFolder("geojson-vt/fixtures")
        for name in ["us-states.json", "collection.json", "dateline.json", "feature.json", "ids.json", "single-geom.json"] {
            _ = try MLTTileComparison.compareEveryTile(of: folder.appendingPathComponent(name).path, maxZoom: name == "us-states.json" ? 5 : 8)
        }
    }
}

import Foundation
import OverlayModel
import OverlayKitTestFixtures
import XCTest
@testable import OverlayKit

/// Shared borders stay shared (`TileOptions.sharedBorders`): on coverages written here — a
/// Voronoi partition of a rectangle, a grid with enclaves, both across tile edges and the
/// antimeridian — every tile of every zoom has, exactly in integer tile units, no overlap
/// (Σ area = area of the union) and no gap (the union is the rectangle within the tile), on
/// the memory and the disk feature store; without shared borders the same tiles have both.
final class SharedBorderTests: XCTestCase {
    typealias Rectangle = (west: Double, south: Double, east: Double, north: Double)

    private final class Collected: @unchecked Sendable {
        let lock = NSLock()
        var tiles = [VectorTile]()
        func add(_ tile: VectorTile) {
            lock.lock()
            tiles.append(tile)
            lock.unlock()
        }
    }

    private func options(maxZoom: Int, shared: Bool = true) -> TileOptions {
        var options = TileOptions()
        options.maxZoom = maxZoom
        options.sharedBorders = shared
        options.accumulatesTinyShapes = true
        return options
    }

    /// Every non-empty tile of `source`, z0 to its max zoom (on disk, subtrees of at most
    /// `loadBytes` of records are walked in memory; 0 cuts every tile while its records are read).
    private func tiles(_ source: TileSource, loadBytes: Int = TilePyramid.loadBytes) throws -> [VectorTile] {
        let collected = Collected()
        _ = try TilePyramid.build(source, minZoom: 0, parallelism: 2, loadBytes: loadBytes, emit: { tile in
            collected.add(tile)
            return 0
        }, emitBlock: nil)
        return collected.tiles.sorted { ($0.id.z, $0.id.x, $0.id.y) < ($1.id.z, $1.id.x, $1.id.y) }
    }

    /// The rectangle (and its copy one world east or west when it crosses the antimeridian) in
    /// `tile`'s integer units, clipped to the buffered tile, as the tiles round its corners.
    private func region(_ rectangle: Rectangle, tile: TileID, options: TileOptions) -> [(Int64, Int64, Int64, Int64)] {
        let units = TileUnits(tile: tile, extent: options.extent)
        let world = MapProjection.worldSize
        let west = FeatureProjector.x(longitude: rectangle.west), east = FeatureProjector.x(longitude: rectangle.east)
        let top = MapPoint(Coordinate(latitude: rectangle.north, longitude: 0)).y
        let bottom = MapPoint(Coordinate(latitude: rectangle.south, longitude: 0)).y
        let low = Int64(-options.buffer), high = Int64(options.extent + options.buffer)
        var result = [(Int64, Int64, Int64, Int64)]()
        for shift in [-world, 0, world] {
            let x0 = max(Int64(TileUnits.round(units.x(west + shift))), low), x1 = min(Int64(TileUnits.round(units.x(east + shift))), high)
            let y0 = max(Int64(TileUnits.round(units.y(top))), low), y1 = min(Int64(TileUnits.round(units.y(bottom))), high)
            if x0 < x1 && y0 < y1 { result.append((x0, y0, x1, y1)) }
        }
        return result
    }

    /// Checks every tile: no crossing, no overlap, and (with `rectangle`) no gap and nothing outside it.
    private func assertCoverageKept(_ tiles: [VectorTile], rectangle: Rectangle?, options: TileOptions,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(tiles.isEmpty, file: file, line: line)
        var failures = 0
        for tile in tiles {
            let regions = rectangle.map { region($0, tile: tile.id, options: options) }
            let check = TileCoverageCheck(tile.features, regions: regions)
            let ok = check.crossings == 0 && check.overlapIsZero && (rectangle == nil || (check.gapIsZero && check.excessIsZero))
            if !ok {
                failures += 1
                if failures <= 5 { XCTFail("tile \(tile.id.z)/\(tile.id.x)/\(tile.id.y): \(check)", file: file, line: line) }
            }
        }
        XCTAssertEqual(failures, 0, "tiles with a gap or an overlap", file: file, line: line)
    }

    private let voronoiRectangle: Rectangle = (-31.3, -12.7, -8.1, 9.9)

    func testVoronoiPartitionKeepsNoGapAndNoOverlapInEveryTile() throws {
        let cells = CoverageFixtures.voronoi(west: voronoiRectangle.west, south: voronoiRectangle.south,
                                             east: voronoiRectangle.east, north: voronoiRectangle.north,
                                             columns: 7, rows: 6, seed: 11)
        let options = options(maxZoom: 7)
        let source = try TileSource(features: CoverageFixtures.features(cells.map { [$0] }), options: options)
        let tiles = try tiles(source)
        XCTAssertEqual(Set(tiles.map(\.id.z)), Set(0...7))
        assertCoverageKept(tiles, rectangle: voronoiRectangle, options: options)
    }

    func testWithoutSharedBordersTheSameTilesHaveGapsAndOverlaps() throws {
        let cells = CoverageFixtures.voronoi(west: voronoiRectangle.west, south: voronoiRectangle.south,
                                             east: voronoiRectangle.east, north: voronoiRectangle.north,
                                             columns: 7, rows: 6, seed: 11)
        let options = options(maxZoom: 7, shared: false)
        let tiles = try tiles(TileSource(features: CoverageFixtures.features(cells.map { [$0] }), options: options))
        var overlapping = 0, gapped = 0
        for tile in tiles {
            let check = TileCoverageCheck(tile.features, regions: region(voronoiRectangle, tile: tile.id, options: options))
            if !check.overlapIsZero || check.crossings > 0 { overlapping += 1 }
            if !check.gapIsZero { gapped += 1 }
        }
        // The check sees what per-ring simplification does to shared borders.
        XCTAssertGreaterThan(overlapping, 0)
        XCTAssertGreaterThan(gapped, 0)
    }

    private let gridRectangle: Rectangle = (2.2, 40.1, 14.9, 49.3)

    func testGridWithEnclavesKeepsEnclavesFilled() throws {
        let polygons = CoverageFixtures.gridWithEnclaves(west: gridRectangle.west, south: gridRectangle.south,
                                                         east: gridRectangle.east, north: gridRectangle.north,
                                                         columns: 5, rows: 4, seed: 5)
        let options = options(maxZoom: 8)
        let tiles = try tiles(TileSource(features: CoverageFixtures.features(polygons), options: options))
        assertCoverageKept(tiles, rectangle: gridRectangle, options: options)
        // Low zooms draw every enclave (none is dropped as tiny or left as a hole).
        let z2 = tiles.filter { $0.id.z == 2 }
        let drawn = Set(z2.flatMap { $0.features.compactMap { $0.id } })
        XCTAssertEqual(drawn.count, polygons.count)
    }

    private let antimeridianRectangle: Rectangle = (166.6, -21.4, 193.7, -3.2)

    func testBordersAcrossTheAntimeridianStayShared() throws {
        let cells = CoverageFixtures.voronoi(west: antimeridianRectangle.west, south: antimeridianRectangle.south,
                                             east: antimeridianRectangle.east, north: antimeridianRectangle.north,
                                             columns: 6, rows: 5, seed: 3)
        let options = options(maxZoom: 7)
        let tiles = try tiles(TileSource(features: CoverageFixtures.features(cells.map { [$0] }), options: options))
        XCTAssertTrue(tiles.contains { $0.id.z == 7 && $0.id.x == 0 } && tiles.contains { $0.id.z == 7 && $0.id.x == 127 })
        assertCoverageKept(tiles, rectangle: antimeridianRectangle, options: options)
    }

    func testDiskStoreKeepsBordersSharedAndCutsTheSameTiles() throws {
        let polygons = CoverageFixtures.voronoi(west: antimeridianRectangle.west, south: antimeridianRectangle.south,
                                                east: antimeridianRectangle.east, north: antimeridianRectangle.north,
                                                columns: 5, rows: 4, seed: 8).map { [$0] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-borders-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("cells.geojsons")
        try Data(CoverageFixtures.geoJSONSequence(polygons).utf8).write(to: input)
        let options = options(maxZoom: 6)
        var results = [[VectorTile]]()
        for (disk, loadBytes) in [(nil, 0), (folder.path, TilePyramid.loadBytes), (folder.path, 0)] {
            var reader = try FeatureIO.reader(for: ByteInput(path: input.path))
            // Two reading threads: the disk store's sketch comes in parts, merged.
            let source = try TileSource(reading: &reader, options: options, readThreads: 2, minimumPartBytes: 1,
                                        diskFolder: disk, onWarning: { _ in })
            XCTAssertEqual(source.disk != nil, disk != nil)
            results.append(try tiles(source, loadBytes: loadBytes))
        }
        for result in results.dropFirst() {
            XCTAssertEqual(results[0].map(\.id), result.map(\.id))
            XCTAssertEqual(results[0].map(\.features), result.map(\.features))
        }
        assertCoverageKept(results[2], rectangle: antimeridianRectangle, options: options)
    }
}

extension SharedBorderTests {
    /// Natural Earth's admin-1 states and provinces (the corpus copy: 100 polygons, 33k vertices,
    /// a valid coverage with islands, enclaves and lakes): no overlap, exactly, in any tile of z0–z6.
    func testAdminOneStatesHaveNoOverlapInAnyTile() throws {
        let url = try TestPaths.corpusFolder("real/ne_50m_admin_1_states_provinces.geojson")
        var reader = try FeatureIO.reader(for: ByteInput(path: url.path))
        let options = options(maxZoom: 6)
        let source = try TileSource(reading: &reader, options: options)
        let tiles = try tiles(source)
        XCTAssertEqual(Set(tiles.map(\.id.z)), Set(0...6))
        assertCoverageKept(tiles, rectangle: nil, options: options)
    }
}

/// The parts on their own: arcs, the topology-keeping simplification, snap rounding, and
/// `convert`'s simplifier.
final class SharedBorderPartsTests: XCTestCase {
    /// Rings as x, y pairs and their starts.
    private func flat(_ rings: [[(Double, Double)]]) -> (xy: [Double], starts: [Int]) {
        var xy = [Double](), starts = [0]
        for ring in rings {
            for point in ring { xy += [point.0, point.1] }
            starts.append(xy.count / 2)
        }
        return (xy, starts)
    }

    func testArcsAreCutAtJunctionsAndFoundOnce() throws {
        // Three squares in an L: A (0,0)-(2,2), B (2,0)-(4,2), C (0,2)-(2,4); the border points
        // wiggle through (2,1) and (1,2). Junction at (2,2), where all three meet.
        let a = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (2.0, 2.0), (1.0, 2.0), (0.0, 2.0), (0.0, 0.0)]
        let b = [(2.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0), (2.0, 1.0), (2.0, 0.0)]
        let c = [(0.0, 2.0), (1.0, 2.0), (2.0, 2.0), (2.0, 4.0), (0.0, 4.0), (0.0, 2.0)]
        let (xy, starts) = flat([a, b, c])
        let arcs = try XCTUnwrap(SharedArcs.find(xy: xy, ringStarts: starts))
        // A|B, A|C, and each ring's own outline: 5 arcs, the two borders walked twice.
        XCTAssertEqual(arcs.arcCount, 5)
        XCTAssertEqual(arcs.arcUses.sorted(), [1, 1, 1, 2, 2])
        // Every ring comes back whole from its arcs.
        for ring in 0..<3 {
            let points = arcs.ringPoints(ring).map { (arcs.points[2 * Int($0)], arcs.points[2 * Int($0) + 1]) }
            XCTAssertEqual(points.count, [a, b, c][ring].count - 1)
        }
        // Rings that share nothing: nil, nothing to keep.
        let apart = flat([[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 0.0)], [(5.0, 5.0), (6.0, 5.0), (6.0, 6.0), (5.0, 5.0)]])
        XCTAssertNil(SharedArcs.find(xy: apart.xy, ringStarts: apart.starts))
    }

    func testAnEnclaveAndItsHoleAreOneClosedArc() throws {
        let outer = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0), (0.0, 0.0)]
        let hole = [(3.0, 3.0), (3.0, 6.0), (5.0, 7.0), (7.0, 6.0), (6.0, 3.0), (3.0, 3.0)]
        let (xy, starts) = flat([outer, hole, Array(hole.reversed())])
        let arcs = try XCTUnwrap(SharedArcs.find(xy: xy, ringStarts: starts))
        XCTAssertEqual(arcs.arcCount, 2)
        let holeArcs = arcs.ringArcs[arcs.ringStarts[1]..<arcs.ringStarts[2]]
        let enclaveArcs = arcs.ringArcs[arcs.ringStarts[2]..<arcs.ringStarts[3]]
        XCTAssertEqual(holeArcs.map { $0 >> 1 }, enclaveArcs.map { $0 >> 1 })
        XCTAssertNotEqual(holeArcs.first.map { $0 & 1 }, enclaveArcs.first.map { $0 & 1 })  // walked opposite ways
    }

    func testSimplificationNeitherCrossesNorSwallowsAnIsland() throws {
        // Land below a coast wiggling within 0.9 of y = 0 (sea above), a neighbour sharing the
        // land's south edge, and an island in the sea inside the dip at x = 19, below y = 0: the
        // chord a tolerance of 2 allows would pass over it; the kept coast goes around it.
        var land = [(0.0, 0.0)]
        for step in 1..<40 { land.append((Double(step), step % 2 == 0 ? 0.9 : -0.9)) }
        land += [(40.0, 0.0), (40.0, -10.0), (0.0, -10.0), (0.0, 0.0)]
        let neighbour = [(0.0, -10.0), (40.0, -10.0), (40.0, -20.0), (0.0, -20.0), (0.0, -10.0)]
        let island = [(18.9, -0.6), (19.1, -0.6), (19.1, -0.3), (18.9, -0.3), (18.9, -0.6)]
        let (xy, starts) = flat([land, neighbour, island])
        let arcs = try XCTUnwrap(SharedArcs.find(xy: xy, ringStarts: starts))
        let kept = CoverageSimplifier.kept(arcs, squaredTolerance: 4)
        var segments = [(Double, Double, Double, Double)]()
        for arc in 0..<arcs.arcCount {
            let positions = (arcs.arcStarts[arc]..<arcs.arcStarts[arc + 1]).filter { kept[$0] }
            for (p, q) in zip(positions, positions.dropFirst()) {
                let a = Int(arcs.arcPoints[p]), b = Int(arcs.arcPoints[q])
                segments.append((arcs.points[2 * a], arcs.points[2 * a + 1], arcs.points[2 * b], arcs.points[2 * b + 1]))
            }
        }
        XCTAssertLessThan(segments.count, arcs.points.count / 2, "something was simplified")
        for (i, s) in segments.enumerated() {
            for t in segments[(i + 1)...] {
                let o1 = SegmentRelation.orientation(s.0, s.1, s.2, s.3, t.0, t.1), o2 = SegmentRelation.orientation(s.0, s.1, s.2, s.3, t.2, t.3)
                let o3 = SegmentRelation.orientation(t.0, t.1, t.2, t.3, s.0, s.1), o4 = SegmentRelation.orientation(t.0, t.1, t.2, t.3, s.2, s.3)
                XCTAssertFalse(o1 * o2 < 0 && o3 * o4 < 0, "kept edges \(s) and \(t) cross")
            }
        }
        // The kept coast passes below the island (y −0.6) from x 18.9 to 19.1.
        var checked = 0
        for s in segments where abs(s.2 - s.0) >= 0.5 && max(s.1, s.3) < 1 && min(s.1, s.3) > -1 {
            for x in [18.9, 19.0, 19.1] where x >= min(s.0, s.2) && x <= max(s.0, s.2) {
                let y = s.1 + (s.3 - s.1) * (x - s.0) / (s.2 - s.0)
                XCTAssertLessThan(y, -0.6, "the coast swallowed the island at x \(x)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0)
        // Without the island the simplified coast cuts across the dip there (so the island is what kept it).
        let (bare, bareStarts) = flat([land, neighbour])
        let bareArcs = try XCTUnwrap(SharedArcs.find(xy: bare, ringStarts: bareStarts))
        let bareKept = CoverageSimplifier.kept(bareArcs, squaredTolerance: 4)
        var bareY = [Double]()
        for arc in 0..<bareArcs.arcCount {
            let positions = (bareArcs.arcStarts[arc]..<bareArcs.arcStarts[arc + 1]).filter { bareKept[$0] }
            for (p, q) in zip(positions, positions.dropFirst()) {
                let a = Int(bareArcs.arcPoints[p]), b = Int(bareArcs.arcPoints[q])
                let (ax, ay, bx, by) = (bareArcs.points[2 * a], bareArcs.points[2 * a + 1], bareArcs.points[2 * b], bareArcs.points[2 * b + 1])
                if ax != bx && min(ax, bx) <= 19 && max(ax, bx) >= 19 && max(ay, by) < 1 && min(ay, by) > -1 {
                    bareY.append(ay + (by - ay) * (19 - ax) / (bx - ax))
                }
            }
        }
        XCTAssertTrue(bareY.contains { $0 > -0.6 }, "\(bareY)")
    }

    func testSnapRoundingKeepsAVertexOnItsSideOfASegment() {
        // Rounded alone, (1.4, 0.49) goes to (1, 0), below the segment (0,0)–(3,1) it lies above.
        let segment = [0.0, 0.0, 3.0, 1.0]
        let snapping = GridSnapRounding(vertices: segment + [1.4, 0.49])
        let snapped = snapping.snapped(segment)
        XCTAssertEqual(snapped, [0, 0, 1, 0, 3, 1], "the segment goes through the vertex's pixel")
        // Both directions give the same points.
        XCTAssertEqual(snapping.snapped([3.0, 1.0, 0.0, 0.0]), [3, 1, 1, 0, 0, 0])
    }

    func testSnapRoundingThroughItsGridMeetsEveryPixelASearchOfAllMeets() {
        // 400 hot pixels (an index, not a scan) and 300 random segments: each snapped segment
        // goes through exactly the pixels whose closed squares it meets, each once.
        var generator = SeededGenerator(seed: 51)
        var vertices = [Double]()
        for _ in 0..<400 { vertices += [Double.random(in: 0..<200, using: &generator), Double.random(in: 0..<200, using: &generator)] }
        let snapping = GridSnapRounding(vertices: vertices)
        var pixels = [(Int32, Int32)]()
        for index in stride(from: 0, to: vertices.count, by: 2) {
            let pixel = (TileUnits.round(vertices[index]), TileUnits.round(vertices[index + 1]))
            if !pixels.contains(where: { $0 == pixel }) { pixels.append(pixel) }
        }
        var crossings = 0
        for _ in 0..<300 {
            let a = Int.random(in: 0..<400, using: &generator), b = Int.random(in: 0..<400, using: &generator)
            let ax = vertices[2 * a], ay = vertices[2 * a + 1], bx = vertices[2 * b], by = vertices[2 * b + 1]
            let start = (TileUnits.round(ax), TileUnits.round(ay)), end = (TileUnits.round(bx), TileUnits.round(by))
            let met = pixels.filter { $0 != start && $0 != end && GridSnapRounding.passes(ax, ay, bx, by, through: $0.0, $0.1) }
            crossings += met.count
            var expected = [start.0, start.1]
            for pixel in met + [end] where expected[expected.count - 2] != pixel.0 || expected[expected.count - 1] != pixel.1 {
                expected += [pixel.0, pixel.1]
            }
            let snapped = snapping.snapped([ax, ay, bx, by])
            XCTAssertEqual(Self.pixelSet(snapped), Self.pixelSet(expected), "segment \(a)–\(b)")
            XCTAssertEqual(snapped.count, expected.count, "segment \(a)–\(b)")
        }
        XCTAssertGreaterThan(crossings, 100, "the segments pass through other vertices' pixels")
    }

    func testSnapRoundingOfLongSegmentsMeetsWhatASearchOfAllMeets() {
        // Long segments cross many cells of the index, which looks column by column only at
        // the rows near the segment: pixels just inside and just outside every segment's
        // half-unit band, along its whole length, must be met exactly as a search of all meets.
        var generator = SeededGenerator(seed: 53)
        var segments = [[Double]]()
        for _ in 0..<24 {
            segments.append((0..<4).map { _ in Double.random(in: -10..<400, using: &generator) })
        }
        segments += [[0.3, 0.2, 399.7, 399.6], [0.3, 399.6, 399.7, 0.2], [200.2, 0, 203.4, 399], [0, 200.2, 399, 201.9]]
        var vertices = [Double]()
        for segment in segments {
            vertices += segment
            for step in 0..<120 {
                let t = Double(step) / 120, x = segment[0] + t * (segment[2] - segment[0]), y = segment[1] + t * (segment[3] - segment[1])
                let offset = [-1.01, -0.51, -0.5, -0.49, 0, 0.49, 0.5, 0.51, 1.01][step % 9]
                vertices += step % 2 == 0 ? [x + offset, y] : [x, y + offset]
            }
        }
        for _ in 0..<1000 { vertices += [Double.random(in: 0..<400, using: &generator), Double.random(in: 0..<400, using: &generator)] }
        let snapping = GridSnapRounding(vertices: vertices)
        var pixels = [(Int32, Int32)]()
        var seen = Set<[Int32]>()
        for index in stride(from: 0, to: vertices.count, by: 2) {
            let pixel = (TileUnits.round(vertices[index]), TileUnits.round(vertices[index + 1]))
            if seen.insert([pixel.0, pixel.1]).inserted { pixels.append(pixel) }
        }
        var crossings = 0
        for segment in segments {
            for (ax, ay, bx, by) in [(segment[0], segment[1], segment[2], segment[3]), (segment[2], segment[3], segment[0], segment[1])] {
                let start = (TileUnits.round(ax), TileUnits.round(ay)), end = (TileUnits.round(bx), TileUnits.round(by))
                let met = pixels.filter { $0 != start && $0 != end && GridSnapRounding.passes(ax, ay, bx, by, through: $0.0, $0.1) }
                crossings += met.count
                let snapped = snapping.snapped([ax, ay, bx, by])
                XCTAssertEqual(Self.pixelSet(snapped), Self.pixelSet([start.0, start.1, end.0, end.1] + met.flatMap { [$0.0, $0.1] }),
                               "(\(ax), \(ay))–(\(bx), \(by))")
                XCTAssertEqual(snapped.count, 2 * Set(met.map { [$0.0, $0.1] }).count + 4, "(\(ax), \(ay))–(\(bx), \(by))")
            }
        }
        XCTAssertGreaterThan(crossings, 500, "the pixels in the bands are met")
    }

    func testSnapRoundingOfShortSegmentsMeetsWhatASearchOfAllMeets() {
        // Segments whose ends round to one pixel or to two side by side skip the walk: ends on
        // and beside the half-unit lines (where a closed neighbour square is touched) must still
        // meet every pixel a search of all meets, with a grid (144 pixels) and with a scan (4).
        let offsets = [-0.5, -0.4999, -0.25, 0, 0.3, 0.4999, 0.5, 0.75, 1, 1.4999, 1.5]
        for side in [12, 2] {
            var vertices = [Double]()
            for x in 0..<side { for y in 0..<side { vertices += [Double(x), Double(y)] } }
            let snapping = GridSnapRounding(vertices: vertices)
            var shortOnes = 0
            for ox in offsets { for oy in offsets { for px in offsets { for py in offsets {
                let ax = 0.5 + ox / 2 + Double(side / 3), ay = 0.5 + oy / 2 + Double(side / 3)
                let bx = 0.5 + px / 2 + Double(side / 3), by = 0.5 + py / 2 + Double(side / 3)
                let start = (TileUnits.round(ax), TileUnits.round(ay)), end = (TileUnits.round(bx), TileUnits.round(by))
                if abs(Int(end.0) - Int(start.0)) + abs(Int(end.1) - Int(start.1)) <= 1 { shortOnes += 1 }
                var met = [(Int32, Int32)]()
                for x in 0..<Int32(side) {
                    for y in 0..<Int32(side) where (x, y) != start && (x, y) != end
                        && (ax != bx || ay != by) && GridSnapRounding.passes(ax, ay, bx, by, through: x, y) {
                        met.append((x, y))
                    }
                }
                var expected = [start.0, start.1]
                for pixel in met + [end] where expected[expected.count - 2] != pixel.0 || expected[expected.count - 1] != pixel.1 {
                    expected += [pixel.0, pixel.1]
                }
                let snapped = snapping.snapped([ax, ay, bx, by])
                XCTAssertEqual(Self.pixelSet(snapped), Self.pixelSet(expected), "(\(ax), \(ay))–(\(bx), \(by))")
                XCTAssertEqual(snapped.count, expected.count, "(\(ax), \(ay))–(\(bx), \(by))")
            } } } }
            XCTAssertGreaterThan(shortOnes, 1000, "most segments end in one pixel or two side by side")
        }
    }

    func testSnapRoundingWithPixelsGivenMoreThanOnceDrawsEachOnce() {
        // Hot pixels by point id (SharedBorderTile): two points in one pixel give it twice.
        var generator = SeededGenerator(seed: 52)
        var vertices = [Double]()
        for _ in 0..<300 { vertices += [Double.random(in: 0..<40, using: &generator), Double.random(in: 0..<40, using: &generator)] }
        let once = GridSnapRounding(vertices: vertices)
        var pixelX = [Int32](), pixelY = [Int32]()
        for index in stride(from: 0, to: vertices.count, by: 2) {
            pixelX.append(TileUnits.round(vertices[index]))
            pixelY.append(TileUnits.round(vertices[index + 1]))
        }
        XCTAssertLessThan(Set(zip(pixelX, pixelY).map { [$0, $1] }).count, pixelX.count, "some pixels come twice")
        let repeated = GridSnapRounding(pixelX: pixelX + pixelX, pixelY: pixelY + pixelY)
        for _ in 0..<300 {
            let a = Int.random(in: 0..<300, using: &generator), b = Int.random(in: 0..<300, using: &generator)
            let path = [vertices[2 * a], vertices[2 * a + 1], vertices[2 * b], vertices[2 * b + 1]]
            XCTAssertEqual(repeated.snapped(path), once.snapped(path), "segment \(a)–\(b)")
        }
    }

    func testClosedRingsAreAppendedAfterWhatTheBufferHolds() {
        var out: [Int32] = [9, 9]
        // Repeats and a spike (0,0 → 4,0 → 5,0 → 4,0) drop out; a hole is wound counterclockwise with y down.
        let ring: [Int32] = [0, 0, 4, 0, 4, 0, 5, 0, 4, 0, 4, 4, 0, 4]
        XCTAssertTrue(SharedBorderTile.appendClosedRing(ring, outer: true, to: &out))
        XCTAssertEqual(out, [9, 9, 0, 0, 4, 0, 4, 4, 0, 4, 0, 0])
        XCTAssertTrue(SharedBorderTile.appendClosedRing(ring, outer: false, to: &out))
        XCTAssertEqual(Array(out[12...]), [0, 4, 4, 4, 4, 0, 0, 0, 0, 4])
        // No area left: nothing appended.
        XCTAssertFalse(SharedBorderTile.appendClosedRing([0, 0, 3, 3, 6, 6, 3, 3], outer: true, to: &out))
        XCTAssertEqual(out.count, 22)
    }

    /// `TileUnits.round` floors by truncation where it can: the same integers as the floor and
    /// halves-up of Math.round everywhere, at the halves, near the truncation's limits and beyond.
    func testRoundingToTileUnitsIsMathRound() {
        func mathRound(_ value: Double) -> Int32 {
            let floor = value.rounded(.down)
            return Int32(saturating: value - floor >= 0.5 ? floor + 1 : floor)
        }
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                0.5000000000000001, -0.5000000000000001, 4095.5, -64.5, 4160.499999, -4160.500001,
                                2_147_483_646.5, 2_147_483_647.4, 2_147_483_647.5, -2_147_483_648.4, -2_147_483_648.5,
                                -2_147_483_649, 0x1p51 - 0.5, 0x1p51, -0x1p51 + 0.5, -0x1p51, 0x1p52 + 1, -0x1p52 - 1,
                                1e300, -1e300, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                                -.leastNonzeroMagnitude]
        var generator = SeededGenerator(seed: 51)
        for _ in 0..<2_000 {
            let whole = Double(Int.random(in: -70_000...70_000, using: &generator))
            values.append(whole + 0.5)
            values.append(whole - 0.5)
            values.append(whole + Double.random(in: -1...1, using: &generator))
            values.append(Double.random(in: -1e12...1e12, using: &generator))
        }
        for value in values { XCTAssertEqual(TileUnits.round(value), mathRound(value), "\(value)") }
        XCTAssertEqual(TileUnits.round(.nan), mathRound(.nan))
    }

    func testClosedRingsLoseRepeatsAndSpikesAcrossTheSeam() {
        var out: [Int32] = [7, 7]
        // (9,9) is the tip of a spike across the seam (0,0 → 9,9 → 0,0): the first point goes,
        // then the last, which repeats the new first.
        XCTAssertTrue(SharedBorderTile.appendClosedRing([9, 9, 0, 0, 4, 0, 4, 4, 0, 4, 0, 0], outer: true, to: &out))
        XCTAssertEqual(out, [7, 7, 0, 0, 4, 0, 4, 4, 0, 4, 0, 0])
        // A spike at the end (… 0,4 → 0,8 → 0,4) and the first point repeated last.
        XCTAssertTrue(SharedBorderTile.appendClosedRing([0, 0, 4, 0, 4, 4, 0, 4, 0, 8, 0, 4, 0, 0], outer: true, to: &out))
        XCTAssertEqual(Array(out[12...]), [0, 0, 4, 0, 4, 4, 0, 4, 0, 0])
    }

    /// The x, y pairs of `xy` as a set.
    private static func pixelSet(_ xy: [Int32]) -> Set<[Int32]> {
        var pixels = Set<[Int32]>()
        var index = 0
        while index + 1 < xy.count {
            pixels.insert([xy[index], xy[index + 1]])
            index += 2
        }
        return pixels
    }

    func testConvertSimplifierKeepsACoverageValid() {
        let cells = CoverageFixtures.voronoi(west: 3, south: 40, east: 9, north: 46, columns: 6, rows: 5, seed: 9)
        let features = CoverageFixtures.features(cells.map { [$0] })
        for zoom in [3.0, 5.0, 7.0] {
            var counts = ShapeSimplifier.Counts()
            let simplified = SharedBorderSimplifier(screenPoints: 1, zoom: zoom).simplify(features, counts: &counts).compactMap { $0 }
            XCTAssertEqual(simplified.count, features.count)
            XCTAssertLessThan(counts.verticesOut, counts.verticesIn)
            XCTAssertEqual(CoverageCheck().findings(simplified), [], "zoom \(zoom)")
            // Per ring, the same features are not a coverage any more.
            let alone = features.compactMap { feature -> Feature? in
                var copy = feature
                copy.shape = feature.shape.flatMap { ShapeSimplifier(screenPoints: 1, zoom: zoom).simplify($0) }
                return copy
            }
            XCTAssertFalse(CoverageCheck().findings(alone).isEmpty, "zoom \(zoom)")
        }
    }
}

extension SharedBorderTests {
    /// Polygons that share no border (small rectangles, as buildings): none is held, and the tiles
    /// are those of a run without shared borders.
    func testDataThatSharesNothingHoldsNothing() throws {
        var features = [Feature]()
        var random = CoverageFixtures.Random(seed: 21)
        for index in 0..<400 {
            let x = 2.3 + Double.random(in: -0.05...0.05, using: &random), y = 48.85 + Double.random(in: -0.03...0.03, using: &random)
            let ring = [(x, y), (x + 0.0003, y), (x + 0.0003, y + 0.0002), (x, y + 0.0002), (x, y)]
            features.append(Feature(id: .integer(Int64(index)), properties: [:],
                                    shape: .polygon(Polygon(coordinates: ring.map { Coordinate(latitude: $0.1, longitude: $0.0) }))))
        }
        let shared = try TileSource(features: features, options: options(maxZoom: 14))
        XCTAssertTrue(shared.features.allSatisfy { $0.tags.sharedBordersThrough == 0 }, "nothing held")
        let plain = try TileSource(features: features, options: options(maxZoom: 14, shared: false))
        let sharedTiles = try tiles(shared), plainTiles = try tiles(plain)
        XCTAssertEqual(sharedTiles.map(\.id), plainTiles.map(\.id))
        XCTAssertEqual(sharedTiles.map(\.features), plainTiles.map(\.features))
    }

    /// Two polygons sharing a wall among others that share nothing: the pair and its neighbours
    /// within reach are held, farther ones only at the zooms where reach spans the distance.
    func testHoldingSpreadsOnlyAsFarAsReach() throws {
        let wall = [(2.3, 48.85), (2.3003, 48.85), (2.3003, 48.8502), (2.3, 48.8502), (2.3, 48.85)]
        let next = [(2.3003, 48.85), (2.3006, 48.85), (2.3006, 48.8502), (2.3003, 48.8502), (2.3003, 48.85)]
        let near = wall.map { ($0.0 + 0.0010, $0.1) }  // ~70 m east
        let far = wall.map { ($0.0 + 0.5, $0.1) }  // ~37 km east
        let features = [wall, next, near, far].enumerated().map { index, ring in
            Feature(id: .integer(Int64(index)), properties: [:],
                    shape: .polygon(Polygon(coordinates: ring.map { Coordinate(latitude: $0.1, longitude: $0.0) })))
        }
        let source = try TileSource(features: features, options: options(maxZoom: 14))
        var through = [Int: UInt8]()
        for feature in source.features { through[feature.source] = feature.tags.sharedBordersThrough }
        func holds(_ source: Int, zoom: Int) -> Bool { zoom < Int(through[source] ?? 0) }
        XCTAssertTrue(holds(0, zoom: 14) && holds(1, zoom: 14))
        // 70 m is within reach down to about z10 (5 units of 2^28/(2^z·4096) map points, both moving).
        XCTAssertTrue(holds(2, zoom: 8))
        XCTAssertFalse(holds(2, zoom: 14))
        XCTAssertTrue(holds(3, zoom: 0))
        XCTAssertFalse(holds(3, zoom: 4))
    }
}

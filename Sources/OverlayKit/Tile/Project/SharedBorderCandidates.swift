#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Which input features a tile holds back for `SharedBorderTile` (with
/// `TileOptions.sharedBorders`), and down to which zoom: the features whose polygons share an
/// edge with another ring (at every zoom), and every polygon feature within reach of those —
/// reach being how far the per-ring path's simplification, rounding and stand-ins can move a ring
/// at a zoom (5 tile units by default: 98 km at z0, 6 m at z14) — and of those in turn (islands
/// off a shared coast, and the islands off those), each down to the deepest zoom every step of
/// its chain is within reach at. Every other polygon is built on its own as it arrives, as
/// without shared borders: no simplification or rounding at that zoom brings it to a held one.
/// So nothing is held for data that shares no border (a million buildings) and memory stays what
/// it was.
///
/// Decided once from the whole input (a first look at every polygon, which both feature stores
/// make while projecting): a tile's clipped parts cannot tell, since an edge cut by the tile's
/// buffer is no longer the other ring's edge. A `SharedVertexSketch` of every vertex picks the
/// rings that may share; only those are kept and their edges matched exactly.
///
/// Memory while deciding: the candidate rings' vertices (16 bytes each) and 20 bytes per polygon
/// part; afterwards a byte per input feature.
struct SharedBorderCandidates: Sendable {
    /// Per input position, the deepest zoom the feature is held at (`notHeld` for none).
    private var deepestZoom: [UInt8]
    private static let notHeld = UInt8.max

    /// Per input position, `FeatureTags.sharedBordersThrough`: 0 when not held, z + 1 when
    /// held at zooms up to z.
    var tags: [UInt8] { deepestZoom.map { $0 == Self.notHeld ? 0 : $0 + 1 } }
    /// The rings that may share (x, y pairs) and the input position of each, until `finish`.
    private var candidateXY: [Double] = []
    private var candidateStarts: [Int] = [0]
    private var candidateSources: [Int] = []
    /// Every polygon part's bounds (rounded outward to Float) and input position, in input
    /// order, until `finish`.
    private var boxes: [Float] = []
    private var boxSources: [Int32] = []
    /// Map points: the per-ring path's reach at zoom 0 (halving with every zoom), both rings moving.
    let gap: Double
    private let maxZoom: Int

    /// Candidates among `featureCount` input positions, to be found with `add` and `finish`.
    init(featureCount: Int, options: TileOptions) {
        deepestZoom = [UInt8](repeating: Self.notHeld, count: featureCount)
        let reach = 2 + max(options.tolerance, options.tinyPolygonSize, 1)
        gap = 2 * reach * MapProjection.worldSize / Double(options.extent)
        maxZoom = options.maxZoom
    }

    /// Looks at one projected piece of an input feature (all of them, in any order).
    mutating func add(_ feature: ProjectedFeature, sketch: SharedVertexSketch) {
        guard feature.type == .polygon, feature.source <= Int(Int32.max) else { return }
        for ring in feature.rings where sketch.mayShareEdge(feature.coordinates, start: ring.start, count: ring.count, stride: 3) {
            for vertex in ring.start..<ring.start + ring.count {
                candidateXY.append(feature.coordinates[3 * vertex])
                candidateXY.append(feature.coordinates[3 * vertex + 1])
            }
            candidateStarts.append(candidateXY.count / 2)
            candidateSources.append(feature.source)
        }
        boxes += [Float(feature.minX).nextDown, Float(feature.minY).nextDown, Float(feature.maxX).nextUp, Float(feature.maxY).nextUp]
        boxSources.append(Int32(feature.source))
    }

    /// Whether the feature at input position `source` is held at `zoom`.
    @inline(__always)
    func holds(source: Int, zoom: Int) -> Bool {
        source < deepestZoom.count && deepestZoom[source] != Self.notHeld && zoom <= Int(deepestZoom[source])
    }

    /// Matches the candidate rings' edges exactly, then spreads holding from the features that
    /// share to every polygon within reach, and on; forgets what it kept to decide.
    mutating func finish() {
        defer {
            candidateXY = []
            candidateStarts = [0]
            candidateSources = []
            boxes = []
            boxSources = []
        }
        let every = UInt8(min(maxZoom, 254))
        if let arcs = SharedArcs.find(xy: candidateXY, ringStarts: candidateStarts) {
            for ring in 0..<arcs.ringCount
            where arcs.ringArcs[arcs.ringStarts[ring]..<arcs.ringStarts[ring + 1]].contains(where: { arcs.arcUses[Int($0 >> 1)] > 1 }) {
                deepestZoom[candidateSources[ring]] = every
            }
        }
        let count = boxSources.count
        // Widest chains first (a bottleneck search): a bucket per zoom, deepest first; a box's
        // zoom only grows, so each is spread from at most once per zoom.
        var buckets = [[Int]](repeating: [], count: Int(every) + 1)
        var held = 0
        for box in 0..<count where deepestZoom[Int(boxSources[box])] != Self.notHeld {
            buckets[Int(every)].append(box)
            held += 1
        }
        guard held > 0, held < count else { return }
        let boxes = self.boxes.map(Double.init)
        // The pieces of each feature side by side (they come in any order).
        let boxSources = self.boxSources
        let bySource = (0..<count).sorted { (boxSources[$0], $0) < (boxSources[$1], $1) }
        var positionBySource = [Int](repeating: 0, count: count)
        for (position, box) in bySource.enumerated() { positionBySource[box] = position }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for box in 0..<count {
            minX = min(minX, boxes[4 * box]); minY = min(minY, boxes[4 * box + 1])
            maxX = max(maxX, boxes[4 * box + 2]); maxY = max(maxY, boxes[4 * box + 3])
        }
        let grid = UniformGrid(minX: minX, minY: minY, maxX: maxX, maxY: maxY, minimumCellSize: gap, itemCount: count) { box, grid, visit in
            for row in grid.row(boxes[4 * box + 1])...grid.row(boxes[4 * box + 3]) {
                for column in grid.column(boxes[4 * box])...grid.column(boxes[4 * box + 2]) { visit(row * grid.columns + column) }
            }
        }
        let world = MapProjection.worldSize
        let gridMaxX = grid.minX + Double(grid.columns) * grid.cellSize, gridMaxY = grid.minY + Double(grid.rows) * grid.cellSize
        // The deepest zoom two boxes this far apart can meet at: reach halves with each zoom.
        func zoom(apart distance: Double) -> UInt8 {
            guard distance > 0 else { return every }
            return UInt8(max(0, min(Double(every), log2(gap / distance).rounded(.down))))
        }
        var level = Int(every)
        while level >= 0 {
            guard let box = buckets[level].popLast() else {
                level -= 1
                continue
            }
            guard Int(deepestZoom[Int(boxSources[box])]) == level else { continue }  // spread from a deeper zoom already
            for shift in [0, -world, world] {
                let lowX = boxes[4 * box] + shift - gap, highX = boxes[4 * box + 2] + shift + gap
                let lowY = boxes[4 * box + 1] - gap, highY = boxes[4 * box + 3] + gap
                if highX < grid.minX || lowX > gridMaxX || highY < grid.minY || lowY > gridMaxY { continue }
                for row in grid.row(lowY)...grid.row(highY) {
                    for column in grid.column(lowX)...grid.column(highX) {
                        for item in grid.items(in: row * grid.columns + column) {
                            let other = Int(item), source = Int(boxSources[other])
                            // Apart in x or y, whichever is more (never more than the true distance).
                            let dx = max(0, boxes[4 * other] - (boxes[4 * box + 2] + shift), (boxes[4 * box] + shift) - boxes[4 * other + 2])
                            let dy = max(0, boxes[4 * other + 1] - boxes[4 * box + 3], boxes[4 * box + 1] - boxes[4 * other + 3])
                            guard max(dx, dy) <= gap else { continue }
                            let reached = min(UInt8(level), zoom(apart: max(dx, dy)))
                            let known = deepestZoom[source]
                            guard known == Self.notHeld || reached > known else { continue }
                            deepestZoom[source] = reached
                            // Every piece of that feature spreads in turn.
                            var position = positionBySource[other]
                            while position > 0 && boxSources[bySource[position - 1]] == boxSources[other] { position -= 1 }
                            while position < count && boxSources[bySource[position]] == boxSources[other] {
                                buckets[Int(reached)].append(bySource[position])
                                position += 1
                            }
                        }
                    }
                }
            }
        }
    }
}

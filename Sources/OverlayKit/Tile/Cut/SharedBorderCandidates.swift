import OverlayModel

/// Which input features a tile holds back for `SharedBorderTile` (with
/// `TileOptions.sharedBorders`): those whose polygons may share an edge with another ring
/// (`SharedVertexSketch`, from every polygon of the input), and every polygon feature that comes
/// within `gap` of one of them, or of one of those, and so on (islands off a shared coast, and
/// the islands off those). Every other polygon is built on its own as it arrives, as without
/// shared borders: it is farther than any simplification or rounding reaches from every polygon
/// that is held, so nothing is held for data that shares no border (a million buildings), and
/// memory stays what it was.
///
/// Decided once per input position from the whole input (a first look at every polygon, which
/// both feature stores make while projecting): a tile's clipped parts cannot tell, since an
/// edge cut by the tile's buffer is no longer the other ring's edge.
struct SharedBorderCandidates: Sendable {
    /// Bit per input position: held.
    private var flags: [UInt64]
    /// Every polygon part's bounds (rounded outward to Float) and input position, in input
    /// order, until `finish`.
    private var boxes: [Float] = []
    private var boxSources: [Int32] = []
    /// Map points: polygons this close are held together.
    let gap: Double

    /// Candidates among `featureCount` input positions, to be found with `add` and `finish`;
    /// `gap` from the options: twice the per-ring path's reach at zoom 0, the widest.
    init(featureCount: Int, options: TileOptions) {
        flags = [UInt64](repeating: 0, count: (featureCount + 63) / 64)
        let reach = 2 + max(options.tolerance, options.tinyPolygonSize, 1)
        gap = 2 * reach * MapProjection.worldSize / Double(options.extent)
    }

    /// Looks at one projected part of an input feature (all of them, in input order).
    mutating func add(_ feature: ProjectedFeature, sketch: SharedVertexSketch) {
        guard feature.type == .polygon, feature.source <= Int(Int32.max) else { return }
        if feature.rings.contains(where: { sketch.mayShareEdge(feature.coordinates, start: $0.start, count: $0.count, stride: 3) }) {
            flag(feature.source)
        }
        boxes += [Float(feature.minX).nextDown, Float(feature.minY).nextDown, Float(feature.maxX).nextUp, Float(feature.maxY).nextUp]
        boxSources.append(Int32(feature.source))
    }

    @inline(__always)
    private mutating func flag(_ source: Int) { flags[source >> 6] |= UInt64(1) << UInt64(source & 63) }

    /// Whether the feature at input position `source` is held.
    @inline(__always)
    func holds(source: Int) -> Bool { source >> 6 < flags.count && flags[source >> 6] & (UInt64(1) << UInt64(source & 63)) != 0 }

    /// Spreads holding from the features that may share to every polygon within `gap`, and on
    /// (across the antimeridian too), once every part has been looked at; then forgets the bounds.
    mutating func finish() {
        defer {
            boxes = []
            boxSources = []
        }
        let count = boxSources.count
        var queue = (0..<count).filter { holds(source: Int(boxSources[$0])) }
        guard !queue.isEmpty, queue.count < count else { return }
        let boxes = self.boxes.map(Double.init)
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
        while let box = queue.popLast() {
            for shift in [0, -world, world] {
                let lowX = boxes[4 * box] + shift - gap, highX = boxes[4 * box + 2] + shift + gap
                let lowY = boxes[4 * box + 1] - gap, highY = boxes[4 * box + 3] + gap
                if highX < grid.minX || lowX > gridMaxX || highY < grid.minY || lowY > gridMaxY { continue }
                for row in grid.row(lowY)...grid.row(highY) {
                    for column in grid.column(lowX)...grid.column(highX) {
                        for item in grid.items(in: row * grid.columns + column) {
                            let other = Int(item), source = Int(boxSources[other])
                            guard !holds(source: source), boxes[4 * other] <= highX, boxes[4 * other + 2] >= lowX,
                                  boxes[4 * other + 1] <= highY, boxes[4 * other + 3] >= lowY else { continue }
                            flag(source)
                            // Every part of that feature spreads in turn (parts are consecutive).
                            var first = other
                            while first > 0 && boxSources[first - 1] == boxSources[other] { first -= 1 }
                            var part = first
                            while part < count && boxSources[part] == boxSources[other] {
                                queue.append(part)
                                part += 1
                            }
                        }
                    }
                }
            }
        }
    }
}

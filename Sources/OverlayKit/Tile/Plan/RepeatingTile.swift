/// Whether a tile's neighbours along a row or a column hold the same bytes: every line and
/// ring crosses the whole tile and turns only along its edges, so moving one tile over meets
/// the same shapes (the edge of a polygon along a parallel, such as a border along 49° N, or
/// along a meridian). An archive stores such a run of tiles once; a plan that sampled one of
/// them counts its bytes once, not for every tile it stands for.
enum RepeatingTile {
    /// The axes along which `tile` repeats, 0 for x (a row) and 1 for y (a column), both for a
    /// tile its polygons cover whole: it holds lines or polygons only, and along the axis each
    /// of them reaches from the tile's left edge to its right (top to bottom), every segment
    /// running along that axis or lying on one of those two edges. Empty when its neighbours differ.
    static func axes(_ tile: VectorTile) -> [Int] {
        guard !tile.features.isEmpty, tile.features.allSatisfy({ $0.type != .point }) else { return [] }
        return [0, 1].filter { repeats(tile, along: $0) }
    }

    /// How many runs of tiles alike, as an archive's directory has them, a tile that repeats
    /// along `axes` and stands for `weight` tiles like it makes: a PMTiles directory merges
    /// tiles alike that follow each other on its Hilbert curve, and the curve moves one tile
    /// at a time, so a run ends where the curve turns across the axis. Its own steps to and
    /// from the tiles before and after it say how often (each run has two ends).
    static func runs(of id: TileID, along axes: [Int], weight: Double) -> Double {
        guard !axes.isEmpty else { return weight }
        let hilbert = PMTiles.tileID(id)
        var ends = 0
        for neighbour in [hilbert > PMTiles.firstID(ofZoom: id.z) ? PMTiles.tile(hilbert - 1) : nil,
                          hilbert + 1 < PMTiles.firstID(ofZoom: id.z + 1) ? PMTiles.tile(hilbert + 1) : nil] {
            guard let neighbour else {
                ends += 1
                continue
            }
            let axis = neighbour.y == id.y ? 0 : 1
            if !axes.contains(axis) { ends += 1 }
        }
        return weight * Double(ends) / 2
    }

    /// `axis` 0: the shapes do not change along x (a row repeats); 1: along y.
    private static func repeats(_ tile: VectorTile, along axis: Int) -> Bool {
        let extent = Int32(tile.extent)
        // The edges the shapes are cut at (the buffer's): the lowest and highest coordinate.
        var low = Int32.max, high = Int32.min
        for feature in tile.features {
            for index in Swift.stride(from: axis, to: feature.xy.count, by: 2) {
                low = min(low, feature.xy[index])
                high = max(high, feature.xy[index])
            }
        }
        guard low <= 0, high >= extent else { return false }
        for feature in tile.features {
            var start = 0
            for length in feature.ringLengths {
                defer { start += length }
                guard length >= 2 else { return false }
                var reachesLow = false, reachesHigh = false
                for point in start..<(start + length) {
                    let along = feature.xy[2 * point + axis]
                    reachesLow = reachesLow || along == low
                    reachesHigh = reachesHigh || along == high
                    guard point > start else { continue }
                    let previous = point - 1
                    let across = 1 - axis
                    // A segment along the axis keeps its cross coordinate; one across it lies on an edge.
                    let runsAlong = feature.xy[2 * point + across] == feature.xy[2 * previous + across]
                    let onEdge = along == feature.xy[2 * previous + axis] && (along == low || along == high)
                    guard runsAlong || onEdge else { return false }
                }
                guard reachesLow && reachesHigh else { return false }
            }
        }
        return true
    }
}

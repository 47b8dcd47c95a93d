/// Whether a tile's neighbours along a row or a column hold the same bytes: every line and
/// ring crosses the whole tile and turns only along its edges, so moving one tile over meets
/// the same shapes (the edge of a polygon along a parallel, such as a border along 49° N, or
/// along a meridian). An archive stores such a run of tiles once; a plan that sampled one of
/// them counts its bytes once, not for every tile it stands for.
enum RepeatingTile {
    /// True when `tile` holds lines or polygons only, and along x (or along y) each of them
    /// reaches from the tile's left edge to its right (top to bottom), every segment running
    /// along that axis or lying on one of those two edges.
    static func repeats(_ tile: VectorTile) -> Bool {
        guard !tile.features.isEmpty, tile.features.allSatisfy({ $0.type != .point }) else { return false }
        return repeats(tile, along: 0) || repeats(tile, along: 1)
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

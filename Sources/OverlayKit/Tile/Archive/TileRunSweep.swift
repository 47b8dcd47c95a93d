import OverlayModel

/// Walks the runs of several tile sets together in tile id order, as a sweep line: the ids any
/// of them holds are cut where a run starts or ends and where a zoom ends, into segments over
/// which every set holds one run (or nothing), so a join or a comparison does its work once per
/// segment, whatever the tiles the segment stands for. O(segments × sets); the segments are at
/// most the runs' starts and ends plus a zoom change each: memory and time follow the
/// directory entries, never the tiles.
struct TileRunSweep {
    /// Tile ids of one zoom over which each set holds the same run or none.
    struct Segment {
        /// The segment's ids, all of one zoom.
        var span: TileRun.ZoomSpan
        /// For each set, the index of its run holding the segment, or nil.
        var runs: [Int?]
    }

    /// Each set's runs, in tile id order and not overlapping (``TileRun/normalized(_:)``).
    var sets: [[TileRun]]

    /// Calls `body` with every segment in tile id order; ids no set holds are skipped.
    /// - Parameter body: what to do with one segment.
    func forEachSegment(_ body: (Segment) throws -> Void) rethrows {
        var cursor = [Int](repeating: 0, count: sets.count)
        var position = sets.compactMap(\.first?.firstID).min() ?? TileRun.endOfIDs
        while position < TileRun.endOfIDs {
            var runs = [Int?](repeating: nil, count: sets.count)
            var boundary = TileRun.endOfIDs, nextStart = TileRun.endOfIDs
            for (index, set) in sets.enumerated() {
                while cursor[index] < set.count && set[cursor[index]].endID <= position { cursor[index] += 1 }
                guard cursor[index] < set.count else { continue }
                let run = set[cursor[index]]
                if run.firstID <= position {
                    runs[index] = cursor[index]
                    boundary = min(boundary, run.endID)
                } else {
                    nextStart = min(nextStart, run.firstID)
                }
            }
            guard runs.contains(where: { $0 != nil }) else {
                position = nextStart
                continue
            }
            guard let zoom = TileRun.zoom(ofID: position) else { return }
            let end = min(boundary, nextStart, PMTiles.firstID(ofZoom: zoom + 1))
            try body(Segment(span: TileRun.ZoomSpan(zoom: zoom, firstID: position, count: end - position), runs: runs))
            position = end
        }
    }
}

extension TileRun {
    /// `runs` in tile id order without overlaps, as a reader of the archive would see them: a
    /// run starting inside an earlier one cuts that one short, and of two with the same first id
    /// the later one stands. Runs already in order are only checked. O(n log n), O(n) in order.
    /// - Parameter runs: runs in any order.
    public static func normalized(_ runs: [TileRun]) -> [TileRun] {
        var sorted = runs
        if !zip(runs, runs.dropFirst()).allSatisfy({ $0.firstID < $1.firstID && $0.endID <= $1.firstID }) {
            // Stable: of two runs with the same first id the later one comes last.
            sorted = runs.enumerated().sorted { ($0.element.firstID, $0.offset) < ($1.element.firstID, $1.offset) }.map(\.element)
        } else {
            return runs.filter { $0.count > 0 }
        }
        var result = [TileRun]()
        result.reserveCapacity(sorted.count)
        for run in sorted where run.count > 0 {
            if let last = result.last, last.endID > run.firstID {
                result[result.count - 1].count = run.firstID - last.firstID
                if result[result.count - 1].count == 0 { result.removeLast() }
            }
            result.append(run)
        }
        return result
    }
}

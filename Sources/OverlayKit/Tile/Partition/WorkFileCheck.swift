import OverlayModel

/// What a job's step checks of a JSON work file (a shard's summary, the plan, a partition's
/// report) before it uses a number in it: the file may have been edited, damaged or written by
/// another build, and its counts are added up, used as sizes and as indexes. Every integer
/// anywhere in the value is found by reflection, so a field added later is checked too;
/// the checks of shapes (lists of equal length, indexes in range) belong to each type.
enum WorkFileCheck {
    /// The first integer in `value` whose magnitude is beyond ``ReadBackLimits`` (2^40; 2^100
    /// for 128-bit sums), named by its path in the value; nil when every one is in range. Lists of
    /// floating-point numbers and bytes hold no count and are not walked, nor are the fields named
    /// in ``places`` (places on the Z-order curve, any 64-bit value).
    static func integerOutOfRange(in value: Any, path: String = "") -> String? {
        // The work files' types nest a few levels deep; a deeper value is not one of them.
        var pending: [(value: Any, path: String, depth: Int)] = [(value, path, 0)]
        while let (value, path, depth) = pending.popLast() {
            if places.contains(where: { path.hasSuffix("/" + $0) }) { continue }
            if let problem = problem(value, path) { return problem }
            if value is [Double] || value is [UInt8] || value is [UInt16] || value is [Double]? { continue }
            let mirror = Mirror(reflecting: value)
            guard !mirror.children.isEmpty else { continue }
            guard depth < 16 else { return "\(path) nests more than 16 levels" }
            for (index, child) in mirror.children.enumerated().reversed() {
                pending.append((child.value, path + "/" + (child.label ?? String(index)), depth + 1))
            }
        }
        return nil
    }

    /// Fields (by the end of their path) that hold Morton keys (`SpatialOrder`), not counts:
    /// `TileJob.ShardSummary.Owned`'s last point, which point thinning's walk resumes after, and
    /// the keys `MaxZoomGuess.VertexSpacing` measures gaps between.
    static let places = ["lastPointKey", "vertexSpacing/keys"]

    private static func problem(_ value: Any, _ path: String) -> String? {
        let limit = ReadBackLimits.count
        switch value {
        case let integer as Int where integer.magnitude > UInt(limit): return "\(path) is \(integer), beyond ±2^40"
        case let integer as Int64 where integer.magnitude > UInt64(limit): return "\(path) is \(integer), beyond ±2^40"
        case let integer as UInt64 where integer > UInt64(limit): return "\(path) is \(integer), beyond 2^40"
        case let sum as Int128 where sum.magnitude > ReadBackLimits.wideSum.magnitude: return "\(path) is beyond ±2^100"
        default: return nil
        }
    }
}

extension TileJob.ShardSummary {
    /// What makes this summary unusable for a job whose partitions are the tiles of
    /// `partitionZoom`, or nil: counts in range and not negative, layer tables that agree,
    /// owned partitions inside the grid.
    func readBackProblem(partitionZoom: Int) -> String? {
        if let problem = WorkFileCheck.integerOutOfRange(in: self) { return problem }
        let projection = self.projection
        if let problem = projection.layers.readBackProblem { return problem }
        guard (1...projection.layers.names.count + 1).contains(projection.layerSummaries.count) else {
            return "\(projection.layerSummaries.count) layer summaries for \(projection.layers.names.count) layers"
        }
        let counts = [projection.counts.features, projection.counts.withoutGeometry, projection.counts.withoutPositions,
                      projection.filteredOut, projection.invalidZoomMembers] + Array(projection.uncoercible.values)
        guard counts.allSatisfy({ $0 >= 0 }) else { return "a negative count" }
        let partitions = 1 << (2 * partitionZoom)
        for entry in owned {
            guard (0..<partitions).contains(entry.partition), entry.features >= 0, entry.points >= 0 else {
                return "an owned partition \(entry.partition) outside the grid of zoom \(partitionZoom), or negative counts"
            }
        }
        return nil
    }
}

extension TileJob.Plan {
    /// What makes this plan unusable, beyond its options (checked as `job.json`'s are) and its
    /// partitions' grid, or nil: counts in range, layer tables that agree, shards whose layer
    /// maps name the plan's layers and whose input positions start in order.
    var readBackProblem: String? {
        // The partitions' thinning states are numbers, not counts, and their indexes are checked with the grid.
        let counted: [(String, Any)] = [("/facts", facts), ("/shards", shards), ("/uncoercible", uncoercible),
                                        ("/filteredOut", filteredOut), ("/invalidZoomMembers", invalidZoomMembers),
                                        ("/longitudeExtent", longitudeExtent), ("/reach", reach)]
        for (path, value) in counted {
            if let problem = WorkFileCheck.integerOutOfRange(in: value, path: path) { return problem }
        }
        if let problem = facts.layers.readBackProblem { return problem }
        let layerCount = facts.layers.names.count
        guard (1...layerCount + 1).contains(facts.layerSummaries.count) else {
            return "\(facts.layerSummaries.count) layer summaries for \(layerCount) layers"
        }
        guard shards.count <= ReadBackLimits.shards else { return "\(shards.count) shards, more than 2^20" }
        let named = { (layer: UInt16) in layer == TileLayers.inputLayer || Int(layer) < layerCount }
        var previousOffset = 0
        for shard in shards {
            guard shard.sourceOffset >= previousOffset, named(shard.inputLayer), shard.layerMap.allSatisfy(named) else {
                return "shard \(shard.number)'s input positions or layers do not fit the plan"
            }
            previousOffset = shard.sourceOffset
        }
        guard ([facts.inputCounts.features, filteredOut, invalidZoomMembers] + Array(uncoercible.values)).allSatisfy({ $0 >= 0 }) else {
            return "a negative count"
        }
        return nil
    }
}

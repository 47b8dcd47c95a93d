import OverlayModel

/// Merges the points of one tile that lie closer than a distance into cluster points, as
/// supercluster and tippecanoe's `--cluster-distance` do: points are visited in spatial order
/// and each joins the nearest cluster whose first point is within the distance, or starts one.
/// A cluster is written at its members' mean position with the first member's attributes plus
/// `point_count`, `point_count_abbreviated` and `clustered: true` (what MapLibre's cluster
/// styles read); single points are written unchanged. Points in the tile's buffer are left
/// out: the neighbouring tile clusters them (kept, thousands of them would stay unclustered
/// along the edge), so `point_count` over a zoom's tiles adds up to the points.
enum PointClustering {
    /// Clusters the single points of `tile` closer than `distance` tile units.
    static func cluster(_ tile: inout VectorTile, distance: Double, rules: [String: ClusterAttributeRule]) {
        let extent = Int32(clamping: tile.extent)
        var candidates = [(key: UInt64, index: Int, x: Int32, y: Int32)]()
        var inBuffer = Set<Int>()
        for (index, feature) in tile.features.enumerated()
        where feature.type == .point && feature.xy.count == 2 {
            let x = feature.xy[0], y = feature.xy[1]
            guard (0..<extent).contains(x), (0..<extent).contains(y) else {
                inBuffer.insert(index)
                continue
            }
            candidates.append((mortonKey(x, y), index, x, y))
        }
        guard distance > 0, candidates.count > 1 || !inBuffer.isEmpty else { return }
        candidates.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        let cell = max(1, distance)
        var grid = [Int64: [Int]]()  // cell → clusters seeded there
        var clusters = [[Int]]()  // candidate positions, seed first
        let squaredDistance = distance * distance
        for (position, candidate) in candidates.enumerated() {
            let cx = Int64((Double(candidate.x) / cell).rounded(.down)), cy = Int64((Double(candidate.y) / cell).rounded(.down))
            var best: (cluster: Int, squared: Double)?
            for dx in -1...1 {
                for dy in -1...1 {
                    for cluster in grid[cellKey(cx + Int64(dx), cy + Int64(dy))] ?? [] {
                        let seed = candidates[clusters[cluster][0]]
                        let ex = Double(seed.x - candidate.x), ey = Double(seed.y - candidate.y)
                        let squared = ex * ex + ey * ey
                        guard squared <= squaredDistance else { continue }
                        if best == nil || squared < best!.squared || (squared == best!.squared && cluster < best!.cluster) {
                            best = (cluster, squared)
                        }
                    }
                }
            }
            if let best {
                clusters[best.cluster].append(position)
            } else {
                grid[cellKey(cx, cy), default: []].append(clusters.count)
                clusters.append([position])
            }
        }
        // Replace each cluster's seed by the cluster point and leave out its other members.
        var replacement = [Int: TileFeature]()
        var absorbed = Set<Int>()
        var clusteredPoints = 0
        for members in clusters where members.count > 1 {
            let indices = members.map { candidates[$0].index }
            let seed = tile.features[indices[0]]
            var sumX = 0.0, sumY = 0.0
            for position in members { sumX += Double(candidates[position].x); sumY += Double(candidates[position].y) }
            let count = Double(members.count)
            var properties = seed.properties ?? JSONObject()
            for (name, rule) in rules.sorted(by: { $0.key < $1.key }) {
                let value = accumulate(indices.map { tile.features[$0].properties?[name] }, rule: rule)
                // A sum beyond the largest double is left out and counted, never written as infinity.
                if value == nil { tile.statistics.overflowedSums += 1 }
                properties[name] = value
            }
            properties["point_count"] = .integer(Int64(members.count))
            properties["point_count_abbreviated"] = abbreviated(members.count)
            properties["clustered"] = .bool(true)
            replacement[indices[0]] = TileFeature(type: .point, xy: [Int32((sumX / count).rounded()), Int32((sumY / count).rounded())],
                                                  ringLengths: [1], id: seed.id, properties: properties)
            absorbed.formUnion(indices.dropFirst())
            clusteredPoints += members.count
        }
        guard !replacement.isEmpty || !inBuffer.isEmpty else { return }
        var kept = [Int]()
        for index in tile.features.indices where !absorbed.contains(index) && !inBuffer.contains(index) {
            if let cluster = replacement[index] {
                tile.features[index] = cluster
                // Its properties changed: encoded with the tile, not taken from the shared table.
                if !tile.propertySources.isEmpty { tile.propertySources[index] = -1 }
            }
            kept.append(index)
        }
        tile.keepFeatures(at: kept)
        tile.statistics.clusteredPoints += clusteredPoints
        tile.statistics.clusters += replacement.count
        tile.pointCount -= absorbed.count + inBuffer.count
    }

    /// supercluster's abbreviation: 1234 → "1.2k", 12345 → "12k"; below 1000 the number.
    static func abbreviated(_ count: Int) -> JSONValue {
        if count >= 10_000 { return .string("\(Int((Double(count) / 1000).rounded()))k") }
        if count >= 1000 {
            let tenths = Int((Double(count) / 100).rounded())
            return .string(tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k")
        }
        return .integer(Int64(count))
    }

    /// One attribute of a cluster from its members' values (nil where a member lacks it); nil
    /// when their sum is beyond the largest double. Sums and means are scaled (`ScaledSum`), so a
    /// mean is always finite and near values of 1e308 give their mean, not infinity.
    static func accumulate(_ values: [JSONValue?], rule: ClusterAttributeRule) -> JSONValue? {
        let numbers = values.compactMap { $0?.doubleValue }
        func number(_ value: Double) -> JSONValue {
            if value == value.rounded(), abs(value) < 9e15 { return .integer(Int64(value)) }
            return .number(value)
        }
        switch rule {
        case .count: return .integer(Int64(values.count))
        case .sum: return ScaledSum(numbers).sum.map(number)
        case .mean: return ScaledSum(numbers).mean.map(number) ?? .null
        case .min: return numbers.min().map(number) ?? .null
        case .max: return numbers.max().map(number) ?? .null
        case .concat, .comma:
            let texts = values.compactMap { value -> String? in
                guard let value, value != .null else { return nil }
                if case .string(let text) = value { return text }
                var json = JSONBytes()
                json.appendValue(value)
                return String(decoding: json.bytes, as: UTF8.self)
            }
            return .string(texts.joined(separator: rule == .comma ? "," : ""))
        }
    }

    private static func cellKey(_ x: Int64, _ y: Int64) -> Int64 { (x &* 1_000_003) ^ y }

    private static func mortonKey(_ x: Int32, _ y: Int32) -> UInt64 {
        // Tile coordinates (with the buffer) shifted to be non-negative.
        SpatialOrder.key(x: Double(Int64(x) + (1 << 20)), y: Double(Int64(y) + (1 << 20)))
    }
}

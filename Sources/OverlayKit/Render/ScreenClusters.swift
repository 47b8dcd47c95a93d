/// Groups points on the picture that lie closer than a distance, as MapKit groups annotations
/// into `MKClusterAnnotation`s and supercluster (or `tile --cluster-distance`) groups points:
/// points are taken in input order and each joins the cluster whose first point is nearest
/// within the distance (the earlier cluster on a tie), or starts one. A cluster stands at its
/// members' mean position.
///
/// First points of different clusters lie at least the distance apart, so the clusters of a
/// picture are bounded by its area over the distance squared: memory follows the picture, not
/// the number of points. A grid of cells the distance wide finds the candidates: O(1) a point.
struct ScreenClusters {
    /// One cluster: where its first point is, the sums for its mean, its size.
    struct Cluster: Sendable {
        var seedX: Double
        var seedY: Double
        var sumX: Double
        var sumY: Double
        var count: Int

        /// The members' mean device position.
        var center: (x: Double, y: Double) { (sumX / Double(count), sumY / Double(count)) }
    }

    /// Device pixels within which points join a cluster (> 0).
    let distance: Double
    private(set) var clusters: [Cluster] = []
    private var cells: [Int64: [Int32]] = [:]

    /// Clusters of points closer than `distance` device pixels.
    init(distance: Double) {
        self.distance = distance
    }

    /// Adds a point; returns the index of its cluster and whether it started that cluster.
    mutating func add(x: Double, y: Double) -> (cluster: Int, isNew: Bool) {
        let cellX = ScreenClusters.cell(x / distance), cellY = ScreenClusters.cell(y / distance)
        let squaredDistance = distance * distance
        var best: (index: Int, squared: Double)?
        for dx in Int64(-1)...1 {
            for dy in Int64(-1)...1 {
                for index in cells[ScreenClusters.key(cellX &+ dx, cellY &+ dy)] ?? [] {
                    let cluster = clusters[Int(index)]
                    let ex = cluster.seedX - x, ey = cluster.seedY - y
                    let squared = ex * ex + ey * ey
                    guard squared <= squaredDistance else { continue }
                    if let current = best, current.squared < squared || (current.squared == squared && current.index < Int(index)) {
                        continue
                    }
                    best = (Int(index), squared)
                }
            }
        }
        if let best {
            clusters[best.index].sumX += x
            clusters[best.index].sumY += y
            clusters[best.index].count += 1
            return (best.index, false)
        }
        cells[ScreenClusters.key(cellX, cellY), default: []].append(Int32(truncatingIfNeeded: clusters.count))
        clusters.append(Cluster(seedX: x, seedY: y, sumX: x, sumY: y, count: 1))
        return (clusters.count - 1, true)
    }

    /// A cell number; positions come from inside the picture's margin, so they are small, but
    /// they are clamped all the same.
    private static func cell(_ value: Double) -> Int64 {
        let cell = value.rounded(.down)
        return cell.isNaN ? 0 : Int64(max(-1_000_000_000, min(1_000_000_000, cell)))
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { x &* 4_294_967_311 &+ y }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// tippecanoe's `-zg` (its `main.cpp` and `serial.cpp`, same constants): the max zoom from how
/// far apart features are, and how far apart the vertices of lines and polygons are.
///
/// Distances are measured as tippecanoe measures them: on a Z-order (quadkey) curve over a
/// 2^32-unit world, the square root of the gap between neighbouring keys (equal keys left out)
/// is a distance, turned into feet by its empirical factor 1/33.
/// - Features: the logarithms of the gaps between the features' anchors give a mean and a
///   standard deviation; "nearby" features are 1.5 standard deviations below the geometric
///   mean apart, and the zoom is the lowest whose tile unit is half that distance (one zoom
///   beyond what tells nearby features apart).
/// - Vertices: per line or polygon, the geometric mean gap between its vertices' keys; over all
///   of them, the geometric mean; the zoom is where a tile unit is an eighth of that. It is used
///   when it is deeper than the features' zoom.
///
/// A tile unit at zoom z spans 360° / (2^z · extent), a foot 0.00000274°. The guess is clamped
/// to 0…20; inputs with fewer than two distinct positions and no lines or polygons get 14.
enum MaxZoomGuess {
    /// tippecanoe's feet per key-gap distance and degrees per foot.
    fileprivate static let unitsPerFoot = 33.0
    private static let degreesPerFoot = 0.00000274

    /// The guess for features in `order` whose lines and polygons are `features`.
    static func guess(_ order: SpatialOrder, features: [ProjectedFeature], extent: Int = 4096) -> Int {
        guess(order, vertexSpacing: vertexSpacing(features), extent: extent)
    }

    /// The guess for features in `order` whose lines and polygons' vertices are spaced as `vertexSpacing` measured.
    static func guess(_ order: SpatialOrder, vertexSpacing: VertexSpacing, extent: Int = 4096) -> Int {
        let spacing = guess(order, extent: extent)
        guard let vertices = vertexSpacing.zoom(extent: extent) else { return spacing ?? 14 }
        return max(spacing ?? 0, vertices)
    }

    /// The feature-spacing guess; nil with fewer than two distinct positions.
    static func guess(_ order: SpatialOrder, extent: Int = 4096) -> Int? {
        var spacing = FeatureSpacing()
        for entry in order.entries { spacing.add(entry.key) }
        return spacing.zoom(extent: extent)
    }

    /// The gaps between features along the curve, from their keys in ascending order (streamed
    /// from memory or from a merge of sorted runs on disk): Welford's running mean and variance
    /// of the gaps' logarithms, as tippecanoe keeps them.
    struct FeatureSpacing {
        private var mean = 0.0, m2 = 0.0, count = 0.0
        private var previous: UInt64?

        /// Counts the next feature along the curve.
        mutating func add(_ key: UInt64) {
            defer { previous = key }
            guard let last = previous, key != last else { return }
            let value = log(Double(key - last))
            count += 1
            let delta = value - mean
            mean += delta / count
            m2 += delta * (value - mean)
        }

        /// The zoom one beyond what tells nearby features apart; nil with fewer than two distinct positions.
        func zoom(extent: Int) -> Int? {
            guard count > 0 else { return nil }
            let nearby = exp(mean - 1.5 * (m2 / count).squareRoot())
            let nearbyFeet = nearby.squareRoot() / unitsPerFoot
            return MaxZoomGuess.zoom(feet: nearbyFeet / 2, extent: extent)
        }
    }

    private static func vertexSpacing(_ features: [ProjectedFeature]) -> VertexSpacing {
        var spacing = VertexSpacing()
        for feature in features { spacing.add(feature) }
        return spacing
    }

    /// The spacing of lines' and polygons' vertices, feature by feature (so features can be
    /// streamed past it): the gaps' mean logarithm, weighted by gaps. The sums are kept in fixed
    /// point (2^-32) in 128 bits, so adding features in any order, or adding up parts measured
    /// on separate threads or machines, gives the same bits.
    struct VertexSpacing: Codable {
        private var logFeetSum: Int128 = 0, count: Int128 = 0
        private var keys = [UInt64]()
        private static let scale = 4_294_967_296.0

        /// Measures one feature (points are not measured).
        mutating func add(_ feature: ProjectedFeature) {
            let world = MapProjection.worldSize
            // Copies wrapped across the antimeridian lie off the map: their originals count.
            guard feature.type != .point, feature.maxX >= 0, feature.minX < world else { return }
            keys.removeAll(keepingCapacity: true)
            var index = 0
            while index + 1 < feature.coordinates.count {
                keys.append(SpatialOrder.key(x: feature.coordinates[index], y: feature.coordinates[index + 1]))
                index += 3
            }
            keys.sort()
            var sum = 0.0, gaps = 0.0
            for position in keys.indices.dropFirst() where keys[position] != keys[position - 1] {
                sum += log(Double(keys[position] - keys[position - 1]))
                gaps += 1
            }
            guard gaps > 0 else { return }
            let feet = exp(sum / gaps).squareRoot() / MaxZoomGuess.unitsPerFoot
            let term = (log(feet) * gaps * Self.scale).rounded()
            // A gap count is below 2^32 and a log of feet below 2^6: the term fits in 2^70.
            guard term.isFinite, term.magnitude < 0x1p100 else { return }
            logFeetSum += Int128(term)
            count += Int128(gaps)
        }

        /// Adds what `other` measured (exactly: the order does not matter).
        mutating func merge(_ other: VertexSpacing) {
            logFeetSum += other.logFeetSum
            count += other.count
        }

        /// The zoom whose tile unit is an eighth of the vertices' typical gap; nil without gaps.
        func zoom(extent: Int) -> Int? {
            guard count > 0 else { return nil }
            return MaxZoomGuess.zoom(feet: exp(Double(logFeetSum) / Self.scale / Double(count)) / 8, extent: extent)
        }
    }

    /// The lowest zoom whose tile unit is at most `feet` (tippecanoe's
    /// `ceil(log2(360 / (0.00000274 · want)) − detail)`), clamped to 0…20.
    fileprivate static func zoom(feet: Double, extent: Int) -> Int {
        let zoom = (log2(360 / (degreesPerFoot * feet)) - log2(Double(extent))).rounded(.up)
        guard zoom.isFinite else { return zoom > 0 ? 20 : 0 }
        return Int(saturating: min(20, max(0, zoom)))
    }
}

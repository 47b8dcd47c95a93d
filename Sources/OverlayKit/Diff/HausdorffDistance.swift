#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// How far apart two shapes are, in metres: the Hausdorff distance between their outlines (the
/// farthest any vertex of one lies from the lines and rings of the other, both ways), on a
/// local plane around both (`LocalPlane`). A vertex moved by d metres gives d; reordered or
/// re-rounded vertices give (nearly) 0.
///
/// Cost: O(n·m) for n and m vertices. Beyond `maximumVertices` a side the vertices asked
/// about are taken at an even stride (the lines they are measured to keep every vertex up to
/// the same budget, so the work stays under 4096² per pair of shapes); the result is then a
/// lower bound, exact for the sampled vertices.
enum HausdorffDistance {
    /// The vertices a side measures from, and the segments it measures to, at most.
    static let maximumVertices = 4096

    /// The distance in metres between `a` and `b` (0 when either has no vertices).
    static func metres(_ a: Shape, _ b: Shape) -> Double {
        let partsA = parts(of: a), partsB = parts(of: b)
        let all: [Coordinate] = Array(partsA.joined()) + Array(partsB.joined())
        guard let first = all.first else { return 0 }
        let latitudes = all.map { $0.latitude }
        let plane = LocalPlane(latitude: (latitudes.min()! + latitudes.max()!) / 2, longitude: first.longitude)
        let projectedA: [[(x: Double, y: Double)]] = partsA.map { $0.map { plane.project($0) } }
        let projectedB: [[(x: Double, y: Double)]] = partsB.map { $0.map { plane.project($0) } }
        return max(directed(from: projectedA, to: projectedB), directed(from: projectedB, to: projectedA))
    }

    /// The farthest a vertex of `from` lies from the nearest segment (or lone point) of `to`.
    private static func directed(from: [[(x: Double, y: Double)]], to: [[(x: Double, y: Double)]]) -> Double {
        let vertices = sampled(from.flatMap { $0 })
        let targets = to.map { sampled($0) }.filter { !$0.isEmpty }
        guard !vertices.isEmpty, !targets.isEmpty else { return 0 }
        var farthest = 0.0
        for vertex in vertices {
            var nearest = Double.infinity
            for part in targets {
                if part.count == 1 { nearest = min(nearest, squaredDistance(vertex, part[0])) }
                for index in part.indices.dropFirst() {
                    nearest = min(nearest, squaredDistance(vertex, part[index - 1], part[index]))
                    if nearest == 0 { break }
                }
                if nearest == 0 { break }
            }
            farthest = max(farthest, nearest)
        }
        return farthest.squareRoot()
    }

    /// At most `maximumVertices` of `points`, evenly spaced, the last one kept.
    private static func sampled(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        guard points.count > maximumVertices else { return points }
        let stride = (points.count + maximumVertices - 2) / (maximumVertices - 1)
        var result = Swift.stride(from: 0, to: points.count, by: stride).map { points[$0] }
        if let last = points.last { result.append(last) }
        return result
    }

    private static func squaredDistance(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> Double {
        (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)
    }

    /// The squared distance from `p` to the segment `a`–`b`.
    private static func squaredDistance(_ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        guard length > 0 else { return squaredDistance(p, a) }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
        return squaredDistance(p, (a.x + t * dx, a.y + t * dy))
    }

    /// The shape's lines and rings as vertex lists; a point as one vertex, a circle as its ring
    /// (64 vertices: within 0.12 % of the radius).
    static func parts(of shape: Shape) -> [[Coordinate]] {
        switch shape {
        case .annotation(let annotation): [[annotation.coordinate]]
        case .circle(let circle): [CirclePolygon.ring(circle, tolerance: circle.mapRadius * 0.0012).map { Coordinate($0) }]
        case .polyline(let line): [line.coordinates]
        case .polygon(let polygon): polygon.rings.map(\.coordinates)
        case .multiPolyline(let multi): multi.polylines.map(\.coordinates)
        case .multiPolygon(let multi): multi.polygons.flatMap { $0.rings.map(\.coordinates) }
        case .collection(let collection): collection.members.flatMap(parts(of:))
        }
    }
}

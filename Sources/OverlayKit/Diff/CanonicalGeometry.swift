import OverlayModel

/// A shape reduced to what stays when the same geometry is written another way: coordinates
/// rounded to a number of decimals, rings without their closing position or repeated
/// positions, exteriors counterclockwise and holes clockwise (RFC 7946), every ring starting at
/// its smallest position, holes in a fixed order, an altitude of 0 the same as none.
///
/// The result is a flat list of integers (a tag per part, then its rounded positions), so two
/// shapes are the same geometry exactly when their lists are equal, and hashing one costs a
/// pass over it.
struct CanonicalGeometry: Hashable {
    /// Tags, counts and rounded coordinates, in order.
    private(set) var tokens: [Int64] = []

    /// The canonical form of `shape` (nil: no geometry) at `decimals` decimals.
    init(_ shape: Shape?, decimals: Int) {
        let scale = Self.power(decimals)
        if let shape { append(shape, scale: scale) } else { tokens.append(Tag.none) }
    }

    private enum Tag {
        static let none: Int64 = -1, point: Int64 = -2, circle: Int64 = -3, line: Int64 = -4
        static let polygon: Int64 = -5, multiLine: Int64 = -6, multiPolygon: Int64 = -7, collection: Int64 = -8
        static let ring: Int64 = -9
    }

    private mutating func append(_ shape: Shape, scale: Double) {
        switch shape {
        case .annotation(let annotation):
            tokens.append(Tag.point)
            append(annotation.coordinate, scale: scale)
        case .circle(let circle):
            tokens.append(Tag.circle)
            append(circle.center, scale: scale)
            tokens.append(Int64((circle.radius * 1000).rounded()))  // millimetres
        case .polyline(let line):
            tokens.append(Tag.line)
            appendPositions(Self.rounded(line.coordinates, scale: scale))
        case .polygon(let polygon):
            append(polygon, scale: scale)
        case .multiPolyline(let multi):
            tokens.append(Tag.multiLine)
            tokens.append(Int64(multi.polylines.count))
            for line in multi.polylines { appendPositions(Self.rounded(line.coordinates, scale: scale)) }
        case .multiPolygon(let multi):
            tokens.append(Tag.multiPolygon)
            tokens.append(Int64(multi.polygons.count))
            for polygon in multi.polygons { append(polygon, scale: scale) }
        case .collection(let collection):
            // A MultiPoint and a GeometryCollection of the same points draw the same thing.
            tokens.append(Tag.collection)
            tokens.append(Int64(collection.members.count))
            for member in collection.members { append(member, scale: scale) }
        }
    }

    private mutating func append(_ polygon: Polygon, scale: Double) {
        tokens.append(Tag.polygon)
        let exterior = Self.canonicalRing(polygon.coordinates, scale: scale, counterclockwise: true)
        let holes = polygon.interiorPolygons
            .map { Self.canonicalRing($0.coordinates, scale: scale, counterclockwise: false) }
            .sorted { $0.lexicographicallyPrecedes($1) }
        tokens.append(Int64(holes.count))
        for ring in [exterior] + holes {
            tokens.append(Tag.ring)
            appendPositions(ring)
        }
    }

    private mutating func append(_ coordinate: Coordinate, scale: Double) {
        Self.appendRounded(coordinate, scale: scale, to: &tokens)
    }

    private mutating func appendPositions(_ positions: [Int64]) {
        tokens.append(Int64(positions.count / 3))
        tokens.append(contentsOf: positions)
    }

    /// Longitude, latitude and altitude (0 when absent) rounded to `scale`, appended.
    @inline(__always)
    private static func appendRounded(_ coordinate: Coordinate, scale: Double, to positions: inout [Int64]) {
        positions.append(round(coordinate.longitude, scale))
        positions.append(round(coordinate.latitude, scale))
        positions.append(round(coordinate.altitude ?? 0, scale))
    }

    /// Positions as flat `x, y, z` triples, without a position equal to the one before it.
    private static func rounded(_ coordinates: [Coordinate], scale: Double) -> [Int64] {
        var positions: [Int64] = []
        positions.reserveCapacity(coordinates.count * 3)
        for coordinate in coordinates {
            appendRounded(coordinate, scale: scale, to: &positions)
            let count = positions.count
            if count >= 6, positions[count - 1] == positions[count - 4], positions[count - 2] == positions[count - 5],
               positions[count - 3] == positions[count - 6] {
                positions.removeLast(3)
            }
        }
        return positions
    }

    /// Whether position `a` precedes position `b` (by longitude, then latitude, then altitude).
    @inline(__always)
    private static func precedes(_ positions: [Int64], _ a: Int, _ b: Int) -> Bool {
        let i = a * 3, j = b * 3
        if positions[i] != positions[j] { return positions[i] < positions[j] }
        if positions[i + 1] != positions[j + 1] { return positions[i + 1] < positions[j + 1] }
        return positions[i + 2] < positions[j + 2]
    }

    /// A ring's positions without the closing one, turned the given way, starting at its
    /// smallest position (by longitude, then latitude, then altitude).
    private static func canonicalRing(_ coordinates: [Coordinate], scale: Double, counterclockwise: Bool) -> [Int64] {
        let positions = rounded(coordinates, scale: scale)
        var count = positions.count / 3
        if count > 1, positions[0] == positions[positions.count - 3], positions[1] == positions[positions.count - 2],
           positions[2] == positions[positions.count - 1] {
            count -= 1
        }
        guard count > 2 else { return Array(positions[..<(count * 3)]) }
        let area = ringTwiceSignedArea(count: count) { (Double(positions[$0 * 3]), Double(positions[$0 * 3 + 1])) }
        let reversed = area != 0 && (area > 0) != counterclockwise
        var start = 0
        for index in 1..<count where precedes(positions, index, start) { start = index }
        var ring: [Int64] = []
        ring.reserveCapacity(count * 3)
        for step in 0..<count {
            let index = reversed ? (start - step + count) % count : (start + step) % count
            ring.append(positions[index * 3])
            ring.append(positions[index * 3 + 1])
            ring.append(positions[index * 3 + 2])
        }
        return ring
    }

    private static func round(_ value: Double, _ scale: Double) -> Int64 {
        let scaled = (value * scale).rounded()
        guard scaled.isFinite else { return 0 }
        // Finite model coordinates at ≤ 15 decimals stay far inside Int64; clamp anyway.
        return scaled >= 9.2e18 ? .max : scaled <= -9.2e18 ? .min : Int64(scaled)
    }

    private static func power(_ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, min(decimals, 15)) { scale *= 10 }
        return scale
    }
}

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
        tokens.append(contentsOf: Self.rounded(coordinate, scale: scale))
    }

    private mutating func appendPositions(_ positions: [Int64]) {
        tokens.append(Int64(positions.count / 3))
        tokens.append(contentsOf: positions)
    }

    /// Longitude, latitude and altitude (0 when absent) rounded to `scale`.
    private static func rounded(_ coordinate: Coordinate, scale: Double) -> [Int64] {
        [round(coordinate.longitude, scale), round(coordinate.latitude, scale), round(coordinate.altitude ?? 0, scale)]
    }

    /// Positions as `x, y, z` triples, without a position equal to the one before it.
    private static func rounded(_ coordinates: [Coordinate], scale: Double) -> [Int64] {
        var positions: [Int64] = []
        positions.reserveCapacity(coordinates.count * 3)
        for coordinate in coordinates {
            let position = rounded(coordinate, scale: scale)
            if positions.count >= 3, positions[(positions.count - 3)...].elementsEqual(position) { continue }
            positions.append(contentsOf: position)
        }
        return positions
    }

    /// A ring's positions without the closing one, turned the given way, starting at its
    /// smallest position (by longitude, then latitude, then altitude).
    private static func canonicalRing(_ coordinates: [Coordinate], scale: Double, counterclockwise: Bool) -> [Int64] {
        var positions = rounded(coordinates, scale: scale)
        var count = positions.count / 3
        if count > 1, positions[0..<3].elementsEqual(positions[(positions.count - 3)...]) {
            positions.removeLast(3)
            count -= 1
        }
        guard count > 2 else { return positions }
        let area = ringTwiceSignedArea(count: count) { (Double(positions[$0 * 3]), Double(positions[$0 * 3 + 1])) }
        if (area > 0) != counterclockwise, area != 0 {
            var reversed: [Int64] = []
            reversed.reserveCapacity(positions.count)
            for index in stride(from: count - 1, through: 0, by: -1) { reversed.append(contentsOf: positions[(index * 3)..<(index * 3 + 3)]) }
            positions = reversed
        }
        var start = 0
        for index in 1..<count where positions[(index * 3)..<(index * 3 + 3)].lexicographicallyPrecedes(positions[(start * 3)..<(start * 3 + 3)]) {
            start = index
        }
        return Array(positions[(start * 3)...] + positions[..<(start * 3)])
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

import OverlayModel

/// A longitude/latitude box (`--bbox w,s,e,n`), tested in map points.
///
/// Meridians and parallels are straight lines on the Mercator plane, so the box is a `MapRect`
/// there. When `west > east` the box crosses the antimeridian: it is one rect that runs past
/// the world's east edge, like MapKit's rects for regions that span the 180th meridian, and a
/// shape meets it when it meets the part inside the world or the `remainder` beyond the edge.
public struct GeographicBox: Hashable, Sendable, Codable {
    /// West edge in degrees, −180…180.
    public var west: Double
    /// South edge in degrees, −90…90.
    public var south: Double
    /// East edge in degrees, −180…180; less than `west` when the box crosses the antimeridian.
    public var east: Double
    /// North edge in degrees, −90…90, not south of `south`.
    public var north: Double

    /// - Throws: `Diagnostic` `filter.invalid-box` when a bound is not finite, a longitude is
    ///   outside ±180°, a latitude outside ±90°, or south lies north of north.
    public init(west: Double, south: Double, east: Double, north: Double) throws {
        for (name, value, limit) in [("west", west, 180.0), ("south", south, 90), ("east", east, 180), ("north", north, 90)] {
            guard value.isFinite, abs(value) <= limit else {
                throw Diagnostic(.error, code: .filterInvalidBox,
                                 message: "\(name) must be a number within ±\(Int(limit))°, not \(value)")
            }
        }
        guard south <= north else {
            throw Diagnostic(.error, code: .filterInvalidBox, message: "south (\(south)) lies north of north (\(north))")
        }
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// For bounds already known to be valid.
    init(validWest west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Parses `w,s,e,n` in degrees.
    public init(parsing text: String) throws {
        let numbers = try FilterArgument.numbers(text, count: 4, what: "a box", form: "west,south,east,north")
        do {
            try self.init(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
        } catch var diagnostic as Diagnostic {
            if let hint = CoordinateOrder.boxHint(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3]) {
                diagnostic.message += " (\(hint))"
            }
            throw diagnostic
        }
    }

    /// True when the box runs east from `west` across 180° to `east`.
    public var crossesAntimeridian: Bool { west > east }

    /// The box in map points; past the world's east edge when it crosses the antimeridian.
    public var mapRect: MapRect { MapRect(west: west, south: south, east: east, north: north) }

    /// The rects inside the world that make up the box: one, or two across the antimeridian.
    public var worldRects: [MapRect] {
        let rect = mapRect
        guard rect.spans180thMeridian else { return [rect] }
        return [rect.intersection(.world), rect.remainder].filter { !$0.isNull }
    }

    /// True when the shape and the box share at least one point (edges count), in map points.
    public func intersects(_ shape: Shape) -> Bool {
        worldRects.contains { RectIntersection.intersects(shape, $0) }
    }

    /// True when every vertex of the shape lies in the box (the whole circle, for a circle).
    /// Across the antimeridian a vertex may lie in either part, and an edge between the parts
    /// is taken to cross 180° the short way.
    public func contains(_ shape: Shape) -> Bool {
        RectIntersection.isWithin(shape, mapRect)
    }
}

/// Parsing helpers for the filter's comma-separated arguments.
enum FilterArgument {
    /// `count` comma-separated numbers.
    static func numbers(_ text: String, count: Int, what: String, form: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == count else {
            throw Diagnostic(.error, code: .filterInvalidArgument,
                             message: "\(what) needs \(count) comma-separated numbers (\(form)), got \(parts.count) in '\(text)'")
        }
        return try parts.enumerated().map { index, part in
            let trimmed = part.trimmingCharacters(in: " ")
            guard let value = Double(trimmed), value.isFinite else {
                throw Diagnostic(.error, code: .filterInvalidArgument,
                                 message: "'\(trimmed)' (number \(index + 1) of \(form)) is not a number")
            }
            return value
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

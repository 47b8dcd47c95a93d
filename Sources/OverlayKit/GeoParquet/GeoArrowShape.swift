import OverlayModel

/// A GeoArrow native geometry (as the record assembler gives it: points as `{x, y[, z]}`
/// structs or interleaved `[x, y[, z]]` lists, nested in lists by the encoding) to a shape.
enum GeoArrowShape {
    /// Why a value is not the geometry its encoding says.
    struct Failure: Error { let reason: String }

    /// The shape of `value` stored with `encoding` (nil for null or empty).
    static func shape(_ value: JSONValue, encoding: GeoParquetMetadata.Encoding) throws -> Shape? {
        if case .null = value { return nil }
        switch encoding {
        case .wkb:
            throw Failure(reason: "a WKB column read as GeoArrow")
        case .point:
            return try point(value).map { .annotation(PointAnnotation(coordinate: $0)) }
        case .linestring:
            let points = try line(value)
            return points.isEmpty ? nil : .polyline(Polyline(coordinates: points))
        case .polygon:
            return try polygon(value).map(Shape.polygon)
        case .multipoint:
            let members = try list(value).compactMap { try point($0) }.map { Shape.annotation(PointAnnotation(coordinate: $0)) }
            return members.isEmpty ? nil : .collection(ShapeCollection(members: members, origin: .multiPoint))
        case .multilinestring:
            let lines = try list(value).map { try line($0) }.filter { !$0.isEmpty }.map { Polyline(coordinates: $0) }
            return lines.isEmpty ? nil : .multiPolyline(MultiPolyline(lines))
        case .multipolygon:
            let polygons = try list(value).compactMap { try polygon($0) }
            return polygons.isEmpty ? nil : .multiPolygon(MultiPolygon(polygons))
        }
    }

    private static func list(_ value: JSONValue) throws -> [JSONValue] {
        switch value {
        case .null: return []
        case .array(let items): return items
        default: throw Failure(reason: "a \(value.typeName) where a list belongs")
        }
    }

    private static func point(_ value: JSONValue) throws -> Coordinate? {
        let x: Double?, y: Double?, z: Double?
        switch value {
        case .object(let members):
            x = members["x"]?.doubleValue
            y = members["y"]?.doubleValue
            z = members["z"]?.doubleValue
        case .array(let items):
            guard items.count >= 2 else { throw Failure(reason: "an interleaved point of \(items.count) values") }
            x = items[0].doubleValue
            y = items[1].doubleValue
            z = items.count > 2 ? items[2].doubleValue : nil
        case .null:
            return nil
        default:
            throw Failure(reason: "a \(value.typeName) where a point belongs")
        }
        guard let x, let y else { return nil }  // an empty point (NaN, written as null)
        return Coordinate(latitude: y, longitude: x, altitude: z)
    }

    private static func line(_ value: JSONValue) throws -> [Coordinate] {
        try list(value).map { item in
            guard let coordinate = try point(item) else { throw Failure(reason: "a null or non-finite point inside a line") }
            return coordinate
        }
    }

    private static func polygon(_ value: JSONValue) throws -> Polygon? {
        let rings = try list(value).map { try line($0) }
        guard let exterior = rings.first else { return nil }
        return Polygon(coordinates: exterior, interiorPolygons: rings.dropFirst().map { Polygon(coordinates: $0) })
    }
}

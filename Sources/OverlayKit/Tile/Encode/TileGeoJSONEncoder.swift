import OverlayModel

/// Writes a tile as an RFC 7946 FeatureCollection in longitude/latitude: the same clipped,
/// simplified geometry as the MVT tile (taken from its integer coordinates), for clients that
/// load GeoJSON overlays per tile.
public struct TileGeoJSONEncoder: Sendable {
    /// Decimal places for coordinates.
    public var precision: Int

    /// An encoder with `precision` decimals.
    public init(precision: Int = 7) { self.precision = precision }

    /// The tile as a GeoJSON FeatureCollection in degrees.
    public func encode(_ tile: VectorTile) throws -> [UInt8] {
        let output = ByteOutput()
        var writer = GeoJSONWriter(output: output, options: WriterOptions(precision: precision))
        for index in tile.features.indices {
            let feature = tile.feature(at: index)
            if let shape = shape(feature, tile: tile) {
                try writer.write(Feature(id: feature.id.map(Self.featureID), properties: feature.properties, shape: shape))
            }
        }
        try writer.finish()
        return output.bytes
    }

    static func featureID(_ value: JSONValue) -> FeatureID {
        switch value {
        case .integer(let number): return .integer(number)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        default:
            var json = JSONBytes()
            json.appendValue(value)
            return .string(String(decoding: json.bytes, as: UTF8.self))
        }
    }

    /// The coordinate of a point in tile units; longitudes beyond ±180° (the buffer at the
    /// world's edge) are kept, not wrapped, so rings stay whole.
    static func coordinate(x: Int32, y: Int32, tile: VectorTile) -> Coordinate {
        let tiles = Double(1 << tile.id.z), extent = Double(tile.extent)
        let mapX = (Double(x) / extent + Double(tile.id.x)) / tiles * MapProjection.worldSize
        let mapY = (Double(y) / extent + Double(tile.id.y)) / tiles * MapProjection.worldSize
        return Coordinate(latitude: MapProjection.latitude(y: mapY), longitude: mapX / MapProjection.worldSize * 360 - 180)
    }

    private func shape(_ feature: TileFeature, tile: VectorTile) -> Shape? {
        let rings = feature.rings.map { ring in ring.map { Self.coordinate(x: $0.x, y: $0.y, tile: tile) } }
        switch feature.type {
        case .point:
            let points = rings.flatMap { $0 }.map { Shape.annotation(PointAnnotation(coordinate: $0)) }
            if points.count == 1 { return points[0] }
            return points.isEmpty ? nil : .collection(ShapeCollection(members: points, origin: .multiPoint))
        case .line:
            let lines = rings.filter { $0.count >= 2 }.map { Polyline(coordinates: $0) }
            if lines.count == 1 { return .polyline(lines[0]) }
            return lines.isEmpty ? nil : .multiPolyline(MultiPolyline(lines))
        case .polygon:
            // Exteriors run clockwise in tile space (negative area with y down); holes follow
            // their exterior.
            var polygons = [Polygon]()
            for (ring, tileRing) in zip(rings, feature.rings) {
                let pairs = tileRing.flatMap { [Double($0.x), Double($0.y)] }
                if RingWinding.isExterior(tileArea: RingValidity.doubleArea(pairs)) || polygons.isEmpty {
                    polygons.append(Polygon(coordinates: ring))
                } else {
                    polygons[polygons.count - 1].interiorPolygons.append(Polygon(coordinates: ring))
                }
            }
            if polygons.count == 1 { return .polygon(polygons[0]) }
            return polygons.isEmpty ? nil : .multiPolygon(MultiPolygon(polygons))
        }
    }
}

extension RingWinding {
    /// True for an exterior ring in tile space (clockwise with y down: negative
    /// `RingValidity.doubleArea`).
    static func isExterior(tileArea: Double) -> Bool { tileArea < 0 }
}

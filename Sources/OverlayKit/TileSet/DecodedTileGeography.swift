import OverlayModel

/// A decoded tile's features in degrees (RFC 7946: longitude, latitude; exterior rings
/// counterclockwise, holes clockwise), as `tippecanoe-decode` gives them: one `Feature` per
/// tile feature, its layer named in a `"tippecanoe": {"layer": …}` member, which `tile` reads
/// back to put it in the same layer.
public enum DecodedTileGeography {
    /// The features of `layer` of tile `tile`. Tile units become degrees through the tile's
    /// place on the Web Mercator grid; the buffer of a tile at the world's edge gives longitudes
    /// beyond ±180°, kept as they are (as tippecanoe-decode does) unless `clampingLongitudes`
    /// holds them at ±180° (for drawing, where longitudes wrap). Polygon rings are grouped by the sign of their area in tile units (MVT 2.1
    /// §4.3.4.4: exteriors positive); rings of zero area are left out.
    public static func features(of layer: DecodedTileLayer, tile: TileID, clampingLongitudes: Bool = false) -> [Feature] {
        let scale = 1 / (Double(layer.extent) * Double(1 << tile.z))
        func coordinate(_ x: Int32, _ y: Int32) -> Coordinate {
            let worldX = (Double(tile.x) * Double(layer.extent) + Double(x)) * scale
            let worldY = (Double(tile.y) * Double(layer.extent) + Double(y)) * scale
            let longitude = clampingLongitudes ? min(180, max(-180, worldX * 360 - 180)) : worldX * 360 - 180
            return Coordinate(latitude: MapProjection.latitude(y: worldY * MapProjection.worldSize), longitude: longitude)
        }
        var tippecanoe = JSONObject()
        tippecanoe.append("layer", .string(layer.name))
        return layer.features.map { feature in
            let rings = ringCoordinates(feature, coordinate)
            let shape: Shape?
            switch feature.type {
            case .point:
                let points = rings.flatMap { $0 }
                shape = points.count == 1 ? .annotation(PointAnnotation(coordinate: points[0]))
                    : points.isEmpty ? nil
                    : .collection(ShapeCollection(members: points.map { .annotation(PointAnnotation(coordinate: $0)) }, origin: .multiPoint))
            case .line:
                let lines = rings.filter { $0.count >= 2 }.map { Polyline(coordinates: $0) }
                shape = lines.count == 1 ? .polyline(lines[0]) : lines.isEmpty ? nil : .multiPolyline(MultiPolyline(lines))
            case .polygon:
                let polygons = self.polygons(feature, rings)
                shape = polygons.count == 1 ? .polygon(polygons[0]) : polygons.isEmpty ? nil : .multiPolygon(MultiPolygon(polygons))
            }
            var members = JSONObject()
            members.append("tippecanoe", .object(tippecanoe))
            return Feature(id: feature.id.flatMap(featureID), properties: feature.properties ?? JSONObject(), shape: shape,
                           foreignMembers: members)
        }
    }

    /// Every layer's features, layer after layer.
    public static func features(of layers: [DecodedTileLayer], tile: TileID, clampingLongitudes: Bool = false) -> [Feature] {
        layers.flatMap { features(of: $0, tile: tile, clampingLongitudes: clampingLongitudes) }
    }

    private static func featureID(_ value: JSONValue) -> FeatureID? {
        switch value {
        case .integer(let number): .integer(number)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        default: nil
        }
    }

    private static func ringCoordinates(_ feature: TileFeature, _ coordinate: (Int32, Int32) -> Coordinate) -> [[Coordinate]] {
        var result = [[Coordinate]]()
        result.reserveCapacity(feature.ringLengths.count)
        var start = 0
        for length in feature.ringLengths {
            result.append((start..<(start + length)).map { coordinate(feature.xy[2 * $0], feature.xy[2 * $0 + 1]) })
            start += length
        }
        return result
    }

    /// Exteriors with the holes that follow them; a hole before any exterior starts a polygon
    /// of its own (turned round), as tippecanoe-decode reads such tiles.
    private static func polygons(_ feature: TileFeature, _ rings: [[Coordinate]]) -> [Polygon] {
        var polygons = [Polygon]()
        var start = 0
        for (index, length) in feature.ringLengths.enumerated() {
            var area: Int64 = 0
            for point in start..<(start + length - 1) {
                let x0 = Int64(feature.xy[2 * point]), y0 = Int64(feature.xy[2 * point + 1])
                let x1 = Int64(feature.xy[2 * point + 2]), y1 = Int64(feature.xy[2 * point + 3])
                area += x0 * y1 - x1 * y0
            }
            start += length
            guard area != 0, rings[index].count >= 4 else { continue }
            if area > 0 || polygons.isEmpty {
                polygons.append(Polygon(coordinates: area > 0 ? rings[index] : rings[index].reversed()))
            } else {
                polygons[polygons.count - 1].interiorPolygons.append(Polygon(coordinates: rings[index]))
            }
        }
        return polygons
    }
}

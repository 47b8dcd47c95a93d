import OverlayModel

/// One layer of a decoded vector tile, whatever its encoding.
public struct DecodedTileLayer: Hashable, Sendable {
    /// The layer's name.
    public var name: String
    /// Tile units across the tile.
    public var extent: Int
    /// The features in tile order: geometry in tile units (polygon rings closed), id, and
    /// properties as JSON values (MVT's float and double both as numbers, its integers as integers).
    public var features: [TileFeature]

    /// A layer named `name` of `features` in `extent` units.
    public init(name: String, extent: Int, features: [TileFeature]) {
        self.name = name
        self.extent = extent
        self.features = features
    }
}

/// Decodes one tile's bytes (uncompressed) in either vector encoding into layers of features:
/// the one call tile inspection, previews, tile-join and tests use to read MVT and MLT alike.
///
/// ```swift
/// let layers = try VectorTileDecoder.decode(bytes, encoding: .mlt)
/// for layer in layers { print(layer.name, layer.features.count) }
/// ```
public enum VectorTileDecoder {
    /// The layers of a tile of `encoding` (`.mvt` or `.mlt`; GeoJSON tiles are not vector tiles).
    /// - Throws: `Diagnostic` `mvt.bad-tile` or `mlt.bad-tile` when the bytes are not such a
    ///   tile (`mvt.bad-tile` for `.geojson`).
    public static func decode(_ bytes: [UInt8], encoding: TileEncoding) throws -> [DecodedTileLayer] {
        switch encoding {
        case .mlt: return try MLTDecoder.decode(bytes)
        case .mvt: return try MVTDecoder().decode(bytes).map(layer)
        case .geojson:
            throw Diagnostic(.error, code: .mvtBadTile, message: "GeoJSON tiles are not vector tiles: read them as GeoJSON")
        }
    }

    /// An MVT layer's features with geometry from its commands (rings closed, MoveTo/LineTo
    /// runs split into lines and rings, a multi-point's points in one run).
    static func layer(_ layer: MVTLayer) throws -> DecodedTileLayer {
        var features = [TileFeature]()
        features.reserveCapacity(layer.features.count)
        for feature in layer.features {
            guard (1...3).contains(feature.type) else { continue }
            let type: TileGeometryType = feature.type == 1 ? .point : feature.type == 2 ? .line : .polygon
            var xy = [Int32](), lengths = [Int]()
            var x: Int32 = 0, y: Int32 = 0, start = 0
            let commands = try feature.geometry()
            var index = 0
            while index < commands.count {
                let command = commands[index] & 7, count = Int(commands[index] >> 3)
                index += 1
                switch command {
                case 1, 2:
                    guard count <= (commands.count - index) / 2 else { throw ProtobufReader.failure("geometry command runs past its parameters") }
                    if command == 1 && type != .point {
                        if xy.count / 2 > start { lengths.append(xy.count / 2 - start) }
                        start = xy.count / 2
                    }
                    for _ in 0..<count {
                        x &+= Int32(truncatingIfNeeded: MLTWire.unzigzag(UInt64(commands[index])))
                        y &+= Int32(truncatingIfNeeded: MLTWire.unzigzag(UInt64(commands[index + 1])))
                        xy.append(x)
                        xy.append(y)
                        index += 2
                    }
                case 7:
                    guard xy.count / 2 > start else { break }
                    xy.append(xy[2 * start])
                    xy.append(xy[2 * start + 1])
                default:
                    throw ProtobufReader.failure("geometry command \(command)")
                }
            }
            if xy.count / 2 > start { lengths.append(xy.count / 2 - start) }
            if type == .point { lengths = [xy.count / 2] }
            var properties: JSONObject?
            if !feature.tags.isEmpty {
                var object = JSONObject()
                for (key, value) in layer.properties(of: feature) {
                    switch value {
                    case .string(let text): object.append(key, .string(text))
                    case .float(let number): object.append(key, .number(Double(number)))
                    case .double(let number): object.append(key, .number(number))
                    case .int(let number), .sint(let number): object.append(key, .integer(number))
                    case .uint(let number): object.append(key, number <= UInt64(Int64.max) ? .integer(Int64(number)) : .number(Double(number)))
                    case .bool(let flag): object.append(key, .bool(flag))
                    }
                }
                properties = object
            }
            features.append(TileFeature(type: type, xy: xy, ringLengths: lengths,
                                        id: feature.id.map { $0 <= UInt64(Int64.max) ? .integer(Int64($0)) : .number(Double($0)) },
                                        properties: properties))
        }
        return DecodedTileLayer(name: layer.name, extent: Int(layer.extent), features: features)
    }
}

import OverlayModel

/// Turns one encoding's uncompressed tile bytes into layers of `TileFeature`s. Hostile bytes
/// give a `Diagnostic`, never a trap.
public protocol VectorTileDecoding: Sendable {
    /// The tile's layers in the order they appear.
    /// - Throws: `Diagnostic` saying what is wrong with the bytes.
    func decodeLayers(_ bytes: [UInt8]) throws -> [DecodedTileLayer]
}

/// The decoders of the vector encodings OverlayKit reads, found by a tile set's
/// `TileContentType` (PMTiles tile type, MBTiles `format`): a new encoding is one more entry in
/// ``all``, and inspection, decoding, `render` of a tile set and the server's style follow.
public enum TileDecoders {
    /// Each decodable content type with its decoder.
    public static let all: [(type: TileContentType, decoder: any VectorTileDecoding)] = [
        (.mvt, MVTTileDecoder()),
        (.mlt, MLTTileDecoder()),
    ]

    /// The decoder for `type`, or nil when its tiles cannot be decoded here.
    public static func decoder(for type: TileContentType) -> (any VectorTileDecoding)? {
        all.first { $0.type.name == type.name }?.decoder
    }

    /// The decoder for `type`.
    /// - Throws: `Diagnostic` `tile.undecodable` naming the type and `source` when there is none.
    public static func require(_ type: TileContentType, source: String) throws -> any VectorTileDecoding {
        guard let decoder = decoder(for: type) else {
            let names = all.map(\.type.name).joined(separator: ", ")
            throw Diagnostic(.error, code: .tilesetUndecodable,
                             message: "\(source) holds \(type.name) tiles; OverlayKit decodes \(names) tiles")
        }
        return decoder
    }
}

/// MapLibre Tiles: `MLTDecoder`'s layers (`Tile/Encode/MLT`).
public struct MLTTileDecoder: VectorTileDecoding {
    /// Creates a decoder.
    public init() {}

    public func decodeLayers(_ bytes: [UInt8]) throws -> [DecodedTileLayer] { try MLTDecoder.decode(bytes) }
}

/// Mapbox Vector Tile 2.1: `MVTDecoder`'s layers with each feature's geometry commands
/// followed (spec §4.3) and its tags turned into properties.
public struct MVTTileDecoder: VectorTileDecoding {
    /// Creates a decoder.
    public init() {}

    public func decodeLayers(_ bytes: [UInt8]) throws -> [DecodedTileLayer] {
        try MVTDecoder().decode(bytes).map { layer in
            let features = try layer.features.enumerated().compactMap { index, feature -> TileFeature? in
                guard let type = Self.geometryType(feature.type) else { return nil }   // UNKNOWN: nothing to draw
                var decoded = try MVTGeometryDecoding.feature(feature.geometry(), type: type,
                                                              where: "layer \(layer.name) feature \(index)")
                decoded.id = feature.id.map { $0 <= UInt64(Int64.max) ? .integer(Int64($0)) : .number(Double($0)) }
                var properties = JSONObject()
                for (key, value) in layer.properties(of: feature) { properties[key] = Self.json(value) }
                decoded.properties = properties
                return decoded
            }
            return DecodedTileLayer(name: layer.name, extent: Int(layer.extent), features: features)
        }
    }

    static func geometryType(_ type: UInt64) -> TileGeometryType? {
        switch type {
        case 1: .point
        case 2: .line
        case 3: .polygon
        default: nil
        }
    }

    /// A value as JSON: integers that fit stay integers, floats become numbers.
    static func json(_ value: MVTValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .float(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .int(let number), .sint(let number): .integer(number)
        case .uint(let number): number <= UInt64(Int64.max) ? .integer(Int64(number)) : .number(Double(number))
        case .bool(let flag): .bool(flag)
        }
    }
}

/// MVT geometry commands (spec §4.3) into `TileFeature` coordinates.
enum MVTGeometryDecoding {
    /// Follows MoveTo / LineTo / ClosePath from a cursor at (0, 0); polygon rings come back
    /// closed (first point repeated), every point run of a point feature as one run.
    /// - Throws: `Diagnostic` `mvt.bad-tile` naming `place` for commands the spec does not allow
    ///   there or parameters cut off.
    static func feature(_ commands: [UInt32], type: TileGeometryType, where place: String) throws -> TileFeature {
        func bad(_ why: String) -> Diagnostic { ProtobufReader.failure("\(place): \(why)") }
        var xy = [Int32](), ringLengths = [Int]()
        xy.reserveCapacity(commands.count)
        var x: Int64 = 0, y: Int64 = 0
        var index = 0
        var ringStart = 0
        func zigzag(_ value: UInt32) -> Int64 { Int64(value >> 1) ^ -Int64(value & 1) }
        func take(_ count: Int) throws {
            guard count <= (commands.count - index) / 2 else { throw bad("a command's parameters run past the geometry's end") }
            for _ in 0..<count {
                x += zigzag(commands[index])
                y += zigzag(commands[index + 1])
                index += 2
                guard let px = Int32(exactly: x), let py = Int32(exactly: y) else { throw bad("a coordinate leaves the 32-bit range") }
                xy.append(px)
                xy.append(py)
            }
        }
        while index < commands.count {
            let command = commands[index] & 0x7, count = Int(commands[index] >> 3)
            index += 1
            switch (command, type) {
            case (1, .point):
                guard count > 0 else { throw bad("MoveTo with no point") }
                try take(count)
            case (1, _):
                guard count == 1 else { throw bad("MoveTo of \(count) points in a line or polygon") }
                if xy.count / 2 > ringStart { ringLengths.append(xy.count / 2 - ringStart) }
                ringStart = xy.count / 2
                try take(1)
            case (2, .line), (2, .polygon):
                guard xy.count / 2 > ringStart else { throw bad("LineTo before MoveTo") }
                try take(count)
            case (7, .polygon):
                guard count == 1, xy.count / 2 > ringStart else { throw bad("ClosePath without a ring") }
                xy.append(xy[2 * ringStart])
                xy.append(xy[2 * ringStart + 1])
                ringLengths.append(xy.count / 2 - ringStart)
                ringStart = xy.count / 2
            default:
                throw bad("command \(command) is not allowed in a \(type) geometry")
            }
        }
        if xy.count / 2 > ringStart {
            guard type != .polygon else { throw bad("a polygon ring is not closed by ClosePath") }
            ringLengths.append(xy.count / 2 - ringStart)
        }
        return TileFeature(type: type, xy: xy, ringLengths: ringLengths, id: nil, properties: nil)
    }
}

import OverlayModel

/// Reads MapLibre Tiles (MLT 1 feature tables, tag 0x01; other tags are skipped) back into
/// layers of `TileFeature`s, as `MVTTileDecoder` reads MVT: polygon rings closed again,
/// properties as JSON values (nulls left out, as MVT leaves them out), ids as integers.
/// `TileDecoders` finds it for MLT tile sets (`MLTTileDecoder`). Reads what `MLTEncoder` writes and what other
/// writers commonly use besides: vertex dictionaries and Morton-coded vertices, FSST strings,
/// shared string dictionaries (struct columns), 8-bit integers.
public enum MLTDecoder {
    /// The tile's layers in tile order.
    /// - Throws: `Diagnostic` `mlt.bad-tile` when the bytes are not a valid tile.
    public static func decode(_ bytes: [UInt8]) throws -> [DecodedTileLayer] {
        var reader = MLTWire.Reader(bytes)
        var layers = [DecodedTileLayer]()
        while !reader.isAtEnd {
            var layer = try reader.subReader(try reader.count())
            guard try layer.varint() == 1 else { continue }
            layers.append(try featureTable(&layer))
            guard layer.isAtEnd else { throw layer.failure("\(layer.remaining) bytes after the layer's last column") }
        }
        return layers
    }

    /// One column's declaration.
    private struct Column {
        var code: UInt64
        var name = ""
        var children = [Column]()
        var nullable: Bool { code < 4 ? code & 1 == 1 : code >= 10 && code < 30 && code & 1 == 1 }
    }

    private static func column(_ reader: inout MLTWire.Reader, depth: Int = 0) throws -> Column {
        var column = Column(code: try reader.varint())
        guard column.code <= 30, column.code != 5, column.code < 6 || column.code >= 10 else {
            throw reader.failure("unknown column type \(column.code)")
        }
        if column.code >= 10 { column.name = try reader.string() }
        if column.code == 30 {
            guard depth == 0 else { throw reader.failure("nested struct columns") }
            column.children = try (0..<reader.declaredCount(bytesEach: 1, of: "struct children")).map { _ in try Self.column(&reader, depth: 1) }
        }
        return column
    }

    private static func featureTable(_ reader: inout MLTWire.Reader) throws -> DecodedTileLayer {
        let name = try reader.string()
        guard !name.isEmpty else { throw reader.failure("a layer without a name") }
        let extent = try reader.count()
        let columns = try (0..<reader.declaredCount(bytesEach: 1, of: "columns")).map { _ in try column(&reader) }
        var ids: [UInt64?]?
        var features: [TileFeature]?
        var properties = [(name: String, values: [JSONValue?])]()
        for column in columns {
            switch column.code {
            case 0...3:
                let present = column.nullable ? try presentStream(&reader) : nil
                let header = try MLTWire.StreamHeader.read(&reader)
                ids = try spread(try MLTIntegerStream.read(&reader, header: header, signed: false), present, reader)
            case 4:
                features = try MLTGeometryDecoder.features(&reader, streams: try reader.count())
            case 30:
                properties += try sharedDictionary(&reader, column)
            default:
                properties.append((column.name, try scalarColumn(&reader, column)))
            }
        }
        guard var features else { throw reader.failure("layer \(name) has no geometry column") }
        if let ids {
            guard ids.count == features.count else { throw reader.failure("\(ids.count) ids for \(features.count) features") }
            for index in features.indices {
                features[index].id = ids[index].map { $0 <= UInt64(Int64.max) ? .integer(Int64($0)) : .number(Double($0)) }
            }
        }
        properties.removeAll { $0.values.isEmpty }                        // a column with no value in this tile
        for (_, values) in properties where values.count != features.count {
            throw reader.failure("a column of \(values.count) values for \(features.count) features")
        }
        for index in features.indices {
            var object = JSONObject()
            for (name, values) in properties { if let value = values[index] { object.append(name, value) } }
            features[index].properties = object                        // as `MVTTileDecoder`: empty, not nil
        }
        return DecodedTileLayer(name: name, extent: extent, features: features)
    }

    private static func presentStream(_ reader: inout MLTWire.Reader) throws -> [Bool] {
        let header = try MLTWire.StreamHeader.read(&reader)
        guard header.physicalStream == .present else { throw reader.failure("expected a present stream") }
        return try MLTWire.readBooleans(&reader, header: header)
    }

    /// Dense values placed at the present rows.
    private static func spread<Value>(_ values: [Value], _ present: [Bool]?, _ reader: MLTWire.Reader) throws -> [Value?] {
        guard let present else { return values }
        var result = [Value?](), next = 0
        result.reserveCapacity(present.count)
        for flag in present {
            if flag {
                guard next < values.count else { throw reader.failure("fewer values than present bits") }
                result.append(values[next])
                next += 1
            } else { result.append(nil) }
        }
        return result
    }

    private static func scalarColumn(_ reader: inout MLTWire.Reader, _ column: Column) throws -> [JSONValue?] {
        let type = column.code & ~1
        if type == 28 {
            var streams = try reader.count()
            guard streams > 0 else { return [] }
            var present: [Bool]?
            if column.nullable {
                present = try presentStream(&reader)
                streams -= 1
            }
            return try spread(try MLTStringColumn.read(&reader, streams: streams).map { JSONValue.string($0) }, present, reader)
        }
        let present = column.nullable ? try presentStream(&reader) : nil
        let header = try MLTWire.StreamHeader.read(&reader)
        let values: [JSONValue]
        switch type {
        case 10:
            values = try MLTWire.readBooleans(&reader, header: header).map { .bool($0) }
        case 12, 16, 20:
            values = try MLTIntegerStream.read(&reader, header: header, signed: true).map { .integer(Int64(bitPattern: $0)) }
        case 14, 18, 22:
            values = try MLTIntegerStream.read(&reader, header: header, signed: false).map {
                $0 <= UInt64(Int64.max) ? .integer(Int64($0)) : .number(Double($0))
            }
        case 24, 26:
            let width = type == 24 ? 4 : 8
            guard header.byteLength == width * header.valueCount else { throw reader.failure("a float column of the wrong length") }
            let bytes = try reader.take(header.byteLength)
            values = stride(from: bytes.startIndex, to: bytes.endIndex, by: width).map { start in
                var bits: UInt64 = 0
                for byte in 0..<width { bits |= UInt64(bytes[start + byte]) << UInt64(8 * byte) }
                return .number(width == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
            }
        default:
            throw reader.failure("column type \(column.code) is not supported")
        }
        return try spread(values, present, reader)
    }

    /// A struct column of string children sharing one dictionary; each child is a property
    /// named the struct's name followed by the child's.
    private static func sharedDictionary(_ reader: inout MLTWire.Reader, _ column: Column) throws -> [(String, [JSONValue?])] {
        let streams = try reader.count()
        var dictionaryStreams = [[UInt8]](), consumed = 0
        // The dictionary's streams come first, up to and including its data stream.
        while consumed < streams {
            let start = reader.position
            let header = try MLTWire.StreamHeader.read(&reader)
            _ = try reader.take(header.byteLength)
            consumed += 1
            dictionaryStreams.append(Array(reader.bytes[start..<reader.position]))
            if header.physicalStream == .data
                && (header.logicalStream == MLTWire.DictionaryKind.single.rawValue
                    || header.logicalStream == MLTWire.DictionaryKind.shared.rawValue) { break }
        }
        var dictionaryReader = MLTWire.Reader(dictionaryStreams.flatMap { $0 })
        let dictionary = try MLTStringColumn.read(&dictionaryReader, streams: dictionaryStreams.count)
        var result = [(String, [JSONValue?])]()
        for child in column.children {
            let childStreams = try reader.count()
            guard childStreams > 0 else { result.append((column.name + child.name, [])); continue }
            let present = child.nullable ? try presentStream(&reader) : nil
            let header = try MLTWire.StreamHeader.read(&reader)
            let indices = try MLTIntegerStream.read(&reader, header: header, signed: false)
            let values = try indices.map { index -> JSONValue in
                guard index < UInt64(dictionary.count) else { throw reader.failure("string index \(index) beyond the dictionary") }
                return .string(dictionary[Int(index)])
            }
            result.append((column.name + child.name, try spread(values, present, reader)))
        }
        return result
    }
}

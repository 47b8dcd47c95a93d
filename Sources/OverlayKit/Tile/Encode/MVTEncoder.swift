import OverlayModel

/// Encodes tiles as Mapbox Vector Tile 2.1 (one layer): integer geometry in extent units as
/// MoveTo/LineTo/ClosePath commands with zigzag deltas, properties as shared keys and values,
/// ids kept where MVT can hold them.
public struct MVTEncoder: Sendable {
    /// What MVT could not hold: the name before ``TileEncodingLosses``.
    @available(*, deprecated, renamed: "TileEncodingLosses")
    public typealias Losses = TileEncodingLosses

    /// The name of the one layer each tile holds.
    public var layerName: String

    /// An encoder writing one layer named `layerName`.
    public init(layerName: String) { self.layerName = layerName }

    private enum Value: Hashable {
        case string(String), double(Double), unsigned(UInt64), signed(Int64), bool(Bool)
    }

    /// The tile's bytes (uncompressed protobuf) and what could not be written.
    public func encode(_ tile: VectorTile) -> ([UInt8], TileEncodingLosses) {
        if let table = tile.propertyTable, tile.propertySources.count == tile.features.count,
           !tile.propertySources.contains(-1) {
            return encode(tile, table: table)
        }
        var losses = TileEncodingLosses()
        var keys = [String](), keyIndex = [String: UInt32]()
        var values = [Value](), valueIndex = [Value: UInt32]()
        var layer = ProtobufWriter()
        layer.varintField(15, 2)                                   // version
        layer.stringField(1, layerName)
        for index in tile.features.indices {
            let feature = tile.feature(at: index)
            let geometry = Self.geometry(feature)
            guard !geometry.isEmpty else { continue }
            var tags = [UInt32]()
            // Each key once per feature: a repeated name is renamed (`JSONObject.renameDuplicateKeys`).
            var properties = feature.properties ?? JSONObject()
            properties.renameDuplicateKeys()
            for member in properties {
                let value: Value
                switch member.value {
                case .null:
                    losses.nullValuesNotWritten += 1
                    continue
                case .bool(let flag): value = .bool(flag)
                case .integer(let number): value = number >= 0 ? .unsigned(UInt64(number)) : .signed(number)
                case .number(let number): value = .double(number)
                case .string(let text): value = .string(text)
                case .array, .object:
                    losses.valuesWrittenAsJSON += 1
                    var json = JSONBytes()
                    json.appendValue(member.value)
                    value = .string(String(decoding: json.bytes, as: UTF8.self))
                }
                let key: UInt32
                if let known = keyIndex[member.key] { key = known } else {
                    key = UInt32(keys.count)
                    keyIndex[member.key] = key
                    keys.append(member.key)
                }
                let valueNumber: UInt32
                if let known = valueIndex[value] { valueNumber = known } else {
                    valueNumber = UInt32(values.count)
                    valueIndex[value] = valueNumber
                    values.append(value)
                }
                tags.append(key)
                tags.append(valueNumber)
            }
            Self.appendFeature(feature, geometry: geometry, tags: tags, to: &layer, losses: &losses)
        }
        for key in keys { layer.stringField(3, key) }
        for value in values {
            var message = ProtobufWriter()
            switch value {
            case .string(let text): message.stringField(1, text)
            case .double(let number): message.doubleField(3, number)
            case .unsigned(let number): message.varintField(5, number)
            case .signed(let number): message.varintField(6, ProtobufWriter.zigzag(number))
            case .bool(let flag): message.varintField(7, flag ? 1 : 0)
            }
            layer.bytesField(4, message.bytes)
        }
        return (finish(layer, extent: tile.extent), losses)
    }

    /// The same encoding from properties encoded once per input feature: tags are renumbered
    /// to the tile's first-use order through arrays, and keys and values copied as bytes.
    private func encode(_ tile: VectorTile, table: MVTPropertyTable) -> ([UInt8], TileEncodingLosses) {
        var losses = TileEncodingLosses()
        var scratch = table.takeScratch()
        var layer = ProtobufWriter()
        layer.varintField(15, 2)                                   // version
        layer.stringField(1, layerName)
        var tags = [UInt32]()
        for (feature, source) in zip(tile.features, tile.propertySources) {
            let geometry = Self.geometry(feature)
            guard !geometry.isEmpty else { continue }
            let entry = table.entries[source]
            losses.nullValuesNotWritten += entry.nullValues
            losses.valuesWrittenAsJSON += entry.jsonValues
            tags.removeAll(keepingCapacity: true)
            var index = 0
            while index + 1 < entry.tags.count {
                tags.append(scratch.key(entry.tags[index]))
                tags.append(scratch.value(entry.tags[index + 1]))
                index += 2
            }
            Self.appendFeature(feature, geometry: geometry, tags: tags, to: &layer, losses: &losses)
        }
        for key in scratch.keys { layer.bytes += table.keyFields[Int(key)] }
        for value in scratch.values { layer.bytes += table.valueFields[Int(value)] }
        scratch.reset()
        table.returnScratch(scratch)
        return (finish(layer, extent: tile.extent), losses)
    }

    /// Layer field 2: one feature's id (when MVT can hold it), tags, type and geometry.
    private static func appendFeature(_ feature: TileFeature, geometry: [UInt32], tags: [UInt32],
                                      to layer: inout ProtobufWriter, losses: inout TileEncodingLosses) {
        var message = ProtobufWriter()
        if let id = feature.id {
            if let unsigned = unsignedID(id) { message.varintField(1, unsigned) } else { losses.idsNotWritten += 1 }
        }
        if !tags.isEmpty { message.packedField(2, tags) }
        message.varintField(3, UInt64(feature.type.rawValue))
        message.packedField(4, geometry)
        layer.bytesField(2, message.bytes)
    }

    /// The layer's extent, and the layer as the tile's field 3.
    private func finish(_ layer: ProtobufWriter, extent: Int) -> [UInt8] {
        var layer = layer
        layer.varintField(5, UInt64(extent))
        var output = ProtobufWriter()
        output.bytesField(3, layer.bytes)
        return output.bytes
    }

    /// An id as MVT's uint64, when it is one (a non-negative integer, or a string of digits
    /// without a leading zero).
    static func unsignedID(_ id: JSONValue) -> UInt64? {
        switch id {
        case .integer(let number): return number >= 0 ? UInt64(number) : nil
        case .number(let number):
            return number >= 0 && number < 1.8e19 && number == number.rounded() ? UInt64(number) : nil
        case .string(let text):
            guard text == "0" || (text.first != "0" && !text.isEmpty) else { return nil }
            return text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) ? UInt64(text) : nil
        default: return nil
        }
    }

    /// The command stream of one feature; empty when nothing drawable is left (a line of one
    /// point, a ring of fewer than three).
    public static func geometry(_ feature: TileFeature) -> [UInt32] {
        var commands = [UInt32]()
        commands.reserveCapacity(feature.xy.count + 2 * feature.ringLengths.count)
        var cursorX: Int64 = 0, cursorY: Int64 = 0
        func command(_ id: UInt32, _ count: Int) -> UInt32 { id & 0x7 | UInt32(count) << 3 }
        func point(_ index: Int) {
            let x = Int64(feature.xy[2 * index]), y = Int64(feature.xy[2 * index + 1])
            commands.append(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(x - cursorX)))
            commands.append(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(y - cursorY)))
            cursorX = x
            cursorY = y
        }
        var start = 0
        for length in feature.ringLengths {
            defer { start += length }
            switch feature.type {
            case .point:
                commands.append(command(1, length))
                for index in start..<start + length { point(index) }
            case .line:
                guard length >= 2 else { continue }
                commands.append(command(1, 1))
                point(start)
                commands.append(command(2, length - 1))
                for index in start + 1..<start + length { point(index) }
            case .polygon:
                // MVT closes rings with ClosePath: the repeated first point is not written.
                var count = length
                if count > 1 && feature.xy[2 * start] == feature.xy[2 * (start + count - 1)]
                    && feature.xy[2 * start + 1] == feature.xy[2 * (start + count - 1) + 1] { count -= 1 }
                guard count >= 3 else { continue }
                commands.append(command(1, 1))
                point(start)
                commands.append(command(2, count - 1))
                for index in start + 1..<start + count { point(index) }
                commands.append(command(7, 1))
            }
        }
        return commands
    }
}

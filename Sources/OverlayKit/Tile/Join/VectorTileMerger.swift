import OverlayModel

/// Merges the decoded tiles of one z/x/y into one tile, as tippecanoe's `tile-join` does: layers
/// with the same name (after renaming) become one layer whose key and value tables are the
/// deduplicated union of theirs, with every feature's tags renumbered; geometry bytes are copied
/// unchanged unless extents differ.
public struct VectorTileMerger: Sendable {
    /// What to keep, rename and drop.
    public struct Options: Hashable, Sendable {
        /// Layer renames, old name → new name (`--rename-layer OLD:NEW`), applied before merging.
        public var renamedLayers: [String: String] = [:]
        /// When not nil, only these layers (names before renaming) are kept (`--layer`).
        public var onlyLayers: Set<String>?
        /// Layers (names before renaming) left out (`--exclude-layer`).
        public var excludedLayers: Set<String> = []
        /// When not nil, only these properties are kept (`--include`).
        public var includedProperties: Set<String>?
        /// Properties left out (`--exclude`).
        public var excludedProperties: Set<String> = []
        /// Same-named layers with different extents: rescale geometry to the largest extent
        /// (exact when the extents differ by a power of two; otherwise rounded to the nearest
        /// unit), or refuse with `tilejoin.extent-mismatch` when false.
        public var rescaleExtents = true

        /// Keeps everything.
        public init() {}

        /// The output name of a layer, or nil when it is left out.
        public func outputName(of layer: String) -> String? {
            if let onlyLayers, !onlyLayers.contains(layer) { return nil }
            if excludedLayers.contains(layer) { return nil }
            return renamedLayers[layer] ?? layer
        }

        /// Whether a property survives `--include`/`--exclude`.
        public func keeps(property key: String) -> Bool {
            if excludedProperties.contains(key) { return false }
            if let includedProperties { return includedProperties.contains(key) }
            return true
        }
    }

    /// How to merge.
    public var options: Options

    /// Creates a merger.
    public init(options: Options = Options()) { self.options = options }

    /// Value identity by bit pattern, so -0.0 and 0.0 (or 1 as int and as uint) stay distinct
    /// and NaN deduplicates.
    private enum ValueKey: Hashable {
        case string(String), float(UInt32), double(UInt64), int(Int64), uint(UInt64), sint(Int64), bool(Bool)

        init(_ value: MVTValue) {
            switch value {
            case .string(let text): self = .string(text)
            case .float(let number): self = .float(number.bitPattern)
            case .double(let number): self = .double(number.bitPattern)
            case .int(let number): self = .int(number)
            case .uint(let number): self = .uint(number)
            case .sint(let number): self = .sint(number)
            case .bool(let flag): self = .bool(flag)
            }
        }
    }

    /// One output layer being filled.
    private struct LayerBuilder {
        var layer: MVTLayer
        var keyIndex = [String: UInt32]()
        var valueIndex = [ValueKey: UInt32]()

        mutating func key(_ key: String) -> UInt32 {
            if let known = keyIndex[key] { return known }
            let index = UInt32(layer.keys.count)
            keyIndex[key] = index
            layer.keys.append(key)
            return index
        }

        mutating func value(_ value: MVTValue) -> UInt32 {
            let identity = ValueKey(value)
            if let known = valueIndex[identity] { return known }
            let index = UInt32(layer.values.count)
            valueIndex[identity] = index
            layer.values.append(value)
            return index
        }
    }

    /// Merges the layers of several tiles of the same z/x/y (in input order); output layers are
    /// in order of first appearance, features in input order. Layers left with no features
    /// are not written.
    /// - Throws: `Diagnostic` `tilejoin.extent-mismatch` (only when `rescaleExtents` is off) or
    ///   `mvt.bad-tile` when geometry to rescale is malformed.
    public func merge(_ tiles: [[MVTLayer]]) throws -> [MVTLayer] {
        var extents = [String: UInt32]()
        for layer in tiles.joined() {
            guard let name = options.outputName(of: layer.name) else { continue }
            if let known = extents[name], known != layer.extent {
                guard options.rescaleExtents else {
                    throw Diagnostic(.error, code: .tilejoinExtentMismatch,
                                     message: "layer \(name) has extent \(known) in one input and \(layer.extent) in another")
                }
                extents[name] = max(known, layer.extent)
            } else if extents[name] == nil {
                extents[name] = layer.extent
            }
        }
        var order = [String](), builders = [String: LayerBuilder]()
        for layer in tiles.joined() {
            guard let name = options.outputName(of: layer.name), let extent = extents[name] else { continue }
            var builder = builders[name] ?? {
                order.append(name)
                return LayerBuilder(layer: MVTLayer(name: name, version: 2, extent: extent))
            }()
            // Renumber each input key and value once per layer, not once per tag.
            var keyMap = [UInt32?](repeating: nil, count: layer.keys.count)
            var valueMap = [UInt32?](repeating: nil, count: layer.values.count)
            for feature in layer.features {
                var output = feature
                output.tags.removeAll(keepingCapacity: true)
                for position in stride(from: 0, to: feature.tags.count - 1, by: 2) {
                    let key = Int(feature.tags[position]), value = Int(feature.tags[position + 1])
                    guard key < layer.keys.count, value < layer.values.count, options.keeps(property: layer.keys[key]) else { continue }
                    let newKey = keyMap[key] ?? builder.key(layer.keys[key])
                    keyMap[key] = newKey
                    let newValue = valueMap[value] ?? builder.value(layer.values[value])
                    valueMap[value] = newValue
                    output.tags.append(newKey)
                    output.tags.append(newValue)
                }
                if layer.extent != extent {
                    output.geometryBytes = try Self.rescale(feature.geometryBytes, from: layer.extent, to: extent)
                }
                builder.layer.features.append(output)
            }
            builders[name] = builder
        }
        return order.compactMap { builders[$0]?.layer }.filter { !$0.features.isEmpty }
    }

    /// Geometry commands with every absolute position multiplied by `to / from`, rounded to the
    /// nearest unit.
    static func rescale(_ bytes: [UInt8], from: UInt32, to: UInt32) throws -> [UInt8] {
        let commands = try MVTFeature(id: nil, type: 0, tags: [], geometryBytes: bytes).geometry()
        var output = ProtobufWriter()
        var index = 0
        var cursorX: Int64 = 0, cursorY: Int64 = 0, outX: Int64 = 0, outY: Int64 = 0
        func scaled(_ value: Int64) throws -> Int64 {
            let (product, overflow) = value.multipliedReportingOverflow(by: Int64(to))
            guard !overflow else { throw ProtobufReader.failure("a coordinate overflows when rescaled") }
            let quotient = Double(product) / Double(from)
            return Int64(quotient.rounded())
        }
        while index < commands.count {
            let command = commands[index]
            index += 1
            output.varint(UInt64(command))
            let id = command & 7, count = Int(command >> 3)
            guard id == 1 || id == 2 else { continue }
            guard count <= (commands.count - index) / 2 else { throw ProtobufReader.failure("geometry command runs past its end") }
            for _ in 0..<count {
                let dx = Self.unzigzag(commands[index]), dy = Self.unzigzag(commands[index + 1])
                index += 2
                cursorX &+= dx
                cursorY &+= dy
                let x = try scaled(cursorX), y = try scaled(cursorY)
                output.varint(UInt64(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(x &- outX))))
                output.varint(UInt64(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(y &- outY))))
                outX = x
                outY = y
            }
        }
        return output.bytes
    }

    static func unzigzag(_ value: UInt32) -> Int64 { Int64(value >> 1) ^ -Int64(value & 1) }

    /// The protobuf bytes of a tile holding these layers, fields in the order `MVTEncoder`
    /// writes them, so one unchanged tile re-encodes to the same bytes.
    public static func encode(_ layers: [MVTLayer]) -> [UInt8] {
        var output = ProtobufWriter()
        for layer in layers {
            var message = ProtobufWriter()
            message.varintField(15, layer.version)
            message.stringField(1, layer.name)
            for feature in layer.features {
                var featureMessage = ProtobufWriter()
                if let id = feature.id { featureMessage.varintField(1, id) }
                if !feature.tags.isEmpty { featureMessage.packedField(2, feature.tags) }
                featureMessage.varintField(3, feature.type)
                featureMessage.bytesField(4, feature.geometryBytes)
                message.bytesField(2, featureMessage.bytes)
            }
            for key in layer.keys { message.stringField(3, key) }
            for value in layer.values {
                var valueMessage = ProtobufWriter()
                switch value {
                case .string(let text): valueMessage.stringField(1, text)
                case .float(let number):
                    valueMessage.varint(2 << 3 | 5)   // field 2, wire type fixed32
                    var bits = number.bitPattern
                    for _ in 0..<4 {
                        valueMessage.bytes.append(UInt8(truncatingIfNeeded: bits))
                        bits >>= 8
                    }
                case .double(let number): valueMessage.doubleField(3, number)
                case .int(let number): valueMessage.varintField(4, UInt64(bitPattern: number))
                case .uint(let number): valueMessage.varintField(5, number)
                case .sint(let number): valueMessage.varintField(6, ProtobufWriter.zigzag(number))
                case .bool(let flag): valueMessage.varintField(7, flag ? 1 : 0)
                }
                message.bytesField(4, valueMessage.bytes)
            }
            message.varintField(5, UInt64(layer.extent))
            output.bytesField(3, message.bytes)
        }
        return output.bytes
    }
}

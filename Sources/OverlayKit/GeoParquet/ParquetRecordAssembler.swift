import OverlayModel

/// Puts nested values back together from their leaves' levels (Dremel record assembly): one
/// JSON value per row for a top-level field, lists as arrays, structs as objects, maps as
/// objects keyed by the map's keys, a missing value as null.
struct ParquetRecordAssembler {
    /// The decoded chunks of the leaves, by leaf index (nil for the leaves of fields not read):
    /// an array, not a dictionary, since every value read looks its chunk up (hashing a leaf
    /// index per value cost more than the value).
    /// Each behind a reference, so a lookup copies a pointer, not the chunk's many arrays (a
    /// copy and a release of `ParquetValues` per value read cost as much as decoding it).
    private var chunks: [Chunk?]
    private final class Chunk {
        let data: ColumnChunkData
        init(_ data: ColumnChunkData) { self.data = data }
    }
    /// Per leaf: the next entry and the next present value.
    private var entry: [Int]
    private var valueIndex: [Int]
    private let leaves: [ParquetLeaf]

    /// An assembler over decoded chunks.
    init(chunks: [Int: ColumnChunkData], leaves: [ParquetLeaf]) {
        var byLeaf = [Chunk?](repeating: nil, count: leaves.count)
        for (leaf, chunk) in chunks where byLeaf.indices.contains(leaf) { byLeaf[leaf] = Chunk(chunk) }
        self.chunks = byLeaf
        self.leaves = leaves
        entry = [Int](repeating: 0, count: leaves.count)
        valueIndex = [Int](repeating: 0, count: leaves.count)
    }

    /// The next row's value of `field`.
    mutating func next(_ field: ParquetSchemaTree.Node) throws -> JSONValue {
        try read(field)
    }

    /// The next row's bytes of a top-level binary leaf (nil when null), without a JSON value.
    mutating func nextBytes(_ field: ParquetSchemaTree.Node) throws -> ArraySlice<UInt8>? {
        guard let (_, definition) = try peek(field) else {
            throw ParquetDecodingFailure(reason: "column \(field.element.name) has fewer values than the row group's rows")
        }
        let leaf = field.leafRange.lowerBound
        entry[leaf] += 1
        guard definition >= field.definitionLevel else { return nil }
        let index = valueIndex[leaf]
        valueIndex[leaf] = index + 1
        guard chunks.indices.contains(leaf), let chunk = chunks[leaf], index < chunk.data.values.count,
              chunk.data.values.ends.count == chunk.data.values.count else {
            throw ParquetDecodingFailure(reason: "column \(field.element.name) has fewer values than its levels place")
        }
        return chunk.data.values.byteArray(index)
    }

    /// The leaf at which a node's presence is decided: its first leaf.
    private func peek(_ node: ParquetSchemaTree.Node) throws -> (repetition: Int, definition: Int)? {
        let leaf = node.leafRange.lowerBound
        guard chunks.indices.contains(leaf), let chunk = chunks[leaf] else { throw ParquetDecodingFailure(reason: "column \(leaves[leaf].path.joined(separator: ".")) was not read") }
        let at = entry[leaf]
        guard at < chunk.data.entryCount else { return nil }
        return (chunk.data.repetitions.isEmpty ? 0 : Int(chunk.data.repetitions[at]),
                chunk.data.definitions.isEmpty ? leaves[leaf].maxDefinition : Int(chunk.data.definitions[at]))
    }

    /// Skips one (empty or null) entry of every leaf below `node`.
    private mutating func skip(_ node: ParquetSchemaTree.Node) throws {
        for leaf in node.leafRange {
            let at = entry[leaf]
            guard chunks.indices.contains(leaf), let chunk = chunks[leaf], at < chunk.data.entryCount else {
                throw ParquetDecodingFailure(reason: "column \(leaves[leaf].path.joined(separator: ".")) has fewer values than its siblings")
            }
            entry[leaf] = at + 1
        }
    }

    private mutating func read(_ node: ParquetSchemaTree.Node) throws -> JSONValue {
        if node.element.repetition == .repeated {
            return try readRepeated(node)
        }
        guard let (_, definition) = try peek(node) else {
            throw ParquetDecodingFailure(reason: "column \(node.element.name) has fewer values than the row group's rows")
        }
        if definition < node.definitionLevel {
            try skip(node)
            return .null
        }
        return try readPresent(node)
    }

    /// All instances of a repeated node at this position: an empty array when none.
    private mutating func readRepeated(_ node: ParquetSchemaTree.Node) throws -> JSONValue {
        guard let (_, definition) = try peek(node) else {
            throw ParquetDecodingFailure(reason: "column \(node.element.name) has fewer values than the row group's rows")
        }
        if definition < node.definitionLevel {
            try skip(node)
            return .array([])
        }
        var items = [JSONValue]()
        while true {
            items.append(try readPresent(node))
            guard let (repetition, _) = try peek(node), repetition == node.repetitionLevel else { break }
        }
        return .array(items)
    }

    private mutating func readPresent(_ node: ParquetSchemaTree.Node) throws -> JSONValue {
        if node.children.isEmpty {
            let leaf = node.leafRange.lowerBound
            let at = entry[leaf]
            entry[leaf] = at + 1
            let index = valueIndex[leaf]
            valueIndex[leaf] = index + 1
            guard chunks.indices.contains(leaf), let chunk = chunks[leaf], index < chunk.data.values.count else {
                throw ParquetDecodingFailure(reason: "column \(leaves[leaf].path.joined(separator: ".")) has fewer values than its levels place")
            }
            return ParquetJSONValue.value(chunk.data.values, at: index, element: node.element)
        }
        // A LIST-annotated group (or a MAP) holds one repeated child: its instances are the items.
        if node.children.count == 1, node.children[0].element.repetition == .repeated,
           node.element.logicalType == .list || node.element.logicalType == .map {
            let child = node.children[0]
            guard case .array(let items) = try readRepeated(child) else { return .null }
            if node.element.logicalType == .map {
                var object = JSONObject()
                for item in items {
                    guard case .object(let pair) = item, let key = pair.members.first?.value else { continue }
                    let name: String
                    switch key {
                    case .string(let text): name = text
                    case .integer(let number): name = String(number)
                    default: name = "\(key)"
                    }
                    object.members.append(.init(key: name, value: pair.members.count > 1 ? pair.members[1].value : .null))
                }
                return .object(object)
            }
            if child.children.count == 1 {
                return .array(items.map { item in
                    if case .object(let wrapper) = item, wrapper.members.count == 1 { return wrapper.members[0].value }
                    return item
                })
            }
            return .array(items)
        }
        var object = JSONObject()
        for child in node.children {
            object.members.append(.init(key: child.element.name, value: try read(child)))
        }
        return .object(object)
    }
}

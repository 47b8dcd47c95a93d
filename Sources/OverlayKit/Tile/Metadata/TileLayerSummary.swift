import OverlayModel

/// What a tile set's metadata says of one layer, gathered feature by feature as the input is
/// read: its fields in order of first appearance with their types (`vector_layers`), and how
/// many features of each geometry type it has (tilestats). Summaries of consecutive parts of
/// the input, read apart, merge into what one pass over the whole would give.
package struct TileLayerSummary: Sendable, Codable {
    /// Each field's first appearance (input position, member index) and type.
    private var fields = [String: (position: Int, member: Int, type: String)]()
    /// Features by geometry type's raw value (1 point, 2 line, 3 polygon; 0 unused).
    package private(set) var typeCounts = [0, 0, 0, 0]

    /// No features yet.
    package init() {}

    /// Counts one feature at input position `position`: its properties' fields (every feature)
    /// and its geometry type (the first part's; nil for one with nothing to tile).
    package mutating func add(_ properties: JSONObject?, type: TileGeometryType?, position: Int) {
        if let type { typeCounts[type.rawValue] += 1 }
        guard let properties else { return }
        for (member, field) in properties.enumerated() {
            let type: String
            switch field.value {
            case .null: continue
            case .bool: type = "Boolean"
            case .integer, .number: type = "Number"
            default: type = "String"
            }
            if let known = fields[field.key] {
                if known.type != type { fields[field.key]?.type = "Mixed" }
            } else {
                fields[field.key] = (position, member, type)
            }
        }
    }

    /// Adds what a summary of later features found (their positions moved on by `positionOffset`).
    package mutating func merge(_ later: TileLayerSummary, positionOffset: Int) {
        for index in typeCounts.indices { typeCounts[index] += later.typeCounts[index] }
        for (name, field) in later.fields {
            let moved = (position: field.position + positionOffset, member: field.member, type: field.type)
            if let known = fields[name] {
                let first = (known.position, known.member) <= (moved.position, moved.member) ? known : moved
                fields[name] = (first.position, first.member, known.type == moved.type ? known.type : "Mixed")
            } else {
                fields[name] = moved
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case names, positions, members, types, typeCounts }

    /// Saved as parallel lists (a distributed run's shards hand their summaries to its plan).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let names = fields.keys.sorted()
        try container.encode(names, forKey: .names)
        try container.encode(names.map { fields[$0]!.position }, forKey: .positions)
        try container.encode(names.map { fields[$0]!.member }, forKey: .members)
        try container.encode(names.map { fields[$0]!.type }, forKey: .types)
        try container.encode(typeCounts, forKey: .typeCounts)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let names = try container.decode([String].self, forKey: .names)
        let positions = try container.decode([Int].self, forKey: .positions)
        let members = try container.decode([Int].self, forKey: .members)
        let types = try container.decode([String].self, forKey: .types)
        typeCounts = try container.decode([Int].self, forKey: .typeCounts)
        guard positions.count == names.count, members.count == names.count, types.count == names.count,
              typeCounts.count == 4 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unequal field lists"))
        }
        // Read back from a work file that may have been edited: positions and counts are never negative.
        guard (positions + members + typeCounts).allSatisfy({ $0 >= 0 }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a negative position or count"))
        }
        for index in names.indices { fields[names[index]] = (positions[index], members[index], types[index]) }
    }

    /// The fields in the order first seen, each with its type ("Mixed" when it had several).
    package var orderedFields: [TileSetMetadata.VectorLayer.Field] {
        fields.sorted { ($0.value.position, $0.value.member) < ($1.value.position, $1.value.member) }
            .map { TileSetMetadata.VectorLayer.Field(name: $0.key, type: $0.value.type) }
    }
}

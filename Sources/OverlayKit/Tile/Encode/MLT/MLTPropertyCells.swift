/// The keys and values of an `MVTPropertyTable` as MLT columns take them: key names, and each
/// value number's cell decoded once from its MVT value message, so every tile's columns are
/// filled by array lookups; and tiles' written columns and FSST tables, kept for tiles after.
struct MLTPropertyCells: Sendable {
    /// Key names (UTF-8, as columns write them) by global key number.
    let keys: [[UInt8]]
    /// Cells by global value number.
    let values: [MLTPropertyColumn.Cell]
    /// Tiles' written columns, by their features' entries.
    let kept: MLTKeptColumns
    /// FSST tables, by the texts they were trained on.
    let fsstTables = MLTFSSTTables()

    init(keyFields: [[UInt8]], valueFields: [[UInt8]], entryCount: Int) {
        kept = MLTKeptColumns(entryCount: entryCount)
        // Each field is tag, length, payload; a value's payload is one field of MVT's Value message.
        func payload(_ field: [UInt8]) -> ArraySlice<UInt8> {
            var reader = ProtobufReader(field[...])
            _ = try? reader.tag()
            return (try? reader.lengthDelimited()) ?? []
        }
        keys = keyFields.map { Array(payload($0)) }
        values = valueFields.map { field in
            var reader = ProtobufReader(payload(field))
            guard let (number, wireType) = try? reader.tag() else { return .text([]) }
            switch (number, wireType) {
            case (1, 2): return .text(Array((try? reader.lengthDelimited()) ?? []))
            case (3, 1): return .double(Double(bitPattern: (try? reader.fixed64()) ?? 0))
            case (5, 0): return .integer(Int64(bitPattern: (try? reader.varint()) ?? 0))
            case (6, 0): return .integer(MLTWire.unzigzag((try? reader.varint()) ?? 0))
            case (7, 0): return .bool(((try? reader.varint()) ?? 0) != 0)
            default: return .text([])
            }
        }
    }
}

extension MVTPropertyTable {
    /// The keys and values as MLT columns take them, decoded on first use (MLT runs only).
    var mltCells: MLTPropertyCells {
        derived { MLTPropertyCells(keyFields: $0.keyFields, valueFields: $0.valueFields, entryCount: $0.entries.count) }
    }
}

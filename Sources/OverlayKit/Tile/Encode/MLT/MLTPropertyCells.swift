/// The keys and values of an `MVTPropertyTable` as MLT columns take them: key names, and each
/// value number's cell decoded once from its MVT value message, so every tile's columns are
/// filled by array lookups.
struct MLTPropertyCells: Sendable {
    /// Key names by global key number.
    let keys: [String]
    /// Cells by global value number.
    let values: [MLTPropertyColumn.Cell]

    init(keyFields: [[UInt8]], valueFields: [[UInt8]]) {
        // Each field is tag, length, payload; a value's payload is one field of MVT's Value message.
        func payload(_ field: [UInt8]) -> ArraySlice<UInt8> {
            var reader = ProtobufReader(field[...])
            _ = try? reader.tag()
            return (try? reader.lengthDelimited()) ?? []
        }
        keys = keyFields.map { String(decoding: payload($0), as: UTF8.self) }
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

/// What the MLT encoder derives once from a run's property table and keeps with it: the keys
/// and values as MLT columns take them, and an FSST table per text key.
final class MLTRunTables: @unchecked Sendable {
    /// The table's keys and values as MLT cells.
    let cells: MLTPropertyCells
    private let entries: [MVTPropertyTable.Entry]
    private let lock = NSLock()
    /// FSST tables by key number, trained on first use (nil: the key's sample has too little text).
    private var stringTables = [Int: MLTFSST?]()

    init(_ table: MVTPropertyTable) {
        cells = MLTPropertyCells(keyFields: table.keyFields, valueFields: table.valueFields)
        entries = table.entries
    }

    /// An FSST table for the text values of key number `key`, trained once on a sample of
    /// them (every tile's string column of that key compresses with it, cut to the symbols the
    /// tile uses, instead of training a table per tile); nil when the sample holds under 256
    /// bytes of text. The sample is the distinct text values of evenly spaced features, so the
    /// table does not depend on which tile asks first.
    func stringTable(key: Int) -> MLTFSST? {
        lock.lock()
        defer { lock.unlock() }
        if let known = stringTables[key] { return known }
        var sample = [[UInt8]](), seen = Set<UInt32>(), bytes = 0
        let step = max(1, entries.count / Self.sampledFeatures)
        var index = 0
        while index < entries.count && bytes < Self.sampledTextBytes {
            let tags = entries[index].tags
            var tag = 0
            while tag + 1 < tags.count {
                if Int(tags[tag]) == key, case .text(let text) = cells.values[Int(tags[tag + 1])],
                   seen.insert(tags[tag + 1]).inserted {
                    sample.append(text)
                    bytes += text.count
                }
                tag += 2
            }
            index += step
        }
        var table: MLTFSST?
        if bytes >= 256 {
            let trained = MLTFSST(training: sample)
            if !trained.symbolLengths.isEmpty { table = trained }
        }
        stringTables[key] = .some(table)
        return table
    }

    /// Features and bytes of text a key's FSST table is trained from, at most.
    private static let sampledFeatures = 4096, sampledTextBytes = 32 * 1024
}

extension MVTPropertyTable {
    /// What MLT derives from the table, made on first use (MLT runs only).
    var mltRunTables: MLTRunTables { derived { MLTRunTables($0) } }
    /// The keys and values as MLT columns take them.
    var mltCells: MLTPropertyCells { mltRunTables.cells }
    /// The run's FSST table for the text values of key number `key` (see `MLTRunTables`).
    func mltStringTable(key: Int) -> MLTFSST? { mltRunTables.stringTable(key: key) }
}

import Foundation
import OverlayModel

/// Every input feature's properties encoded for MVT once, before tiling: each distinct key and
/// value becomes its layer field bytes (tag, length, payload) under a global number, and each
/// feature a list of (key, value) numbers. A tile then only renumbers: global numbers map to the
/// tile's own in first-use order through an array, with no hashing of properties per tile
/// (each country carries ~160 properties, and a feature reaches many tiles).
///
/// Keys and values are told apart by their encoded bytes, so two strings that Swift considers
/// equal but that are spelled differently (composed and decomposed accents) stay distinct and
/// each feature keeps its own spelling.
final class MVTPropertyTable: @unchecked Sendable {
    /// One feature's properties: global (key, value) numbers interleaved, in property order,
    /// and what MVT cannot hold.
    struct Entry: Sendable {
        var tags: [UInt32] = []
        /// Properties with a null value (not written).
        var nullValues = 0
        /// Object or array values (written as JSON text).
        var jsonValues = 0
    }

    /// Layer field 3 (key) for each global key number.
    let keyFields: [[UInt8]]
    /// Layer field 4 (value message) for each global value number.
    let valueFields: [[UInt8]]
    /// By input position (`TileSource.attributes`' order).
    let entries: [Entry]

    private let lock = NSLock()
    private var spareScratches = [Scratch]()
    private var cells: MLTPropertyCells?
    /// FSST tables by key number, trained on first use (nil: the key's sample has too little text).
    private var stringTables = [Int: MLTFSST?]()

    /// The keys and values as MLT columns take them, decoded on first use (MLT runs only).
    var mltCells: MLTPropertyCells {
        lock.lock()
        defer { lock.unlock() }
        if let cells { return cells }
        let built = MLTPropertyCells(keyFields: keyFields, valueFields: valueFields)
        cells = built
        return built
    }

    /// An FSST table for the text values of key number `key`, trained once on a sample of
    /// them (every tile's string column of that key compresses with it, cut to the symbols the
    /// tile uses, instead of training a table per tile); nil when the sample holds under 256
    /// bytes of text. The sample is the distinct text values of evenly spaced features, so the
    /// table does not depend on which tile asks first.
    func mltStringTable(key: Int) -> MLTFSST? {
        let cells = mltCells
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

    init(_ attributes: [TileAttributes]) {
        var keyNumbers = [[UInt8]: UInt32](), valueNumbers = [[UInt8]: UInt32]()
        var keyFields = [[UInt8]](), valueFields = [[UInt8]]()
        var entries = [Entry]()
        entries.reserveCapacity(attributes.count)
        for attribute in attributes {
            var entry = Entry()
            // A feature's tags name each key once: a repeated name is renamed (`name_2`, the
            // one rule of `JSONObject.renameDuplicateKeys`), never written twice.
            var properties = attribute.properties ?? JSONObject()
            properties.renameDuplicateKeys()
            for member in properties {
                var value = ProtobufWriter()
                switch member.value {
                case .null:
                    entry.nullValues += 1
                    continue
                case .bool(let flag): value.varintField(7, flag ? 1 : 0)
                case .integer(let number):
                    if number >= 0 { value.varintField(5, UInt64(number)) } else { value.varintField(6, ProtobufWriter.zigzag(number)) }
                case .number(let number): value.doubleField(3, number)
                case .string(let text): value.stringField(1, text)
                case .array, .object:
                    entry.jsonValues += 1
                    var json = JSONBytes()
                    json.appendValue(member.value)
                    value.stringField(1, String(decoding: json.bytes, as: UTF8.self))
                }
                var keyField = ProtobufWriter()
                keyField.stringField(3, member.key)
                var valueField = ProtobufWriter()
                valueField.bytesField(4, value.bytes)
                let key: UInt32
                if let known = keyNumbers[keyField.bytes] { key = known } else {
                    key = UInt32(keyFields.count)
                    keyNumbers[keyField.bytes] = key
                    keyFields.append(keyField.bytes)
                }
                let valueNumber: UInt32
                if let known = valueNumbers[valueField.bytes] { valueNumber = known } else {
                    valueNumber = UInt32(valueFields.count)
                    valueNumbers[valueField.bytes] = valueNumber
                    valueFields.append(valueField.bytes)
                }
                entry.tags.append(key)
                entry.tags.append(valueNumber)
            }
            entries.append(entry)
        }
        self.keyFields = keyFields
        self.valueFields = valueFields
        self.entries = entries
    }

    /// The table of the parts' attributes one after another, joined from each part's own table:
    /// keys and values new in a part are numbered after those of earlier parts in the part's
    /// first-use order, which is the whole input's first-use order, so the result equals the
    /// table built from all the attributes at once. O(distinct keys and values + tags).
    init(joining parts: [MVTPropertyTable]) {
        var keyNumbers = [[UInt8]: UInt32](), valueNumbers = [[UInt8]: UInt32]()
        var keyFields = [[UInt8]](), valueFields = [[UInt8]]()
        var entries = [Entry]()
        entries.reserveCapacity(parts.reduce(0) { $0 + $1.entries.count })
        func number(_ fields: [[UInt8]], _ numbers: inout [[UInt8]: UInt32], _ all: inout [[UInt8]]) -> [UInt32] {
            fields.map { field in
                if let known = numbers[field] { return known }
                let next = UInt32(all.count)
                numbers[field] = next
                all.append(field)
                return next
            }
        }
        for part in parts {
            let keys = number(part.keyFields, &keyNumbers, &keyFields)
            let values = number(part.valueFields, &valueNumbers, &valueFields)
            for var entry in part.entries {
                for index in stride(from: 0, to: entry.tags.count, by: 2) {
                    entry.tags[index] = keys[Int(entry.tags[index])]
                    entry.tags[index + 1] = values[Int(entry.tags[index + 1])]
                }
                entries.append(entry)
            }
        }
        self.keyFields = keyFields
        self.valueFields = valueFields
        self.entries = entries
    }

    /// Per-tile renumbering: global number → the tile's number (`UInt32.max` when unused), and
    /// the global numbers in the tile's order, so resetting costs only what the tile used.
    struct Scratch {
        var tileKey: [UInt32]
        var tileValue: [UInt32]
        var keys = [UInt32]()
        var values = [UInt32]()

        init(keys: Int, values: Int) {
            tileKey = [UInt32](repeating: .max, count: keys)
            tileValue = [UInt32](repeating: .max, count: values)
        }

        /// The tile's number for global key `key`, given one when first used.
        @inline(__always)
        mutating func key(_ key: UInt32) -> UInt32 {
            let known = tileKey[Int(key)]
            if known != .max { return known }
            let number = UInt32(keys.count)
            tileKey[Int(key)] = number
            keys.append(key)
            return number
        }

        /// The tile's number for global value `value`, given one when first used.
        @inline(__always)
        mutating func value(_ value: UInt32) -> UInt32 {
            let known = tileValue[Int(value)]
            if known != .max { return known }
            let number = UInt32(values.count)
            tileValue[Int(value)] = number
            values.append(value)
            return number
        }

        mutating func reset() {
            for key in keys { tileKey[Int(key)] = .max }
            for value in values { tileValue[Int(value)] = .max }
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
    }

    /// A clean scratch (one per concurrent tile; reused, since allocating one per tile would
    /// cost as much as the hashing it replaces).
    func takeScratch() -> Scratch {
        lock.lock()
        defer { lock.unlock() }
        return spareScratches.popLast() ?? Scratch(keys: keyFields.count, values: valueFields.count)
    }

    /// Gives a scratch back for the next tile; the caller has `reset()` it (while it still held
    /// the only reference, so the reset does not copy the arrays).
    func returnScratch(_ scratch: Scratch) {
        lock.lock()
        spareScratches.append(scratch)
        lock.unlock()
    }
}

import Foundation
import OverlayModel

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

import Foundation

/// FSST tables already trained, by the sample they were trained on: a table is a function of
/// its sample alone (`MLTFSST.sample`), and the same texts come back in tile after tile that
/// are not the same features — a state's polygon alone in one tile and with its label point
/// in the next, or two states' descriptions in either order's first tile. Output is unchanged:
/// a table kept is the table training would make again.
///
/// Bounded: keeping stops once 4 MB of samples and tables are kept (a building tile set's
/// names differ in every tile, so its tables fill the cache and are never asked for again).
final class MLTFSSTTables: @unchecked Sendable {
    private static let maximumBytes = 4 << 20
    private let lock = NSLock()
    private var kept = [[[UInt8]]: MLTFSST]()
    private var keptBytes = 0

    init() {}

    /// The table trained on `strings`: a kept one, or a new one (kept while there is room).
    func table(training strings: [[UInt8]]) -> MLTFSST {
        let sample = MLTFSST.sample(strings)
        lock.lock()
        if let table = kept[sample] {
            lock.unlock()
            return table
        }
        let keep = keptBytes < Self.maximumBytes
        lock.unlock()
        let table = MLTFSST(trainingSample: sample)
        guard keep else { return table }
        lock.lock()
        if kept[sample] == nil {
            kept[sample] = table
            keptBytes += sample.reduce(0) { $0 + $1.count + 32 } + 32 * table.symbolLengths.count + 640
        }
        lock.unlock()
        return table
    }
}

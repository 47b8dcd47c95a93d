import Foundation

/// Lets one thread at a time hold a heavy tile: one with at least ``features`` features while
/// it is built, fitted to its budget and encoded.
///
/// A heavy tile is most of a run's memory while it is built (its features, the encoder's key and
/// value tables, the reduced copies the budget makes): on the densest inputs every thread would
/// otherwise hold one, and the peak would follow the thread count times the densest tile. A
/// thread that reaches the gate while another holds it waits there with what it has read so
/// far; the other threads' light tiles go on. Nothing about a tile depends on the gate.
final class HeavyTileGate: @unchecked Sendable {
    /// Features from which a tile is heavy (a tile of points holds up to twice the feature limit
    /// while its points stream in: 400,000 with tippecanoe's default of 200,000).
    static let features = 1 << 16

    private let condition = NSCondition()
    private var held = false

    /// Waits until no other thread holds a heavy tile, then holds it.
    func enter() {
        condition.lock()
        while held { condition.wait() }
        held = true
        condition.unlock()
    }

    /// Lets the next heavy tile in.
    func leave() {
        condition.lock()
        held = false
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` holding the gate when `heavy`, else at once.
    func run<Result>(heavy: Bool, _ body: () throws -> Result) rethrows -> Result {
        guard heavy else { return try body() }
        enter()
        defer { leave() }
        return try body()
    }
}

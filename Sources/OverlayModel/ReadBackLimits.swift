/// Bounds on what a run reads back from files an earlier step wrote (a distributed run's work
/// files): such a file may have been edited, damaged or made elsewhere, so its numbers are
/// checked before they are added up or used as sizes. Counts stay far below `Int`'s range, so
/// a plan joining up to ``shards`` shards adds them without overflow.
package enum ReadBackLimits {
    /// The largest count a work file may hold: 2^40 (a trillion features, tiles or bytes).
    package static let count = 1 << 40
    /// The most shards a plan joins: 2^20, so their counts add up below 2^60.
    package static let shards = 1 << 20
    /// The largest magnitude of a 128-bit fixed-point sum a work file may hold (2^100).
    package static let wideSum = Int128(1) << 100

    /// Nil when `value` is a count a work file may hold (0…``count``), else why not.
    package static func countProblem(_ value: Int, _ name: String) -> String? {
        (0...count).contains(value) ? nil : "\(name) is \(value), not a count (0…2^40)"
    }
}

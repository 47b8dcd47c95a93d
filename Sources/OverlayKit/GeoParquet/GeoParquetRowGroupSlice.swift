/// One of `count` consecutive slices of a GeoParquet input's row groups (all files of a folder
/// taken in path order), for a worker that reads a shard of it (`tile-job split --row-groups
/// K/N`): slice `index` holds row groups `index·G/count ..< (index+1)·G/count` of `G`, so the
/// slices, read in order, are the whole input in order.
public struct GeoParquetRowGroupSlice: Sendable, Equatable {
    /// The slice's number, from 0.
    public let index: Int
    /// How many slices the row groups are cut into.
    public let count: Int

    /// The most slices (a bound on hostile input).
    public static let maxCount = 1 << 20

    /// Slice `index` of `count`.
    /// - Parameters:
    ///   - index: the slice's number, 0 ..< `count`.
    ///   - count: the number of slices, 1 … ``maxCount``.
    /// - Returns: nil when `index` or `count` is out of range.
    public init?(index: Int, count: Int) {
        guard (1...Self.maxCount).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    /// - Parameter text: the slice as `K/N`, K from 0.
    /// - Returns: nil when the text is not two numbers in range.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// The positions, among `total` row groups, this slice holds.
    /// - Parameter total: how many row groups the input has.
    /// - Returns: a range of positions.
    public func range(ofTotal total: Int) -> Range<Int> {
        // total ≤ Int.max >> 20 in any real file; the products cannot overflow below it.
        let total = min(max(0, total), Int.max >> 21)
        return (index * total / count)..<((index + 1) * total / count)
    }
}

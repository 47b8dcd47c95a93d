import Foundation

/// How far a reader is through its input: the bytes read so far and, for a regular file, the
/// file's size — what a progress line makes a percentage of (`FeatureReader.readPosition`).
public struct ReadPosition: Hashable, Sendable {
    /// Bytes read so far.
    public var bytesRead: Int
    /// The input's size, when known (a regular file); nil for a pipe or standard input.
    public var totalBytes: Int?

    /// `bytesRead` of `totalBytes`.
    /// - Parameters:
    ///   - bytesRead: bytes read so far.
    ///   - totalBytes: the input's size, nil when unknown.
    public init(bytesRead: Int, totalBytes: Int?) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }
}

/// Bytes and features several threads read of one input, summed under a lock (the parts of a
/// GeoJSON text sequence read side by side), each reader reporting its own counts.
final class SharedReadPosition: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [(bytes: Int, features: Int)]
    private let bytesBefore: Int, totalBytes: Int?, featuresBefore: Int
    private let onRead: @Sendable (ReadPosition, Int) -> Void

    /// A position over `readers` readers of an input, after `bytesBefore` bytes and
    /// `featuresBefore` features of earlier inputs, out of `totalBytes`, reported to `onRead`.
    init(readers: Int, bytesBefore: Int, totalBytes: Int?, featuresBefore: Int,
         onRead: @escaping @Sendable (ReadPosition, Int) -> Void) {
        counts = [(bytes: Int, features: Int)](repeating: (0, 0), count: readers)
        self.bytesBefore = bytesBefore
        self.totalBytes = totalBytes
        self.featuresBefore = featuresBefore
        self.onRead = onRead
    }

    /// Reader `index` has read `bytes` and `features` of its part; `onRead` hears the sums.
    func update(_ index: Int, bytes: Int, features: Int) {
        lock.lock()
        counts[index] = (bytes, features)
        let position = ReadPosition(bytesRead: bytesBefore + counts.reduce(0) { $0 + $1.bytes }, totalBytes: totalBytes)
        let read = featuresBefore + counts.reduce(0) { $0 + $1.features }
        lock.unlock()
        onRead(position, read)
    }
}

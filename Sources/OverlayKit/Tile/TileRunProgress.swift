import Dispatch

/// How far a `Tiler` run is, as its `onProgress` hears it: first the inputs being read (bytes
/// of their sizes, features), then tiles being written out of about how many the features reach
/// (`TileSource.estimatedTiles`, counted once reading is done), so a status line can say a
/// percentage and the time left in both stages.
public struct TileRunProgress: Hashable, Sendable {
    /// What the run is doing.
    public enum Stage: Hashable, Sendable {
        /// Reading and projecting the inputs.
        case reading
        /// Cutting and writing tiles.
        case writing
    }

    /// What the run is doing.
    public var stage: Stage
    /// Features read so far (all of them once writing).
    public var featuresRead = 0
    /// The inputs' bytes read and their size, when the readers say (nil otherwise).
    public var position: ReadPosition?
    /// Tiles written so far, in all and per zoom.
    public var written = TileWriteCounts()
    /// About how many tiles the run writes (every tile the features reach over the zooms; a
    /// solid block's tiles count each), once reading is done.
    public var expectedTiles: Double?
    /// Seconds since the stage began, for the time left.
    public var secondsInStage = 0.0

    /// A report of `stage`.
    /// - Parameter stage: what the run is doing.
    public init(stage: Stage) { self.stage = stage }

    /// The part of the stage done, 0…1: bytes of the inputs' size while reading, tiles of the
    /// expected while writing (capped at 1: the estimate may fall short); nil when unknown.
    public var fractionOfStage: Double? {
        switch stage {
        case .reading:
            guard let position, let total = position.totalBytes, total > 0 else { return nil }
            return min(1, Double(position.bytesRead) / Double(total))
        case .writing:
            guard let expectedTiles, expectedTiles > 0 else { return nil }
            return min(1, Double(written.tiles) / expectedTiles)
        }
    }

    /// Seconds since `start` (a `DispatchTime` uptime in nanoseconds).
    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }
}

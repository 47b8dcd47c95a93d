import Dispatch

/// How far `TileSet.inspect` is through a set's tiles: first listing its runs (a PMTiles
/// directory's entries, or every tile of a folder or MBTiles file), then reading each run's
/// stored tile once — what `info TILESET --progress` turns into a percentage and the time left.
public struct TileSetScanProgress: Hashable, Sendable {
    /// The runs to read, nil while they are being listed.
    public var runs: Int?
    /// Runs read so far.
    public var runsRead = 0
    /// Tiles those runs stand for.
    public var tilesCounted = 0
    /// Seconds since the scan began.
    public var seconds = 0.0

    /// The part of the runs read, 0…1; nil while they are being listed.
    public var fraction: Double? {
        guard let runs else { return nil }
        return runs == 0 ? 1 : Double(runsRead) / Double(runs)
    }

    /// Seconds since `start`, a `DispatchTime` uptime in nanoseconds.
    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }
}

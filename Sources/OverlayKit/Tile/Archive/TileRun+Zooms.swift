import OverlayModel

extension TileRun {
    /// The part of a range of tile ids at one zoom.
    public struct ZoomSpan: Hashable, Sendable {
        /// The zoom.
        public var zoom: Int
        /// The first tile id of the part.
        public var firstID: UInt64
        /// Tiles in the part.
        public var count: UInt64
    }

    /// The zoom of tile id `id` (nil from ``endOfIDs`` on). O(zoom).
    public static func zoom(ofID id: UInt64) -> Int? {
        guard id < endOfIDs else { return nil }
        var zoom = 0
        while PMTiles.firstID(ofZoom: zoom + 1) <= id { zoom += 1 }
        return zoom
    }

    /// The ids from `firstID` up to (not including) `endID`, zoom by zoom: tile ids are
    /// contiguous per zoom (zoom z holds the 4^z ids from (4^z − 1) / 3 on), so a range splits
    /// where a zoom's ids end, and each part is counted by a subtraction. Ids from
    /// ``endOfIDs`` on are left out. O(zooms spanned), whatever the range's length.
    /// - Parameters:
    ///   - firstID: the range's first tile id.
    ///   - endID: the id after the range's last.
    public static func zoomSpans(from firstID: UInt64, to endID: UInt64) -> [ZoomSpan] {
        var spans = [ZoomSpan]()
        guard firstID < endID, var zoom = Self.zoom(ofID: firstID) else { return spans }
        var start = firstID
        while start < endID && zoom <= deepestZoom {
            let stop = min(endID, PMTiles.firstID(ofZoom: zoom + 1))
            spans.append(ZoomSpan(zoom: zoom, firstID: start, count: stop - start))
            start = stop
            zoom += 1
        }
        return spans
    }

    /// The run's tiles zoom by zoom (``zoomSpans(from:to:)``).
    public var zoomSpans: [ZoomSpan] { Self.zoomSpans(from: firstID, to: endID) }
}

import OverlayModel

/// Whether a feature is drawn at a zoom, read from its own tags (`FeatureTags`): the
/// `"tippecanoe": {"minzoom", "maxzoom"}` member it may carry, the first zoom point thinning
/// leaves it at, and the zooms a `--where` naming `$zoom` keeps it at. (The member's `layer`
/// is `TileLayers`'.)
package enum FeatureVisibility {
    /// Why a feature is not in a tile it reaches.
    enum Hidden {
        /// Thinned out at this zoom (``TileOptions/pointDropRate``).
        case thinned
        /// Outside its own `tippecanoe` minzoom…maxzoom.
        case outsideZoomRange
        /// A `--where` naming `$zoom` does not hold at this zoom.
        case filteredAtZoom
    }

    /// Why a feature with `tags` is not drawn at `zoom`, or nil when it is.
    @inline(__always)
    static func hidden(_ tags: FeatureTags, zoom: Int) -> Hidden? {
        let zoom = UInt8(truncatingIfNeeded: zoom)
        if zoom < tags.memberMinZoom || zoom > tags.memberMaxZoom { return .outsideZoomRange }
        if tags.whereZooms != .max && (zoom > 31 || tags.whereZooms & (1 << UInt32(zoom)) == 0) { return .filteredAtZoom }
        if zoom < tags.thinnedMinZoom { return .thinned }
        return nil
    }

    /// The minzoom and maxzoom of `feature`'s `tippecanoe` member (0 and 255 without one), and
    /// how many of them are not numbers (ignored).
    static func memberZooms(_ feature: Feature) -> (min: UInt8, max: UInt8, invalid: Int) {
        var low: UInt8 = 0, high: UInt8 = 255, invalid = 0
        if case .object(let member)? = feature.foreignMembers["tippecanoe"] {
            func zoom(_ key: String) -> UInt8? {
                guard let value = member[key] else { return nil }
                guard let number = value.doubleValue, number.isFinite else {
                    invalid += 1
                    return nil
                }
                return UInt8(Int(saturating: number.rounded(.down)).clamped(to: 0...255))
            }
            if let value = zoom("minzoom") { low = value }
            if let value = zoom("maxzoom") { high = value }
        }
        return (low, high, invalid)
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

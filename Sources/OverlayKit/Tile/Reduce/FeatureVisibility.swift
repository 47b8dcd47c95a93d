import OverlayModel

/// The zooms each input feature is drawn at: the `"tippecanoe": {"minzoom", "maxzoom"}` member
/// a feature may carry, the first zoom point thinning leaves it at, and the zooms a `--where`
/// naming `$zoom` keeps it at. (The member's `layer` is `TileLayers`'.)
package struct FeatureVisibility: Sendable {
    /// Why a feature is not in a tile it reaches.
    enum Hidden {
        /// Thinned out at this zoom (``TileOptions/pointDropRate``).
        case thinned
        /// Outside its own `tippecanoe` minzoom…maxzoom.
        case outsideZoomRange
        /// A `--where` naming `$zoom` does not hold at this zoom.
        case filteredAtZoom
    }

    /// By input position: the member's minzoom and maxzoom (0 and 255 without one).
    private(set) var memberMinZooms = [UInt8]()
    private(set) var memberMaxZooms = [UInt8]()
    /// By input position, the first zoom thinning shows the feature at; empty when no thinning.
    var thinnedMinZooms = [UInt8]()
    /// By input position, the zooms a `--where` naming `$zoom` holds at (bit z); empty without one.
    private(set) var whereZooms = [UInt32]()
    /// Members whose minzoom or maxzoom is not a number (ignored).
    private(set) var invalidZoomMembers = 0

    /// Why the feature at input position `source` is not drawn at `zoom`, or nil when it is.
    @inline(__always)
    func hidden(_ source: Int, zoom: Int) -> Hidden? {
        let zoom = UInt8(zoom)
        if zoom < memberMinZooms[source] || zoom > memberMaxZooms[source] { return .outsideZoomRange }
        if !whereZooms.isEmpty && (zoom > 31 || whereZooms[source] & (1 << UInt32(zoom)) == 0) { return .filteredAtZoom }
        if !thinnedMinZooms.isEmpty && zoom < thinnedMinZooms[source] { return .thinned }
        return nil
    }

    /// Reads the next input feature's `tippecanoe` member; `whereZooms` is the zooms a `--where`
    /// naming `$zoom` holds at (nil without one).
    mutating func add(_ feature: Feature, whereZooms zooms: UInt32? = nil) {
        if let zooms { whereZooms.append(zooms) }
        var low: UInt8 = 0, high: UInt8 = 255
        if case .object(let member)? = feature.foreignMembers["tippecanoe"] {
            func zoom(_ key: String) -> UInt8? {
                guard let value = member[key] else { return nil }
                guard let number = value.doubleValue, number.isFinite else {
                    invalidZoomMembers += 1
                    return nil
                }
                return UInt8(Int(saturating: number.rounded(.down)).clamped(to: 0...255))
            }
            if let value = zoom("minzoom") { low = value }
            if let value = zoom("maxzoom") { high = value }
        }
        memberMinZooms.append(low)
        memberMaxZooms.append(high)
    }

    /// Appends the visibility of the features that follow (a later part of the input).
    mutating func append(_ later: FeatureVisibility) {
        memberMinZooms += later.memberMinZooms
        memberMaxZooms += later.memberMaxZooms
        invalidZoomMembers += later.invalidZoomMembers
        whereZooms += later.whereZooms
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

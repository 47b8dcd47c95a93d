import OverlayModel

/// The zooms each input feature is drawn at: the `"tippecanoe": {"minzoom", "maxzoom"}` member
/// a feature may carry, and the first zoom point thinning leaves it at.
package struct FeatureVisibility: Sendable {
    /// Why a feature is not in a tile it reaches.
    enum Hidden {
        /// Thinned out at this zoom (``TileOptions/pointDropRate``).
        case thinned
        /// Outside its own `tippecanoe` minzoom…maxzoom.
        case outsideZoomRange
    }

    /// By input position: the member's minzoom and maxzoom (0 and 255 without one).
    private(set) var memberMinZooms = [UInt8]()
    private(set) var memberMaxZooms = [UInt8]()
    /// By input position, the first zoom thinning shows the feature at; empty when no thinning.
    var thinnedMinZooms = [UInt8]()
    /// Features whose member has a `layer` (one layer per run: the name is not used).
    private(set) var layerMembersIgnored = 0
    /// Members whose minzoom or maxzoom is not a number (ignored).
    private(set) var invalidZoomMembers = 0

    /// Why the feature at input position `source` is not drawn at `zoom`, or nil when it is.
    @inline(__always)
    func hidden(_ source: Int, zoom: Int) -> Hidden? {
        let zoom = UInt8(zoom)
        if zoom < memberMinZooms[source] || zoom > memberMaxZooms[source] { return .outsideZoomRange }
        if !thinnedMinZooms.isEmpty && zoom < thinnedMinZooms[source] { return .thinned }
        return nil
    }

    /// Reads the next input feature's `tippecanoe` member.
    mutating func add(_ feature: Feature) {
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
            if member["layer"] != nil { layerMembersIgnored += 1 }
        }
        memberMinZooms.append(low)
        memberMaxZooms.append(high)
    }

    /// Appends the visibility of the features that follow (a later part of the input).
    mutating func append(_ later: FeatureVisibility) {
        memberMinZooms += later.memberMinZooms
        memberMaxZooms += later.memberMaxZooms
        layerMembersIgnored += later.layerMembersIgnored
        invalidZoomMembers += later.invalidZoomMembers
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

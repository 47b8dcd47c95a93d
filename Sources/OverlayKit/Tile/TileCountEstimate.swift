import OverlayModel

extension TileSource {
    /// About how many tiles the features reach over `zooms`, every geometry kind counted
    /// (`FeatureReach`: polygon interiors by area, each input feature once; lines by length;
    /// points one tile each), at most 4^z at zoom z. O(features).
    public func estimatedTiles(zooms: ClosedRange<Int>) -> Double {
        var reach = spilled?.reach ?? FeatureReach()
        var counted = Set<Int>()
        for feature in features {
            reach.add(feature, countingArea: feature.type == .polygon && counted.insert(feature.source).inserted)
        }
        return zooms.reduce(0) { $0 + reach.tiles(atZoom: $1) }
    }
}

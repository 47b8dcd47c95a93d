import OverlayModel

extension TileSource {
    /// About how many tiles the features reach over `zooms`, every geometry kind counted
    /// (`FeatureReach`: polygon interiors by area, each input feature once; lines by length;
    /// points one tile each), at most 4^z at zoom z. O(features).
    public func estimatedTiles(zooms: ClosedRange<Int>) -> Double {
        zooms.reduce(0) { $0 + reach.tiles(atZoom: $1) }
    }
}

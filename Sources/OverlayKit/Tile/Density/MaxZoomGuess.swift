#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// tippecanoe's `-zg`: the max zoom from how far apart features are. The spacing is the
/// geometric mean of the distances between features that neighbour each other in spatial order
/// (equal positions left out); the guess is the lowest zoom at which that spacing spans 8 tile
/// units (half a screen pixel at extent 4096), i.e. three zooms beyond where neighbours first
/// stand apart, as tippecanoe chooses. Clamped to 0…20; inputs with fewer than two distinct
/// positions get 14.
enum MaxZoomGuess {
    /// The lowest zoom whose tile unit is at most a eighth of the spacing.
    static func guess(_ order: SpatialOrder, extent: Int = 4096) -> Int {
        var logSum = 0.0, count = 0
        var previous: SpatialOrder.Entry?
        for entry in order.entries {
            defer { previous = entry }
            guard let last = previous else { continue }
            let distance = ((entry.x - last.x) * (entry.x - last.x) + (entry.y - last.y) * (entry.y - last.y)).squareRoot()
            guard distance > 0, distance.isFinite else { continue }
            logSum += log2(distance)
            count += 1
        }
        guard count > 0 else { return 14 }
        // A tile unit at zoom z is 2^28 / (2^z · extent) map points.
        let zoom = (log2(MapProjection.worldSize / Double(extent)) - (logSum / Double(count) - 3)).rounded(.up)
        return Int(saturating: min(20, max(0, zoom)))
    }
}

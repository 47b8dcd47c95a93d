import OverlayKit

/// OverlayModel's catalog: coordinates, map points, rects and distances.
func modelBasics() {
    let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
    let point = MapPoint(london)                                   // on the 2^28 plane
    let rect = MapRect(west: -10, south: 35, east: 30, north: 60)  // from degrees
    print(rect.contains(point), metersBetween(point, MapPoint(Coordinate(latitude: 48.8566, longitude: 2.3522))))
}

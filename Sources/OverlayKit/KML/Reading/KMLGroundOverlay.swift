#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// The footprint of a `GroundOverlay`'s `LatLonBox`.
enum KMLGroundOverlay {
    /// The box's corners (north-west, north-east, south-east, south-west, closed), rotated
    /// `rotation` degrees counterclockwise about the box center in the longitude/latitude
    /// plane, as KML defines it.
    static func ring(north: Double, south: Double, east: Double, west: Double, rotation: Double) -> [Coordinate] {
        let corners = [(west, north), (east, north), (east, south), (west, south), (west, north)]
        guard rotation != 0 else { return corners.map { Coordinate(latitude: $0.1, longitude: $0.0) } }
        let centerX = (east + west) / 2
        let centerY = (north + south) / 2
        let angle = rotation * Double.pi / 180
        let (sine, cosine) = (sin(angle), cos(angle))
        return corners.map { x, y in
            let dx = x - centerX
            let dy = y - centerY
            return Coordinate(latitude: centerY + dx * sine + dy * cosine, longitude: centerX + dx * cosine - dy * sine)
        }
    }
}

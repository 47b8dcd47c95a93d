import OverlayModel

/// Ring orientation in longitude/latitude (x east, y north), as RFC 7946 states it.
public enum RingWinding {
    /// Twice the signed planar area of a ring in degrees: positive when counterclockwise.
    /// Works whether or not the ring repeats its first position. O(n).
    public static func signedArea(_ ring: [Coordinate]) -> Double {
        ringTwiceSignedArea(count: ring.count) { (ring[$0].longitude, ring[$0].latitude) }
    }

    /// True when the ring runs counterclockwise (RFC 7946's exterior orientation).
    public static func isCounterclockwise(_ ring: [Coordinate]) -> Bool { signedArea(ring) > 0 }
}

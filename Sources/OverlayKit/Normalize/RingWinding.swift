import OverlayModel

/// Ring orientation in longitude/latitude (x east, y north), as RFC 7946 states it.
public enum RingWinding {
    /// Twice the signed planar area of a ring in degrees: positive when counterclockwise.
    /// Works whether or not the ring repeats its first position. O(n).
    public static func signedArea(_ ring: [Coordinate]) -> Double {
        let count = ring.count
        guard count > 2 else { return 0 }
        var sum = 0.0
        var previous = ring[count - 1]
        for current in ring {
            sum += (previous.longitude * current.latitude) - (current.longitude * previous.latitude)
            previous = current
        }
        return sum
    }

    /// True when the ring runs counterclockwise (RFC 7946's exterior orientation).
    public static func isCounterclockwise(_ ring: [Coordinate]) -> Bool { signedArea(ring) > 0 }
}

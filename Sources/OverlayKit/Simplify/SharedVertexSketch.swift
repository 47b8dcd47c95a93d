/// Which vertices more than one ring may have, in fixed memory (16 MiB whatever the input): every
/// vertex of every ring is hashed into 2^26 slots, and a slot remembers whether it was hit once
/// or more than once. A ring can share an edge with another ring only if two of its consecutive
/// vertices are each in a slot hit twice, so a ring without such a pair shares no border — the
/// answer is never wrong that way; a slot two different points fall in only makes a ring a
/// candidate it need not be (about 1 ring edge in 40 at 5 million vertices).
///
/// Sketches of parts of an input merge into the sketch of the whole (`merge`), so parts projected
/// on separate threads or machines need only their sketches joined.
package struct SharedVertexSketch: Sendable {
    private static let slotBits = 26
    private var once: [UInt64]
    private var twice: [UInt64]

    /// An empty sketch.
    package init() {
        once = [UInt64](repeating: 0, count: (1 << Self.slotBits) / 64)
        twice = once
    }

    @inline(__always)
    private static func slot(_ x: Double, _ y: Double) -> Int {
        let kx = (x == 0 ? 0 : x).bitPattern, ky = (y == 0 ? 0 : y).bitPattern
        var h = kx &* 0x9E37_79B9_7F4A_7C15 ^ (ky &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 29
        h = h &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h >> UInt64(64 - slotBits))
    }

    /// Counts the vertices of a ring stored as triples (`stride` 3) or pairs (2) in `xy`,
    /// vertices `start..<start + count`; a repeated point in a row and the closing point count once.
    package mutating func addRing(_ xy: [Double], start: Int, count: Int, stride: Int) {
        guard count > 0 else { return }
        let first = start * stride
        var end = start + count
        if count > 1 && xy[(end - 1) * stride] == xy[first] && xy[(end - 1) * stride + 1] == xy[first + 1] { end -= 1 }
        var previousX = Double.nan, previousY = Double.nan
        for vertex in start..<end {
            let x = xy[vertex * stride], y = xy[vertex * stride + 1]
            if x == previousX && y == previousY { continue }
            previousX = x
            previousY = y
            let slot = Self.slot(x, y), word = slot >> 6, bit = UInt64(1) << UInt64(slot & 63)
            if once[word] & bit != 0 { twice[word] |= bit } else { once[word] |= bit }
        }
    }

    /// Adds `other`'s counts: a slot hit in both is hit twice.
    package mutating func merge(_ other: SharedVertexSketch) {
        for word in once.indices {
            twice[word] |= other.twice[word] | (once[word] & other.once[word])
            once[word] |= other.once[word]
        }
    }

    /// Whether the ring (as in `addRing`) has two consecutive vertices, each hit more than once:
    /// false means it shares no edge with any ring counted.
    package func mayShareEdge(_ xy: [Double], start: Int, count: Int, stride: Int) -> Bool {
        guard count > 1 else { return false }
        var previousShared = false
        for vertex in start..<start + count {
            let slot = Self.slot(xy[vertex * stride], xy[vertex * stride + 1])
            let shared = twice[slot >> 6] & (UInt64(1) << UInt64(slot & 63)) != 0
            if shared && previousShared { return true }
            previousShared = shared
        }
        return false
    }
}

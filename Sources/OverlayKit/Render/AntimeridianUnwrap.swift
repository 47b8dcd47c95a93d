import OverlayModel

/// Makes rings and lines that cross the antimeridian continuous in map x, so they are drawn
/// in one piece instead of as a stroke across the whole world.
///
/// x comes from the source longitude wrapped into the world (±180° kept as written), and every
/// step of more than half the world (170° → −170°, or 170° → 190° once wrapped) is taken the
/// short way by shifting the rest of the run a world width. Wrapping first matters: a longitude
/// of 7.7e109 (found by the fuzzer) once made a run ~10^107 worlds wide to draw. A step between two vertices that both lie on ±180° is
/// kept as is: that is an edge running along the antimeridian (Antarctica's ring in Natural
/// Earth), not a crossing.
enum AntimeridianUnwrap {
    /// Writes the unwrapped x of every vertex into `xs` (replacing its contents) and returns
    /// the x range. O(n).
    static func unwrap(_ vertices: VertexBuffer, into xs: inout [Double]) -> (minX: Double, maxX: Double) {
        xs.removeAll(keepingCapacity: true)
        let world = MapProjection.worldSize, half = world / 2
        var minX = Double.infinity, maxX = -Double.infinity
        var offset = 0.0, previousRaw = 0.0, previousOnSeam = false
        vertices.coordinates.withUnsafeBufferPointer { coordinates in
            for index in 0..<coordinates.count {
                let longitude = coordinates[index].longitude
                let raw = MapProjection.x(longitude: longitude)
                let onSeam = abs(longitude) == 180
                if index > 0 && !(onSeam && previousOnSeam) {
                    let step = raw - previousRaw
                    if step > half { offset -= world } else if step < -half { offset += world }
                }
                let x = raw + offset
                xs.append(x)
                if x < minX { minX = x }
                if x > maxX { maxX = x }
                previousRaw = raw
                previousOnSeam = onSeam
            }
        }
        return (minX, maxX)
    }
}

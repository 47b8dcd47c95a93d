import OverlayModel

/// The map x of a ring's or line's vertices as the one antimeridian rule places them
/// (`FarLongitudes`, shared with `info`, `tile` and `filter --bbox`): edges are straight in
/// longitude and latitude (RFC 7946), so a vertex written within ±180° stays where it is written
/// and a 340° edge from −170° to 170° runs the long way, through 0°; a path crosses the
/// antimeridian only where it says so, by longitudes written beyond ±180° (`170 … 190`), each
/// placed the short way from its neighbour. x is then linear in the placed longitude, so such a
/// path runs past the world's edge in one piece instead of as a stroke across the whole world.
/// A longitude of 7.7e109 (found by the fuzzer) is placed by whole turns first, so it never makes
/// a run ~10^107 worlds wide to draw.
enum AntimeridianUnwrap {
    /// Writes the unwrapped x of every vertex into `xs` (replacing its contents) and returns
    /// the x range. O(n).
    static func unwrap(_ vertices: VertexBuffer, into xs: inout [Double]) -> (minX: Double, maxX: Double) {
        xs.removeAll(keepingCapacity: true)
        var minX = Double.infinity, maxX = -Double.infinity
        let coordinates = vertices.coordinates
        if !FarLongitudes.anyBeyond(coordinates) {
            // Every vertex within ±180°: the map points' x as they are.
            for point in vertices.points {
                xs.append(point.x)
                if point.x < minX { minX = point.x }
                if point.x > maxX { maxX = point.x }
            }
            return (minX, maxX)
        }
        let scale = MapProjection.worldSize / 360
        for longitude in FarLongitudes.placed(coordinates) {
            let x = (longitude + 180) * scale
            xs.append(x)
            if x < minX { minX = x }
            if x > maxX { maxX = x }
        }
        return (minX, maxX)
    }

    /// The x range `unwrap(_:into:)` returns, without writing every x when no longitude is
    /// beyond ±180° (`scratch` is used only then), nor keeping a long line's map points
    /// (`VertexBuffer.forEachMapPoint`: a fit reads each once). O(n).
    static func range(_ vertices: VertexBuffer, scratch: inout [Double]) -> (minX: Double, maxX: Double) {
        guard !FarLongitudes.anyBeyond(vertices.coordinates) else { return unwrap(vertices, into: &scratch) }
        var minX = Double.infinity, maxX = -Double.infinity
        vertices.forEachMapPoint { point in
            if point.x < minX { minX = point.x }
            if point.x > maxX { maxX = point.x }
        }
        return (minX, maxX)
    }
}

import OverlayModel

/// Where the vertices of a path written beyond ±180° lie, for the tiler's unwrapped map x.
///
/// The rule every command follows for a far-out longitude: it names the place it names once
/// wrapped by whole turns (`MapProjection.wrappedLongitude`, exact), and an edge to or from such a
/// vertex takes the short way, as `info`'s extent and `render` take it. So a vertex beyond ±180°
/// is moved by whole turns to the copy nearest the vertex before it in its path (the vertices
/// before a path's first one within ±180°: nearest the vertex after them; a path with none
/// starts in −180 … 180). `170 … 190` stays one piece across the antimeridian, `-190 … -170` too,
/// and `[1e308, 10] → [-1e308, 20]` is the 128° line from −64° to 64° it names, not a line from
/// −∞ to +∞ that covered every tile. Vertices within ±180° are kept as written (a 340° edge
/// between two of them is drawn the long way, as geojson-vt and tippecanoe draw it).
/// O(n); the placed longitudes stay within 180° · n of the first.
package enum FarLongitudes {
    /// True when some longitude of `coordinates` lies beyond ±180° (NaN is not beyond).
    package static func anyBeyond(_ coordinates: [Coordinate]) -> Bool {
        coordinates.contains { $0.longitude < -180 || $0.longitude > 180 }
    }

    /// The longitudes of a path placed by the rule above.
    package static func placed(_ coordinates: [Coordinate]) -> [Double] {
        var longitudes = coordinates.map(\.longitude)
        guard anyBeyond(coordinates) else { return longitudes }
        let firstWithin = longitudes.firstIndex { !($0 < -180 || $0 > 180) }
        if let firstWithin {
            // Leading far-out vertices, walking back from the first one within ±180°.
            var index = firstWithin
            while index > 0 {
                longitudes[index - 1] = nearestCopy(of: longitudes[index - 1], to: longitudes[index])
                index -= 1
            }
        } else {
            longitudes[0] = MapProjection.wrappedLongitude(longitudes[0])
        }
        for index in longitudes.indices.dropFirst() where index > (firstWithin ?? 0) {
            let longitude = longitudes[index]
            guard longitude < -180 || longitude > 180 else { continue }
            longitudes[index] = nearestCopy(of: longitude, to: longitudes[index - 1])
        }
        return longitudes
    }

    /// `longitude` moved by whole turns to within 180° of `reference` (exact for the wrapped
    /// part; `reference` is a placed longitude, so never far from ±180°).
    package static func nearestCopy(of longitude: Double, to reference: Double) -> Double {
        let wrapped = MapProjection.wrappedLongitude(longitude)
        guard reference.isFinite else { return wrapped }
        let turns = ((reference - wrapped) / 360).rounded()
        return wrapped + 360 * turns
    }
}

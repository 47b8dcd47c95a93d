import OverlayModel

/// Copies of features across the antimeridian (geojson-vt's `wrap`): whatever lies within the
/// buffer beyond the world's west edge is copied one world east, and what lies beyond the east
/// edge one world west, so tiles at ±180° draw geometry that crosses it. Uses `AxisClip`.
package enum AntimeridianWrap {
    /// - Parameter buffer: the tile buffer as a fraction of a tile (`buffer / extent`); at zoom
    ///   0 one tile is the world.
    /// - Returns: the west copy's features, then the features clipped to the world plus buffer,
    ///   then the east copy's: or the input unchanged when nothing crosses.
    package static func wrap(_ features: [ProjectedFeature], buffer: Double) -> [ProjectedFeature] {
        let world = MapProjection.worldSize
        // Bounds computed in world units first, then scaled by 2^28: exact, and equal to
        // geojson-vt's normalized values times the world size.
        let minAll = -1 * world, maxAll = 2 * world
        let west = AxisClip.clip(features, (-1 - buffer) * world, buffer * world, axis: 0, minAll: minAll, maxAll: maxAll)
        let east = AxisClip.clip(features, (1 - buffer) * world, (2 + buffer) * world, axis: 0, minAll: minAll, maxAll: maxAll)
        guard west != nil || east != nil else { return features }
        var merged = AxisClip.clip(features, -buffer * world, (1 + buffer) * world, axis: 0,
                                   minAll: minAll, maxAll: maxAll) ?? []
        if let west { merged = shifted(west, by: world) + merged }
        if let east { merged += shifted(east, by: -world) }
        return merged
    }

    /// One feature's pieces: the copy from beyond the west edge moved east, the part on the map,
    /// the copy from beyond the east edge moved west.
    package struct Pieces {
        package var west: [ProjectedFeature]
        package var center: [ProjectedFeature]
        package var east: [ProjectedFeature]

        /// Whether there is nothing to tile.
        package var isEmpty: Bool { west.isEmpty && center.isEmpty && east.isEmpty }
    }

    /// One feature's pieces as `wrap` makes them when some feature crosses an edge (empty where
    /// nothing is left). Clipping each feature alone gives what `wrap` gives the list; when no
    /// feature comes near an edge the part on the map is the feature unclipped, as `wrap` leaves it.
    package static func copies(of feature: ProjectedFeature, buffer: Double) -> Pieces {
        let world = MapProjection.worldSize
        let minAll = -1 * world, maxAll = 2 * world
        let west = AxisClip.clip([feature], (-1 - buffer) * world, buffer * world, axis: 0, minAll: minAll, maxAll: maxAll)
        let east = AxisClip.clip([feature], (1 - buffer) * world, (2 + buffer) * world, axis: 0, minAll: minAll, maxAll: maxAll)
        let center = AxisClip.clip([feature], -buffer * world, (1 + buffer) * world, axis: 0, minAll: minAll, maxAll: maxAll)
        return Pieces(west: west.map { shifted($0, by: world) } ?? [], center: center ?? [],
                      east: east.map { shifted($0, by: -world) } ?? [])
    }

    private static func shifted(_ features: [ProjectedFeature], by offset: Double) -> [ProjectedFeature] {
        features.map { feature in
            var copy = feature
            var index = 0
            while index < copy.coordinates.count {
                copy.coordinates[index] += offset
                index += 3
            }
            copy.computeBounds()
            return copy
        }
    }
}

/// The one clipping primitive (geojson-vt's `clip`): keeps what lies between two axis-parallel
/// lines `k1 ≤ v ≤ k2` on one axis. Tiles clip with it on x, then y; `AntimeridianWrap` uses it
/// for the world copies; `RectClip` for `convert --clip`.
///
/// Points are filtered, lines split into parts, polygon rings clipped Sutherland-Hodgman style
/// and closed again (a ring clipped to nothing is dropped). New vertices on the clip lines get
/// `intersectionValue` in the third slot (`ProjectedFeature.keep` for tiles, so simplification
/// never removes them). Each output ring keeps its source ring's `size`.
package enum AxisClip {
    /// Clips every feature; returns nil when nothing is left. Features entirely inside are
    /// passed through untouched (no copy), features entirely outside skipped, both decided
    /// from bounds before any vertex is read; `minAll`/`maxAll` bound all features together
    /// and let the whole list be accepted or rejected at once.
    ///
    /// O(total vertices of the features that straddle a line).
    package static func clip(_ features: [ProjectedFeature], _ k1: Double, _ k2: Double, axis: Int,
                            minAll: Double, maxAll: Double,
                            intersectionValue: Double = ProjectedFeature.keep) -> [ProjectedFeature]? {
        if minAll >= k1 && maxAll < k2 { return features }
        if maxAll < k1 || minAll >= k2 { return nil }
        var clipped = [ProjectedFeature]()
        for feature in features {
            let min = axis == 0 ? feature.minX : feature.minY
            let max = axis == 0 ? feature.maxX : feature.maxY
            if min >= k1 && max < k2 {
                clipped.append(feature)
                continue
            }
            if max < k1 || min >= k2 { continue }
            if feature.metrics != nil && feature.type == .line {
                clipped += clipWithMetrics(feature, k1, k2, axis: axis, intersectionValue: intersectionValue)
                continue
            }
            if let result = clip(feature, k1, k2, axis: axis, intersectionValue: intersectionValue) {
                clipped.append(result)
            }
        }
        return clipped.isEmpty ? nil : clipped
    }

    /// Clips one feature regardless of its bounds; nil when nothing is left.
    package static func clip(_ feature: ProjectedFeature, _ k1: Double, _ k2: Double, axis: Int,
                            intersectionValue: Double = ProjectedFeature.keep) -> ProjectedFeature? {
        let geometry = feature.coordinates
        var out = [Double]()
        var rings = [ProjectedRing]()
        if feature.type == .point {
            var index = 0
            while index < geometry.count {
                let a = geometry[index + axis]
                if a >= k1 && a <= k2 { out += geometry[index..<index + 3] }
                index += 3
            }
            guard !out.isEmpty else { return nil }
            rings.append(ProjectedRing(start: 0, count: out.count / 3, size: 0, isOuter: false))
        } else {
            out.reserveCapacity(geometry.count)
            for ring in feature.rings {
                clipRing(geometry, ring, into: &out, rings: &rings, k1, k2, axis: axis,
                         isPolygon: feature.type == .polygon, intersectionValue: intersectionValue)
            }
            guard !rings.isEmpty else { return nil }
        }
        return ProjectedFeature(type: feature.type, coordinates: out, rings: rings, source: feature.source, tags: feature.tags)
    }

    /// Clips one ring or line, appending the part(s) that remain.
    private static func clipRing(_ geometry: [Double], _ ring: ProjectedRing, into out: inout [Double],
                                 rings: inout [ProjectedRing], _ k1: Double, _ k2: Double, axis: Int,
                                 isPolygon: Bool, intersectionValue: Double) {
        var sliceStart = out.count
        func finishSlice() {
            let count = (out.count - sliceStart) / 3
            if count > 0 {
                rings.append(ProjectedRing(start: sliceStart / 3, count: count, size: ring.size, isOuter: ring.isOuter))
            }
            sliceStart = out.count
        }
        func intersect(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ k: Double) {
            // From the segment's lower end whichever way it is walked: a border two rings share
            // (one walks it a→b, the other b→a) meets the line at the same point in both.
            if ax > bx || (ax == bx && ay > by) {
                intersect(bx, by, ax, ay, k)
                return
            }
            if axis == 0 {
                let t = (k - ax) / (bx - ax)
                out.append(k)
                out.append(ay + (by - ay) * t)
            } else {
                let t = (k - ay) / (by - ay)
                out.append(ax + (bx - ax) * t)
                out.append(k)
            }
            out.append(intersectionValue)
        }

        let first = ring.start * 3
        let last = (ring.start + ring.count - 1) * 3
        var index = first
        while index < last {
            let ax = geometry[index], ay = geometry[index + 1], az = geometry[index + 2]
            let bx = geometry[index + 3], by = geometry[index + 4]
            let a = axis == 0 ? ax : ay
            let b = axis == 0 ? bx : by
            var exited = false
            if a < k1 {
                if b >= k1 { intersect(ax, ay, bx, by, k1) }       // enters from the low side
            } else if a > k2 {
                if b <= k2 { intersect(ax, ay, bx, by, k2) }       // enters from the high side
            } else {
                out.append(ax)
                out.append(ay)
                out.append(az)
            }
            if b < k1 && a >= k1 {                                  // leaves on the low side
                intersect(ax, ay, bx, by, k1)
                exited = true
            }
            if b > k2 && a <= k2 {                                  // leaves on the high side
                intersect(ax, ay, bx, by, k2)
                exited = true
            }
            if !isPolygon && exited { finishSlice() }
            index += 3
        }
        let a = geometry[last + axis]
        if a >= k1 && a <= k2 { out += geometry[last..<last + 3] }
        // Close a clipped ring whose ends no longer meet.
        let lastOut = out.count - 3
        if isPolygon && lastOut - sliceStart >= 3
            && (out[lastOut] != out[sliceStart] || out[lastOut + 1] != out[sliceStart + 1]) {
            out.append(out[sliceStart])
            out.append(out[sliceStart + 1])
            out.append(out[sliceStart + 2])
        }
        finishSlice()
    }

    /// Clips a line that carries `LineMetrics`: every piece becomes its own feature whose start
    /// and end say where it lies along the source line (geojson-vt's `lineMetrics`). A piece
    /// that begins at a clip line starts where the line crosses it; one that ends there ends
    /// at the crossing; otherwise it keeps the source's start or end.
    package static func clipWithMetrics(_ feature: ProjectedFeature, _ k1: Double, _ k2: Double, axis: Int,
                                       intersectionValue: Double = ProjectedFeature.keep) -> [ProjectedFeature] {
        guard let metrics = feature.metrics, let ring = feature.rings.first else { return [] }
        let geometry = feature.coordinates
        var pieces = [ProjectedFeature]()
        var slice = [Double]()
        var start = metrics.start
        var length = metrics.start
        func finish(end: Double) {
            guard !slice.isEmpty else { return }
            let piece = ProjectedRing(start: 0, count: slice.count / 3, size: ring.size, isOuter: false)
            pieces.append(ProjectedFeature(type: .line, coordinates: slice, rings: [piece], source: feature.source,
                                           metrics: LineMetrics(start: start, end: end, size: metrics.size), tags: feature.tags))
            slice = []
            start = metrics.start
        }
        func intersect(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ k: Double) -> Double {
            let t: Double
            if axis == 0 {
                t = (k - ax) / (bx - ax)
                slice += [k, ay + (by - ay) * t, intersectionValue]
            } else {
                t = (k - ay) / (by - ay)
                slice += [ax + (bx - ax) * t, k, intersectionValue]
            }
            return t
        }
        let first = ring.start * 3, last = (ring.start + ring.count - 1) * 3
        var index = first
        while index < last {
            let ax = geometry[index], ay = geometry[index + 1], az = geometry[index + 2]
            let bx = geometry[index + 3], by = geometry[index + 4]
            let a = axis == 0 ? ax : ay, b = axis == 0 ? bx : by
            let segment = ((ax - bx) * (ax - bx) + (ay - by) * (ay - by)).squareRoot()
            var exitT: Double?
            if a < k1 {
                if b >= k1 { start = length + segment * intersect(ax, ay, bx, by, k1) }
            } else if a > k2 {
                if b <= k2 { start = length + segment * intersect(ax, ay, bx, by, k2) }
            } else {
                slice += [ax, ay, az]
            }
            if b < k1 && a >= k1 { exitT = intersect(ax, ay, bx, by, k1) }
            if b > k2 && a <= k2 { exitT = intersect(ax, ay, bx, by, k2) }
            if let exitT { finish(end: length + segment * exitT) }
            length += segment
            index += 3
        }
        let a = geometry[last + axis]
        if a >= k1 && a <= k2 { slice += geometry[last..<last + 3] }
        finish(end: metrics.end)
        return pieces
    }
}

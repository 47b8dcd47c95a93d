import OverlayModel

/// A path in device pixels: subpaths of flat x,y pairs, either all closed rings (polygons)
/// or all open runs (lines).
struct DevicePath: Hashable, Sendable {
    /// x0, y0, x1, y1, …
    var xy: [Double] = []
    /// The pair index where each subpath starts.
    var starts: [Int] = []
    var closed: Bool

    init(closed: Bool) { self.closed = closed }

    var isEmpty: Bool { starts.isEmpty }
    var pointCount: Int { xy.count / 2 }

    /// The pair range of subpath `index`.
    func subpath(_ index: Int) -> Range<Int> {
        starts[index]..<(index + 1 < starts.count ? starts[index + 1] : pointCount)
    }

    mutating func append(subpath: [Double]) {
        starts.append(pointCount)
        xy.append(contentsOf: subpath)
    }
}

/// Turns overlays into device-space paths for one camera: unwraps across the antimeridian,
/// repeats the world copies that are visible, projects, drops every vertex that lands in the
/// same device pixel as the last one kept, clips to a guard rect around the viewport, and
/// orients rings (exteriors clockwise, holes counterclockwise on screen) so both fill rules
/// leave holes empty. Cost is O(n) per visible copy; the output has at most about one vertex
/// per pixel a ring passes through, so huge inputs give small paths.
///
/// Pixel decimation is a drawing step, not a simplifier: Douglas–Peucker simplification at the
/// render zoom (Simplify/) belongs before this, on the overlays, in `SnapshotBuilder.add`.
struct ScreenPathBuilder {
    let transform: ScreenTransform
    private var xs: [Double] = []

    init(transform: ScreenTransform) { self.transform = transform }

    /// A guard rect `margin` device pixels around the viewport.
    func guardClip(margin: Double) -> GuardClip {
        GuardClip(minX: -margin, minY: -margin, maxX: transform.pixelWidth + margin, maxY: transform.pixelHeight + margin)
    }

    /// True when a map y range can be on screen.
    private func verticallyVisible(_ rect: MapRect) -> Bool {
        let visible = transform.visibleMapRect
        return !rect.isNull && rect.maxY >= visible.minY && rect.minY <= visible.maxY
    }

    /// Appends a polygon's rings (every visible world copy) to `path`.
    mutating func append(_ polygon: Polygon, to path: inout DevicePath, guardClip: GuardClip) {
        guard verticallyVisible(polygon.boundingMapRect), polygon.vertices.count > 2 else { return }
        let (minX, maxX) = AntimeridianUnwrap.unwrap(polygon.vertices, into: &xs)
        let copies = transform.worldCopies(minX: minX, maxX: maxX)
        guard !copies.isEmpty else { return }
        let exteriorXs = xs
        // Holes unwrap on their own; shift each by whole worlds to sit over the exterior.
        let exteriorMiddle = (minX + maxX) / 2, world = MapProjection.worldSize
        var holes = [(vertices: VertexBuffer, xs: [Double], shift: Double)]()
        for hole in polygon.interiorPolygons where hole.vertices.count > 2 {
            var holeXs = [Double]()
            let (holeMin, holeMax) = AntimeridianUnwrap.unwrap(hole.vertices, into: &holeXs)
            let shift = ((exteriorMiddle - (holeMin + holeMax) / 2) / world).rounded() * world
            holes.append((hole.vertices, holeXs, shift))
        }
        for shift in copies {
            guard let exterior = ring(polygon.vertices, xs: exteriorXs, shift: shift, guardClip: guardClip) else { continue }
            path.append(subpath: oriented(exterior, clockwise: true))
            for hole in holes {
                if let ring = ring(hole.vertices, xs: hole.xs, shift: shift + hole.shift, guardClip: guardClip) {
                    path.append(subpath: oriented(ring, clockwise: false))
                }
            }
        }
    }

    /// Appends a line (every visible world copy) to `path`.
    mutating func append(line vertices: VertexBuffer, to path: inout DevicePath, guardClip: GuardClip) {
        guard verticallyVisible(vertices.boundingMapRect), !vertices.isEmpty else { return }
        let (minX, maxX) = AntimeridianUnwrap.unwrap(vertices, into: &xs)
        for shift in transform.worldCopies(minX: minX, maxX: maxX) {
            var (run, bounds) = decimated(vertices, xs: xs, shift: shift, closed: false)
            if run.count == 2 { run += run }  // one pixel: still a dot with round caps
            if guardClip.misses(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) { continue }
            if guardClip.contains(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) {
                path.append(subpath: run)
            } else {
                for piece in guardClip.clipLine(run) { path.append(subpath: piece) }
            }
        }
    }

    /// The device positions at which a map point shows (one per visible world copy).
    func devicePositions(of point: MapPoint, radius: Double = 0) -> [(x: Double, y: Double)] {
        guard verticallyVisible(MapRect(x: point.x - radius, y: point.y - radius, width: 2 * radius, height: 2 * radius)) else {
            return []
        }
        return transform.worldCopies(minX: point.x - radius, maxX: point.x + radius).map {
            transform.device(x: point.x + $0, y: point.y)
        }
    }

    /// One ring in device pixels, decimated, clipped to the guard; nil when nothing is left.
    private func ring(_ vertices: VertexBuffer, xs: [Double], shift: Double, guardClip: GuardClip) -> [Double]? {
        let (run, bounds) = decimated(vertices, xs: xs, shift: shift, closed: true)
        if guardClip.misses(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) { return nil }
        if guardClip.contains(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) {
            // A ring inside one or two pixels stays, as a dot: its stroke (caps) still shows.
            return run.isEmpty ? nil : run
        }
        let ring = guardClip.clipRing(run)
        return ring.count >= 6 ? ring : nil
    }

    /// Projects vertices and keeps each one whose device pixel differs from the last kept
    /// one's. A closed ring drops its repeated last vertex (the path closes itself); an open
    /// line always ends at its true last vertex. Returns the run and its bounds.
    private func decimated(_ vertices: VertexBuffer, xs: [Double], shift: Double, closed: Bool)
        -> ([Double], (Double, Double, Double, Double)) {
        var run = [Double]()
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var count = vertices.count
        if closed && vertices.isClosed { count -= 1 }
        var lastCellX = Int.min, lastCellY = Int.min
        vertices.points.withUnsafeBufferPointer { points in
            for index in 0..<count {
                let (x, y) = transform.device(x: xs[index] + shift, y: points[index].y)
                let cellX = Int(saturating: x.rounded(.down)), cellY = Int(saturating: y.rounded(.down))
                let isLast = !closed && index == count - 1
                if cellX == lastCellX && cellY == lastCellY {
                    guard isLast, run.count > 2 else { continue }
                    run.removeLast(2)  // end at the true last vertex, in the same pixel
                }
                lastCellX = cellX
                lastCellY = cellY
                run.append(x)
                run.append(y)
                if x < minX { minX = x }
                if x > maxX { maxX = x }
                if y < minY { minY = y }
                if y > maxY { maxY = y }
            }
        }
        return (run, (minX, minY, maxX, maxY))
    }

    /// The ring turned to run clockwise on screen (y down) when `clockwise`, else
    /// counterclockwise. O(n).
    private func oriented(_ ring: [Double], clockwise: Bool) -> [Double] {
        let count = ring.count / 2
        guard count > 2 else { return ring }
        let twiceArea = ringTwiceSignedArea(count: count) { (ring[2 * $0], ring[2 * $0 + 1]) }
        // With y pointing down, a positive shoelace sum runs clockwise on screen.
        if (twiceArea > 0) == clockwise || twiceArea == 0 { return ring }
        var reversed = [Double]()
        reversed.reserveCapacity(ring.count)
        for index in stride(from: count - 1, through: 0, by: -1) {
            reversed.append(ring[2 * index])
            reversed.append(ring[2 * index + 1])
        }
        return reversed
    }
}

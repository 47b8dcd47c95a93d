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
        // The first subpath is taken as it is: a long line's run is not copied.
        if xy.isEmpty && xy.capacity < subpath.count { xy = subpath } else { xy.append(contentsOf: subpath) }
    }
}

/// Turns overlays into device-space paths for one camera: unwraps across the antimeridian,
/// repeats the world copies that are visible, clips a pitched camera's ground paths to its
/// depth band (`DepthClip`), projects, drops every vertex that lands in the
/// same device pixel as the last one kept, clips to a guard rect around the viewport, and
/// orients rings (exteriors clockwise, holes counterclockwise on screen) so both fill rules
/// leave holes empty. Cost is O(n) per visible copy; the output has at most about one vertex
/// per pixel a ring passes through, so huge inputs give small paths.
///
/// Pixel decimation is a drawing step, not a simplifier: Douglas–Peucker simplification at the
/// render zoom (Simplify/) belongs before this, on the overlays, in `SnapshotBuilder.add`.
struct ScreenPathBuilder {
    let transform: ScreenTransform
    /// The pitched camera's depth band (unbounded for the flat camera).
    private let depthClip: DepthClip
    private var xs: [Double] = []

    init(transform: ScreenTransform) {
        self.transform = transform
        let band = transform.groundBand
        depthClip = DepthClip(minY: band.minY, maxY: band.maxY)
    }

    /// A guard rect `margin` device pixels around the viewport.
    func guardClip(margin: Double) -> GuardClip {
        GuardClip(minX: -margin, minY: -margin, maxX: transform.pixelWidth + margin, maxY: transform.pixelHeight + margin)
    }

    /// True when a map y range can be on screen.
    private func verticallyVisible(_ rect: MapRect) -> Bool {
        let visible = transform.visibleMapRect
        return !rect.isNull && rect.maxY >= visible.minY && rect.minY <= visible.maxY
    }

    /// False when no part of a line or polygon shape can reach the screen, by the same bounds
    /// tests the path building makes per part, so a culled feature is skipped before it is
    /// simplified, styled or projected and the picture is the same. Circles, annotations and
    /// collections are always let through (they have their own margins). O(1).
    func mayShow(_ shape: Shape) -> Bool {
        switch shape {
        case .polygon, .multiPolygon, .polyline, .multiPolyline:
            let bounds = shape.boundingMapRect
            guard verticallyVisible(bounds) else { return false }
            // Narrower than a quarter world, a run has no step the antimeridian unwrap would
            // shift, so its unwrapped x range is this one moved by whole worlds: the same copies.
            if bounds.width < MapProjection.worldSize / 4 {
                return !transform.worldCopies(minX: bounds.minX, maxX: bounds.maxX).isEmpty
            }
            return true
        case .circle, .annotation, .collection:
            return true
        }
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
            if transform.isPitched {
                // Clipped to the depth band in 3D first: a line may leave it and come back.
                for ground in depthClip.clipLine(groundPositions(vertices, xs: xs, shift: shift, closed: false)) {
                    let (run, bounds) = ScreenPathBuilder.decimate(count: ground.count / 2, closed: false) {
                        transform.project(ground[2 * $0], ground[2 * $0 + 1])
                    }
                    append(run: run, bounds: bounds, to: &path, guardClip: guardClip)
                }
                continue
            }
            let (run, bounds) = decimated(vertices, xs: xs, shift: shift, closed: false)
            append(run: run, bounds: bounds, to: &path, guardClip: guardClip)
        }
    }

    /// Whether a line's vertices may be drawn from their map points alone
    /// (`append(linePoints:to:guardClip:)`): a flat camera, and no longitude written beyond
    /// ±180° (whose placement needs the source coordinates' neighbours). O(n), no memory.
    func drawsFromMapPoints(_ vertices: VertexBuffer) -> Bool {
        !transform.isPitched && !FarLongitudes.anyBeyond(vertices.coordinates)
    }

    /// Appends a line given by its map points (every visible world copy) to `path`: what
    /// `append(line:to:guardClip:)` appends for the same points, for a line that
    /// `drawsFromMapPoints` allows, without a vertex buffer or an unwrapped copy of x.
    mutating func append(linePoints points: UnsafeBufferPointer<MapPoint>, to path: inout DevicePath, guardClip: GuardClip) {
        // The bounds as `VertexBuffer.boundingMapRect` computes them, so culling is the same.
        guard let first = points.first else { return }
        var minX = first.x, minY = first.y, maxX = minX, maxY = minY
        for point in points {
            if point.x < minX { minX = point.x } else if point.x > maxX { maxX = point.x }
            if point.y < minY { minY = point.y } else if point.y > maxY { maxY = point.y }
        }
        guard verticallyVisible(MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)) else { return }
        for shift in transform.worldCopies(minX: minX, maxX: maxX) {
            // Reserved whole: pages never written are never resident, and the run never grows by copying.
            let (run, bounds) = ScreenPathBuilder.decimate(count: points.count, closed: false, reserving: 2 * points.count + 4) {
                transform.device(x: points[$0].x + shift, y: points[$0].y)
            }
            append(run: run, bounds: bounds, to: &path, guardClip: guardClip)
        }
    }

    /// Appends one decimated device run of a line, clipped to the guard.
    private func append(run: [Double], bounds: (Double, Double, Double, Double), to path: inout DevicePath, guardClip: GuardClip) {
        var run = run
        if run.count == 2 { run += run }  // one pixel: still a dot with round caps
        if guardClip.misses(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) { return }
        if guardClip.contains(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) {
            path.append(subpath: run)
        } else {
            for piece in guardClip.clipLine(run) { path.append(subpath: piece) }
        }
    }

    /// Appends a circle (every visible world copy) of a pitched camera to `path` as rings: a
    /// circle on the ground is no circle on screen. Each ring has enough vertices to stay
    /// within a quarter pixel where the circle is magnified most.
    func append(circleAt center: MapPoint, mapRadius: Double, to path: inout DevicePath, guardClip: GuardClip) {
        let bounds = MapRect(x: center.x - mapRadius, y: center.y - mapRadius, width: 2 * mapRadius, height: 2 * mapRadius)
        guard verticallyVisible(bounds) else { return }
        let radius = mapRadius * transform.pixelsPerMapPoint
        for shift in transform.worldCopies(minX: bounds.minX, maxX: bounds.maxX) {
            let middle = transform.ground(x: center.x + shift, y: center.y)
            let band = transform.groundBand
            guard middle.y - radius <= band.maxY, middle.y + radius >= band.minY else { continue }
            let magnification = transform.magnification(atDepth: transform.depth(groundY: min(band.maxY, middle.y + radius)))
            let ground = CircleRing.points(x: middle.x, y: middle.y, radius: radius, detailRadius: radius * magnification)
            if let ring = pitchedRing(ground, guardClip: guardClip) { path.append(subpath: oriented(ring, clockwise: true)) }
        }
    }

    /// The device positions at which a map point shows (one per visible world copy; for a
    /// pitched camera only those inside the depth band).
    func devicePositions(of point: MapPoint, radius: Double = 0) -> [(x: Double, y: Double)] {
        guard verticallyVisible(MapRect(x: point.x - radius, y: point.y - radius, width: 2 * radius, height: 2 * radius)) else {
            return []
        }
        let copies = transform.worldCopies(minX: point.x - radius, maxX: point.x + radius)
        if transform.isPitched {
            let band = transform.groundBand
            return copies.compactMap {
                let ground = transform.ground(x: point.x + $0, y: point.y)
                return ground.y >= band.minY && ground.y <= band.maxY ? transform.project(ground.x, ground.y) : nil
            }
        }
        return copies.map { transform.device(x: point.x + $0, y: point.y) }
    }

    /// One ring in device pixels, decimated, clipped to the guard; nil when nothing is left.
    private func ring(_ vertices: VertexBuffer, xs: [Double], shift: Double, guardClip: GuardClip) -> [Double]? {
        if transform.isPitched {
            return pitchedRing(groundPositions(vertices, xs: xs, shift: shift, closed: true), guardClip: guardClip)
        }
        let (run, bounds) = decimated(vertices, xs: xs, shift: shift, closed: true)
        return guarded(ring: run, bounds: bounds, guardClip: guardClip)
    }

    /// A ring of ground positions clipped to the depth band, projected, decimated and clipped
    /// to the guard; nil when nothing is left.
    private func pitchedRing(_ ground: [Double], guardClip: GuardClip) -> [Double]? {
        let clipped = depthClip.clipRing(ground)
        guard clipped.count >= 6 else { return nil }
        let (run, bounds) = ScreenPathBuilder.decimate(count: clipped.count / 2, closed: true) {
            transform.project(clipped[2 * $0], clipped[2 * $0 + 1])
        }
        return guarded(ring: run, bounds: bounds, guardClip: guardClip)
    }

    private func guarded(ring run: [Double], bounds: (Double, Double, Double, Double), guardClip: GuardClip) -> [Double]? {
        if guardClip.misses(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) { return nil }
        if guardClip.contains(minX: bounds.0, minY: bounds.1, maxX: bounds.2, maxY: bounds.3) {
            // A ring inside one or two pixels stays, as a dot: its stroke (caps) still shows.
            return run.isEmpty ? nil : run
        }
        let ring = guardClip.clipRing(run)
        return ring.count >= 6 ? ring : nil
    }

    /// The ground positions (flat x,y) of a pitched camera for vertices shifted by a world
    /// copy; a closed ring drops its repeated last vertex.
    private func groundPositions(_ vertices: VertexBuffer, xs: [Double], shift: Double, closed: Bool) -> [Double] {
        var count = vertices.count
        if closed && vertices.isClosed { count -= 1 }
        var ground = [Double]()
        ground.reserveCapacity(2 * count)
        vertices.points.withUnsafeBufferPointer { points in
            for index in 0..<count {
                let position = transform.ground(x: xs[index] + shift, y: points[index].y)
                ground.append(position.x)
                ground.append(position.y)
            }
        }
        return ground
    }

    /// Projects vertices and keeps each one whose device pixel differs from the last kept
    /// one's. A closed ring drops its repeated last vertex (the path closes itself); an open
    /// line always ends at its true last vertex. Returns the run and its bounds.
    private func decimated(_ vertices: VertexBuffer, xs: [Double], shift: Double, closed: Bool)
        -> ([Double], (Double, Double, Double, Double)) {
        var count = vertices.count
        if closed && vertices.isClosed { count -= 1 }
        return vertices.points.withUnsafeBufferPointer { points in
            ScreenPathBuilder.decimate(count: count, closed: closed) { transform.device(x: xs[$0] + shift, y: points[$0].y) }
        }
    }

    /// Keeps each of `count` device positions whose pixel differs from the last kept one's;
    /// an open line ends at its true last position. Returns the run (with `capacity` Doubles
    /// reserved up front) and its bounds.
    @inline(__always)
    private static func decimate(count: Int, closed: Bool, reserving capacity: Int = 0, position: (Int) -> (x: Double, y: Double))
        -> ([Double], (Double, Double, Double, Double)) {
        var run = [Double]()
        run.reserveCapacity(capacity)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var lastCellX = Int.min, lastCellY = Int.min
        for index in 0..<count {
            let (x, y) = position(index)
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

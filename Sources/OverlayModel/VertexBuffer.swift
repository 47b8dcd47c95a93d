#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of vertices stored flat: the source coordinates and, index for index, the projected
/// map points (so writers reproduce the input numbers exactly, even where the projection clamps
/// latitudes beyond ±85.05°).
///
/// A buffer holds only what it was made from: made from coordinates (as every reader makes
/// them) it projects its map points, and its bounding rect, the first time they are asked for,
/// once, whatever thread asks; made from map points (as clipping makes them) it unprojects
/// likewise. So `convert` to GeoJSON or KML never projects, and a long track costs its
/// coordinates alone until something needs its points. The values are those eager projection
/// gave: `MapPoint(coordinate)` per vertex (and `Coordinate(point)` the other way), the bounds
/// by the same loop over the points in order.
///
/// Reading `points` (or `coordinates`, when derived) takes a lock: read it once, outside loops.
/// Sendable by hand: its storage (a `ManagedBuffer`, never Sendable itself) changes only under
/// its lock, or when no other copy can see it.
public struct VertexBuffer: Hashable, @unchecked Sendable {
    /// The arrays, given and derived; shared by copies (nothing changes a given array but
    /// `takeCoordinates()`, on a storage no copy shares).
    @usableFromInline var storage: VertexStorage

    /// The number of vertices.
    public let count: Int

    /// Projects the coordinates lazily: map points and bounds are made when first asked for.
    /// O(1); the projection is O(n), once.
    public init(coordinates: [Coordinate]) {
        storage = VertexStorage.make(points: nil, coordinates: coordinates)
        count = coordinates.count
    }

    /// Unprojects map points lazily (for geometry made in map space, e.g. by clipping): the
    /// coordinates are made when first asked for. The bounds are computed now. O(n).
    public init(points: [MapPoint]) {
        storage = VertexStorage.make(points: points, coordinates: nil)
        count = points.count
    }

    /// Takes both representations as given; they must have the same count. The bounds are
    /// computed now. O(n).
    public init(points: [MapPoint], coordinates: [Coordinate]) {
        precondition(points.count == coordinates.count, "points and coordinates differ in count")
        storage = VertexStorage.make(points: points, coordinates: coordinates)
        count = points.count
    }

    /// Map points, in order (projected on first use when the buffer was made from coordinates).
    public var points: [MapPoint] { storage.points }
    /// Source coordinates, in the same order as `points` (unprojected on first use when the
    /// buffer was made from map points).
    public var coordinates: [Coordinate] { storage.coordinates }
    /// The smallest rect containing every point; `MapRect.null` when empty. Computed on first
    /// use; a line of at least `streamingCount` vertices whose map points are not held yet is
    /// projected vertex by vertex and its points are not kept (a shorter one projects its
    /// points, which the next pass reads anyway).
    public var boundingMapRect: MapRect { storage.boundingMapRect(streaming: count >= VertexBuffer.streamingCount) }

    /// From this many vertices on, a pass over every map point of a buffer made from
    /// coordinates (its bounds, `forEachMapPoint`) projects each vertex in turn without keeping
    /// the points, so a long track costs its coordinates alone.
    public static let streamingCount = 1 << 16

    /// True when there are no vertices.
    @inlinable public var isEmpty: Bool { count == 0 }

    /// True when the first and last vertex are the same coordinate (a closed ring).
    public var isClosed: Bool {
        guard count > 1 else { return false }
        let first = storage.coordinate(at: 0), last = storage.coordinate(at: count - 1)
        return first.latitude == last.latitude && first.longitude == last.longitude
    }

    /// Whether the map points are held (given, or projected already); false until a buffer made
    /// from coordinates is asked for them. For tests that prove a pass never projects.
    package var holdsMapPoints: Bool { storage.holdsMapPoints }

    /// How many times this buffer's storage projected its coordinates into map points (0 or 1):
    /// for tests that prove the projection runs once across threads.
    package var projectionCount: Int { storage.projectionCount }

    /// Calls `body` with each map point in order: the held points when there are any; else, from
    /// `streamingCount` vertices on, each coordinate projected as `points` would project it and
    /// none kept (a shorter buffer projects and keeps its points). O(n).
    @inlinable
    package func forEachMapPoint(_ body: (MapPoint) throws -> Void) rethrows {
        if count >= VertexBuffer.streamingCount, storage.heldPoints == nil {
            for coordinate in storage.coordinates { try body(MapPoint(coordinate)) }
        } else {
            for point in storage.points { try body(point) }
        }
    }

    /// Moves the coordinates out of a buffer made from coordinates alone that no copy shares
    /// (the buffer is left empty), so the caller owns their memory; nil, and nothing changes,
    /// when a copy shares the buffer or it was made from map points.
    package mutating func takeCoordinates() -> [Coordinate]? {
        guard isKnownUniquelyReferenced(&storage), storage.givenPoints == nil,
              let coordinates = storage.givenCoordinates else { return nil }
        self = VertexBuffer(coordinates: [])
        return coordinates
    }

    /// The bounding rect of map points. O(n).
    public static func bounds(of points: [MapPoint]) -> MapRect {
        guard var minX = points.first?.x, var minY = points.first?.y else { return .null }
        var maxX = minX, maxY = minY
        for point in points {
            if point.x < minX { minX = point.x } else if point.x > maxX { maxX = point.x }
            if point.y < minY { minY = point.y } else if point.y > maxY { maxY = point.y }
        }
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// `bounds(of:)` of the coordinates' map points, each projected in turn and none kept.
    static func bounds(projecting coordinates: [Coordinate]) -> MapRect {
        guard let first = coordinates.first else { return .null }
        let start = MapPoint(first)
        var minX = start.x, minY = start.y
        var maxX = minX, maxY = minY
        for coordinate in coordinates {
            let point = MapPoint(coordinate)
            if point.x < minX { minX = point.x } else if point.x > maxX { maxX = point.x }
            if point.y < minY { minY = point.y } else if point.y > maxY { maxY = point.y }
        }
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Twice the signed area of the ring in map points (shoelace). Positive when the ring runs
    /// counterclockwise in latitude/longitude (map y grows southward, hence the sign).
    public var signedDoubleArea: Double {
        let points = self.points
        return -ringTwiceSignedArea(count: count) { (points[$0].x, points[$0].y) }
    }

    /// The same vertices in reverse order (made from what this buffer was made from).
    public func reversed() -> VertexBuffer {
        switch (storage.givenPoints, storage.givenCoordinates) {
        case (let points?, let coordinates?): VertexBuffer(points: points.reversed(), coordinates: coordinates.reversed())
        case (let points?, nil): VertexBuffer(points: points.reversed())
        case (nil, let coordinates?):
            // Points projected already stay projected (reversed, they are the same values).
            if let points = storage.heldPoints {
                VertexBuffer(points: points.reversed(), coordinates: coordinates.reversed())
            } else {
                VertexBuffer(coordinates: coordinates.reversed())
            }
        case (nil, nil): VertexBuffer(coordinates: [])
        }
    }

    /// Equal when the coordinates and the map points are equal. Two buffers made the same way
    /// compare what they were made from (the other form follows from it), so neither projects.
    public static func == (lhs: VertexBuffer, rhs: VertexBuffer) -> Bool {
        if lhs.storage === rhs.storage { return true }
        guard lhs.count == rhs.count else { return false }
        let left = lhs.storage, right = rhs.storage
        switch (left.givenPoints, left.givenCoordinates, right.givenPoints, right.givenCoordinates) {
        case (nil, let a?, nil, let b?): return a == b
        case (let a?, nil, let b?, nil): return a == b
        default: return lhs.points == rhs.points && lhs.coordinates == rhs.coordinates
        }
    }

    /// Hashes the coordinates (equal buffers have equal coordinates).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(coordinates)
    }
}

/// What a `VertexBuffer` holds: the arrays it was made from (never changed) and the ones derived
/// from them on first use, under a lock of its own, so that the derivation runs once even when
/// copies of a feature are read on several threads.
@usableFromInline
final class VertexStorage: ManagedBuffer<VertexStorage.Header, pthread_mutex_t> {
    @usableFromInline
    struct Header {
        /// The map points the buffer was made from, if any (never changed).
        let givenPoints: [MapPoint]?
        /// The coordinates the buffer was made from, if any (never changed).
        let givenCoordinates: [Coordinate]?
        /// Derived under the lock.
        var derivedPoints: [MapPoint]?
        var derivedCoordinates: [Coordinate]?
        var bounds: MapRect?
        var projections = 0
    }

    static func make(points: [MapPoint]?, coordinates: [Coordinate]?) -> VertexStorage {
        // Map points given: their bounds now, as before (clipping reads them at once anyway).
        let bounds = points.map { VertexBuffer.bounds(of: $0) }
        let made = VertexStorage.create(minimumCapacity: 1) { _ in
            Header(givenPoints: points, givenCoordinates: coordinates, derivedPoints: nil,
                   derivedCoordinates: nil, bounds: bounds)
        }
        let storage = unsafeDowncast(made, to: VertexStorage.self)
        storage.withUnsafeMutablePointerToElements { lock in
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointers { _, lock in
            pthread_mutex_destroy(lock)
            lock.deinitialize(count: 1)
        }
    }

    /// Runs `body` on the header under the lock.
    private func locked<Result>(_ body: (inout Header) -> Result) -> Result {
        withUnsafeMutablePointers { header, lock in
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return body(&header.pointee)
        }
    }

    /// The given map points (read without the lock: they never change).
    @usableFromInline var givenPoints: [MapPoint]? { withUnsafeMutablePointerToHeader { $0.pointee.givenPoints } }
    /// The given coordinates (read without the lock: they never change).
    @usableFromInline var givenCoordinates: [Coordinate]? { withUnsafeMutablePointerToHeader { $0.pointee.givenCoordinates } }

    /// The map points if held, given or derived; nil when they would have to be projected.
    @usableFromInline var heldPoints: [MapPoint]? {
        if let points = givenPoints { return points }
        return locked { $0.derivedPoints }
    }

    var holdsMapPoints: Bool { heldPoints != nil }

    var projectionCount: Int { locked { $0.projections } }

    @usableFromInline var points: [MapPoint] {
        if let points = givenPoints { return points }
        return locked { VertexStorage.project(&$0) }
    }

    /// The derived map points, projected now if they are not yet (the lock held).
    private static func project(_ header: inout Header) -> [MapPoint] {
        if let points = header.derivedPoints { return points }
        let coordinates = header.givenCoordinates ?? []
        var points = [MapPoint]()
        points.reserveCapacity(coordinates.count)
        for coordinate in coordinates { points.append(MapPoint(coordinate)) }
        header.derivedPoints = points
        header.projections += 1
        return points
    }

    @usableFromInline var coordinates: [Coordinate] {
        if let coordinates = givenCoordinates { return coordinates }
        return locked { header in
            if let coordinates = header.derivedCoordinates { return coordinates }
            let coordinates = (header.givenPoints ?? []).map { Coordinate($0) }
            header.derivedCoordinates = coordinates
            return coordinates
        }
    }

    /// The bounds, computed once: from the map points (projected now unless `streaming`), or,
    /// when `streaming` and the points are not held, from each coordinate projected in turn.
    func boundingMapRect(streaming: Bool) -> MapRect {
        locked { header in
            if let bounds = header.bounds { return bounds }
            let bounds: MapRect
            if let points = header.derivedPoints {
                bounds = VertexBuffer.bounds(of: points)
            } else if streaming {
                bounds = VertexBuffer.bounds(projecting: header.givenCoordinates ?? [])
            } else {
                bounds = VertexBuffer.bounds(of: VertexStorage.project(&header))
            }
            header.bounds = bounds
            return bounds
        }
    }

    /// The coordinate at `index` (`index` in range), unprojected alone when not held.
    func coordinate(at index: Int) -> Coordinate {
        if let coordinates = givenCoordinates { return coordinates[index] }
        if let derived = locked({ $0.derivedCoordinates }) { return derived[index] }
        return Coordinate((givenPoints ?? [])[index])
    }
}

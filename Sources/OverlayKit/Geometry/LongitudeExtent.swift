import OverlayModel

/// The west–east extent of shapes in degrees, deciding from the geometry whether it crosses
/// the antimeridian: `info`'s bounding box and `tile`'s TileJSON bounds share it.
///
/// Crossing is possible only when the geometry says so: an edge longer than 180° of longitude
/// (neither end on ±180°: such an edge runs along the antimeridian, it does not cross it),
/// longitudes written beyond ±180° (a ring drawn as 170° … 190°), or shapes that reach both
/// +180° and −180° (a country split at the antimeridian, RFC 7946 §3.1.9). Only then is the
/// smallest box chosen by the widest empty gap, where edges count as covering the longitudes
/// between their ends, not just their vertices: world data such as Natural Earth's countries
/// (Antarctica's long edges along the pole) gives −180 … 180, never a bogus crossing.
/// Constant memory (3,600 bins of 0.1°); O(1) per vertex and per edge.
package struct LongitudeExtent: Sendable, Codable {
    private static let binCount = 3600
    /// Extreme vertex longitudes per bin.
    private var minimum = [Double](repeating: .infinity, count: binCount)
    private var maximum = [Double](repeating: -.infinity, count: binCount)
    /// Edge coverage as a difference array: +1 where a covered run of bins starts, −1 after it.
    private var coverageDelta = [Int](repeating: 0, count: binCount + 1)
    private var reachesEast = false
    private var reachesWest = false
    private var hasCrossingEdge = false

    /// An empty extent.
    package init() {}

    private enum CodingKeys: String, CodingKey {
        case minimum, maximum, coverageDelta, reachesEast, reachesWest, hasCrossingEdge
    }

    /// An extent saved by `encode(to:)` (a distributed run's shard summaries), checked: bins of
    /// the right count holding longitudes in −180…180 (or the empty bin's infinities), and edge
    /// counts below 2^40, since the file may have been edited or damaged.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        minimum = try container.decode([Double].self, forKey: .minimum)
        maximum = try container.decode([Double].self, forKey: .maximum)
        coverageDelta = try container.decode([Int].self, forKey: .coverageDelta)
        reachesEast = try container.decode(Bool.self, forKey: .reachesEast)
        reachesWest = try container.decode(Bool.self, forKey: .reachesWest)
        hasCrossingEdge = try container.decode(Bool.self, forKey: .hasCrossingEdge)
        func fail(_ reason: String) -> DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a longitude extent with \(reason)"))
        }
        guard minimum.count == Self.binCount, maximum.count == Self.binCount, coverageDelta.count == Self.binCount + 1 else {
            throw fail("\(minimum.count), \(maximum.count) and \(coverageDelta.count) bins, not \(Self.binCount) and \(Self.binCount + 1)")
        }
        let inRange = { (longitude: Double) in (-180...180).contains(longitude) || longitude.isInfinite }
        guard minimum.allSatisfy(inRange), maximum.allSatisfy(inRange) else { throw fail("a longitude outside −180…180") }
        guard coverageDelta.allSatisfy({ $0.magnitude <= UInt(ReadBackLimits.count) }) else { throw fail("an edge count beyond 2^40") }
    }

    /// Adds every vertex and edge of `shape` (rings and lines as edges, points alone).
    package mutating func add(_ shape: Shape) {
        switch shape {
        case .annotation(let annotation): addPoint(annotation.coordinate.longitude)
        case .circle(let circle):
            // West edge, center, east edge, unwrapped: each step is under 180° when the circle is
            // narrower than the world, so the path runs east through the center (a circle 300°
            // wide is not taken to cross the antimeridian the short way). One as wide as the
            // world or wider covers every longitude (MapKit clamps its rect to the world).
            let rect = circle.boundingMapRect
            let world = MapProjection.worldSize
            let longitudes = rect.width >= world ? [-180, 0, 180] : [rect.minX, rect.midX, rect.maxX].map { $0 / world * 360 - 180 }
            addPath(longitudes.map { Coordinate(latitude: 0, longitude: $0) })
        case .polyline(let polyline): addPath(polyline.coordinates)
        case .polygon(let polygon): polygon.rings.forEach { addPath($0.coordinates) }
        case .multiPolyline(let multi): multi.polylines.forEach { add(.polyline($0)) }
        case .multiPolygon(let multi): multi.polygons.forEach { add(.polygon($0)) }
        case .collection(let collection): collection.members.forEach { add($0) }
        }
    }

    /// Adds everything `other` holds, as if its shapes had been added here: bins keep the
    /// extremes of both, coverage adds up, flags combine, so the order of merging never matters.
    package mutating func merge(_ other: LongitudeExtent) {
        for bin in 0..<Self.binCount {
            // Strict comparisons as in `addVertex`: on a tie (−0 and 0) the earlier shape's value stays.
            if other.minimum[bin] < minimum[bin] { minimum[bin] = other.minimum[bin] }
            if other.maximum[bin] > maximum[bin] { maximum[bin] = other.maximum[bin] }
        }
        for bin in 0...Self.binCount { coverageDelta[bin] += other.coverageDelta[bin] }
        reachesEast = reachesEast || other.reachesEast
        reachesWest = reachesWest || other.reachesWest
        hasCrossingEdge = hasCrossingEdge || other.hasCrossingEdge
    }

    /// The longitude wrapped into −180 … 180, and whether it was written beyond.
    /// (`MapProjection.wrappedLongitude`, the rule every command shares.)
    fileprivate static func wrapped(_ longitude: Double) -> (Double, Bool) {
        (MapProjection.wrappedLongitude(longitude), longitude < -180 || longitude > 180)
    }

    fileprivate static func bin(_ longitude: Double) -> Int {
        min(binCount - 1, max(0, Int(saturating: (longitude + 180) * 10)))
    }

    private mutating func addPoint(_ raw: Double) {
        addPath(CollectionOfOne(Coordinate(latitude: 0, longitude: raw)))
    }

    /// Adds the vertices of a path and the edges between them, placed by the one antimeridian
    /// rule (`FarLongitudes`): edges between vertices written within ±180° are straight in
    /// longitude (RFC 7946), so −170 → 170 covers the 340° between them, not the 20° across the
    /// antimeridian; an edge to or from a vertex written beyond ±180° runs the short way from its
    /// neighbour and crosses where it passes ±180°; an edge from +180° to −180° runs along the
    /// antimeridian and covers nothing. The bins are written through buffer pointers for the
    /// whole path: per-vertex array writes on a struct's arrays each checked uniqueness, a fifth
    /// of this type's cost on `info`.
    private mutating func addPath<Path: Collection<Coordinate>>(_ coordinates: Path) {
        let far = coordinates.contains { $0.longitude < -180 || $0.longitude > 180 }
        let placed = far ? FarLongitudes.placed(Array(coordinates)) : []
        var flags = Flags(reachesEast: reachesEast, reachesWest: reachesWest, hasCrossingEdge: hasCrossingEdge)
        minimum.withUnsafeMutableBufferPointer { minimum in
            maximum.withUnsafeMutableBufferPointer { maximum in
                coverageDelta.withUnsafeMutableBufferPointer { coverageDelta in
                    let bins = Bins(minimum: minimum, maximum: maximum, coverageDelta: coverageDelta)
                    var previous: Double?                      // the previous vertex's placed longitude
                    var previousBin = 0
                    for (index, coordinate) in coordinates.enumerated() where coordinate.longitude.isFinite {
                        let placedLongitude = far ? placed[index] : coordinate.longitude
                        let (longitude, beyond) = Self.wrapped(placedLongitude)
                        if beyond { flags.hasCrossingEdge = true }
                        let bin = Self.bin(longitude)
                        bins.addVertex(longitude, bin: bin, &flags)
                        defer { previous = placedLongitude; previousBin = bin }
                        guard let start = previous else { continue }
                        let (low, high) = start < placedLongitude ? (start, placedLongitude) : (placedLongitude, start)
                        if low >= -180 && high <= 180 {
                            // Within the world, as written. From +180 to −180 runs along the antimeridian.
                            if low == -180 && high == 180 { continue }
                            let (lowBin, highBin) = start < placedLongitude ? (previousBin, bin) : (bin, previousBin)
                            bins.cover(lowBin, highBin)
                        } else if high - low >= 360 {
                            for edge in [-180.0, 180] { bins.addVertex(edge, bin: Self.bin(edge), &flags) }
                            bins.cover(-1, Self.binCount)
                        } else {
                            // Past ±180: the part in the world and the part beyond, moved back by a turn.
                            flags.hasCrossingEdge = true
                            let west = MapProjection.wrappedLongitude(low)
                            let east = west + (high - low)
                            if east <= 180 {
                                bins.cover(Self.bin(west), Self.bin(east))
                            } else {
                                bins.addVertex(180, bin: Self.bin(180), &flags)
                                bins.addVertex(-180, bin: Self.bin(-180), &flags)
                                bins.cover(Self.bin(west), Self.binCount)
                                bins.cover(-1, Self.bin(east - 360))
                            }
                        }
                    }
                }
            }
        }
        (reachesEast, reachesWest, hasCrossingEdge) = (flags.reachesEast, flags.reachesWest, flags.hasCrossingEdge)
    }

    private struct Flags {
        var reachesEast: Bool
        var reachesWest: Bool
        var hasCrossingEdge: Bool
    }

    /// The bin arrays while a path is added.
    private struct Bins {
        let minimum: UnsafeMutableBufferPointer<Double>
        let maximum: UnsafeMutableBufferPointer<Double>
        let coverageDelta: UnsafeMutableBufferPointer<Int>

        /// A vertex at a longitude already wrapped into −180 … 180, in `bin`.
        func addVertex(_ longitude: Double, bin: Int, _ flags: inout Flags) {
            if longitude >= 180 { flags.reachesEast = true }
            if longitude <= -180 { flags.reachesWest = true }
            if longitude < minimum[bin] { minimum[bin] = longitude }
            if longitude > maximum[bin] { maximum[bin] = longitude }
        }

        /// Marks the bins strictly between bins `a` and `b` (a ≤ b) as covered.
        func cover(_ a: Int, _ b: Int) {
            let first = a + 1, last = b - 1
            guard first <= last else { return }
            coverageDelta[first] += 1
            coverageDelta[last + 1] -= 1
        }
    }

    /// West and east in degrees; west > east when the extent crosses the antimeridian
    /// (RFC 7946 §5.2). Nil when nothing was added.
    package var westEast: (west: Double, east: Double)? {
        var coverage = 0
        var low = [Double](), high = [Double](), bins = [Int]()  // per occupied bin, in order
        low.reserveCapacity(64)
        high.reserveCapacity(64)
        bins.reserveCapacity(64)
        for bin in 0..<Self.binCount {
            coverage += coverageDelta[bin]
            let binWest = Double(bin) / 10 - 180, binEast = Double(bin + 1) / 10 - 180
            if coverage > 0 {
                low.append(min(binWest, minimum[bin]))
                high.append(max(binEast, maximum[bin]))
                bins.append(bin)
            } else if minimum[bin] <= maximum[bin] {
                low.append(minimum[bin])
                high.append(maximum[bin])
                bins.append(bin)
            }
        }
        guard let west = low.first, let east = high.last else { return nil }
        guard hasCrossingEdge || (reachesEast && reachesWest) else { return (west, east) }
        let wrapGap = 360 - (east - west)
        var widest = 0.0, gapWest = west, gapEast = east
        // Gaps of at least one empty bin: an edge ends inside its end bins, so neighbours touch.
        for index in 1..<low.count where bins[index] > bins[index - 1] + 1 {
            let gap = low[index] - high[index - 1]
            if gap > widest { (widest, gapWest, gapEast) = (gap, high[index - 1], low[index]) }
        }
        return widest > wrapGap ? (gapEast, gapWest) : (west, east)
    }
}

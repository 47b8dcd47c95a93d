import OverlayModel

/// The smallest map rect holding a set of shapes on a world that wraps east–west, for fitting
/// the camera: data around the antimeridian (Fiji, the Aleutians, a Pacific flight) gives a
/// rect that runs past the world's east edge instead of one spanning the whole world.
///
/// Each part contributes an x interval (unwrapped across the antimeridian) and a y range; the
/// rect leaves out the largest stretch of longitude no interval covers. O(n log n) in parts.
///
/// Memory is bounded whatever the input: after `exactPartLimit` parts the intervals are folded
/// into `binCount` bins of the world's width (each keeps the least start and the greatest end
/// of the intervals starting in it). Folding loses only gaps narrower than a bin (1/65,536 of
/// the world, under a pixel at any zoom that shows the whole world), so the rect is the same
/// unless the data leaves no wider gap anywhere.
public struct FitExtent: Sendable {
    /// Parts kept exactly before folding into bins.
    static let exactPartLimit = 1 << 16
    /// Bins of the folded form.
    static let binCount = 1 << 16

    private var intervals: [(Double, Double)] = []
    /// The folded form: per bin, the least start and greatest end of the pieces starting in it.
    private var bins: [(start: Double, end: Double)] = []
    private var partCount = 0
    private var coversWorld = false
    private var minY = Double.infinity
    private var maxY = -Double.infinity
    private var scratch: [Double] = []

    /// An empty extent: nothing to fit yet.
    public init() {}

    /// True when nothing with a position was added.
    public var isEmpty: Bool { partCount == 0 }

    /// Adds every part of a shape.
    public mutating func add(_ shape: Shape) {
        switch shape {
        case .annotation(let annotation):
            add(x: annotation.point.x, x: annotation.point.x, y: annotation.point.y, y: annotation.point.y)
        case .circle(let circle):
            let rect = circle.boundingMapRect
            add(x: rect.minX, x: rect.maxX, y: rect.minY, y: rect.maxY)
        case .polyline(let polyline): add(polyline.vertices)
        case .polygon(let polygon): add(polygon.vertices)
        case .multiPolyline(let multi): multi.polylines.forEach { add($0.vertices) }
        case .multiPolygon(let multi): multi.polygons.forEach { add($0.vertices) }
        case .collection(let collection): collection.members.forEach { add($0) }
        }
    }

    private mutating func add(_ vertices: VertexBuffer) {
        guard !vertices.isEmpty else { return }
        // The range only: a long track's every x is not kept for the rest of the pass.
        let (minX, maxX) = AntimeridianUnwrap.range(vertices, scratch: &scratch)
        let bounds = vertices.boundingMapRect
        add(x: minX, x: maxX, y: bounds.minY, y: bounds.maxY)
    }

    /// Adds every part of another extent (one measured on another thread, say): the result is
    /// the extent of both inputs' parts, whatever the order.
    public mutating func merge(_ other: FitExtent) {
        guard other.partCount > 0 else { return }
        let parts = partCount + other.partCount
        if other.coversWorld {
            add(x: 0, x: MapProjection.worldSize, y: other.minY, y: other.maxY)
        } else {
            for interval in other.intervals { add(x: interval.0, x: interval.1, y: other.minY, y: other.maxY) }
            for bin in other.bins where bin.start <= bin.end { add(x: bin.start, x: bin.end, y: other.minY, y: other.maxY) }
        }
        partCount = parts
    }

    /// The extent of every shape `reader` gives from where it stands to its end. Its warnings
    /// are dropped (a drawing pass reads the same features again and reports them).
    /// - Throws: the reader's errors.
    public static func measuring(_ reader: inout some FeatureReader) throws -> FitExtent {
        var extent = FitExtent()
        while let feature = try reader.next() {
            _ = reader.takeWarnings()
            if let shape = feature.shape { extent.add(shape) }
        }
        return extent
    }

    private mutating func add(x minX: Double, x maxX: Double, y top: Double, y bottom: Double) {
        partCount += 1
        minY = min(minY, top)
        maxY = max(maxY, bottom)
        guard !coversWorld else { return }
        let world = MapProjection.worldSize
        if !(maxX - minX < world) {
            coversWorld = true
            intervals = []
            bins = []
            return
        }
        if bins.isEmpty {
            intervals.append((minX, maxX))
            guard intervals.count > FitExtent.exactPartLimit else { return }
            bins = Array(repeating: (.infinity, -.infinity), count: FitExtent.binCount)
            for interval in intervals { fold(interval.0, interval.1) }
            intervals = []
        } else {
            fold(minX, maxX)
        }
    }

    /// Adds an interval to its bin, moved to start inside the world.
    private mutating func fold(_ minX: Double, _ maxX: Double) {
        let world = MapProjection.worldSize
        let shift = (minX / world).rounded(.down) * world
        let start = minX - shift, end = maxX - shift
        let bin = min(FitExtent.binCount - 1, max(0, Int(start / world * Double(FitExtent.binCount))))
        bins[bin].start = min(bins[bin].start, start)
        bins[bin].end = max(bins[bin].end, end)
    }

    /// The rect: its x range covers every interval, leaving out the widest uncovered stretch
    /// (so it may extend past the world's east edge); `MapRect.null` when empty.
    public var mapRect: MapRect {
        guard partCount > 0 else { return .null }
        let world = MapProjection.worldSize
        let height = maxY - minY
        if coversWorld { return MapRect(x: 0, y: minY, width: world, height: height) }
        // Move each interval so it starts inside the world; split the ones that run past its
        // east edge, so every piece lies in 0…world.
        var pieces = [(Double, Double)]()
        pieces.reserveCapacity(intervals.count + 8)
        func addPiece(_ minX: Double, _ maxX: Double) {
            let shift = (minX / world).rounded(.down) * world
            let start = minX - shift, end = maxX - shift
            if end > world {
                pieces.append((start, world))
                pieces.append((0, end - world))
            } else {
                pieces.append((start, end))
            }
        }
        for interval in intervals { addPiece(interval.0, interval.1) }
        for bin in bins where bin.start <= bin.end { addPiece(bin.start, bin.end) }
        pieces.sort { $0.0 < $1.0 }
        // The widest gap between merged pieces, or across the world's edge.
        var coveredEnd = pieces[0].1
        var gapStart = 0.0, gapEnd = 0.0
        for piece in pieces.dropFirst() {
            if piece.0 - coveredEnd > gapEnd - gapStart {
                gapStart = coveredEnd
                gapEnd = piece.0
            }
            coveredEnd = max(coveredEnd, piece.1)
        }
        let edgeGap = pieces[0].0 + world - coveredEnd
        if edgeGap >= gapEnd - gapStart {
            // The usual case: leave out the stretch across the world's edge.
            return MapRect(x: pieces[0].0, y: minY, width: max(0, coveredEnd - pieces[0].0), height: height)
        }
        return MapRect(x: gapEnd, y: minY, width: gapStart + world - gapEnd, height: height)
    }
}

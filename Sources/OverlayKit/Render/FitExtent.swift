import OverlayModel

/// The smallest map rect holding a set of shapes on a world that wraps east–west, for fitting
/// the camera: data around the antimeridian (Fiji, the Aleutians, a Pacific flight) gives a
/// rect that runs past the world's east edge instead of one spanning the whole world.
///
/// Each part contributes an x interval (unwrapped across the antimeridian) and a y range; the
/// rect leaves out the largest stretch of longitude no interval covers. O(n log n) in parts.
public struct FitExtent: Sendable {
    private var intervals: [(Double, Double)] = []
    private var minY = Double.infinity
    private var maxY = -Double.infinity
    private var scratch: [Double] = []

    /// An empty extent: nothing to fit yet.
    public init() {}

    /// True when nothing with a position was added.
    public var isEmpty: Bool { intervals.isEmpty }

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
        let (minX, maxX) = AntimeridianUnwrap.unwrap(vertices, into: &scratch)
        let bounds = vertices.boundingMapRect
        add(x: minX, x: maxX, y: bounds.minY, y: bounds.maxY)
    }

    private mutating func add(x minX: Double, x maxX: Double, y top: Double, y bottom: Double) {
        intervals.append((minX, maxX))
        minY = min(minY, top)
        maxY = max(maxY, bottom)
    }

    /// The rect: its x range covers every interval, leaving out the widest uncovered stretch
    /// (so it may extend past the world's east edge); `MapRect.null` when empty.
    public var mapRect: MapRect {
        guard !intervals.isEmpty else { return .null }
        let world = MapProjection.worldSize
        let height = maxY - minY
        // Move each interval so it starts inside the world; split the ones that run past its
        // east edge, so every piece lies in 0…world.
        var pieces = [(Double, Double)]()
        pieces.reserveCapacity(intervals.count + 8)
        for interval in intervals {
            if interval.1 - interval.0 >= world { return MapRect(x: 0, y: minY, width: world, height: height) }
            let shift = (interval.0 / world).rounded(.down) * world
            let start = interval.0 - shift, end = interval.1 - shift
            if end > world {
                pieces.append((start, world))
                pieces.append((0, end - world))
            } else {
                pieces.append((start, end))
            }
        }
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

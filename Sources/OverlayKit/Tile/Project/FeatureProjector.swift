#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Projects shapes once into `ProjectedFeature` flat buffers and computes Douglas-Peucker
/// importance for every vertex at the finest tolerance (geojson-vt's `convert`).
///
/// Longitudes are projected without wrapping (`x = (lon/360 + 0.5) · 2^28`), so a ring written
/// across the antimeridian as 170° … 190° stays one piece; `AntimeridianWrap` then copies what
/// lies beyond either edge onto the other side. Within ±180° the values equal `MapPoint`'s bit
/// for bit. A path or point reaching beyond ±540° (where geojson-vt drew nothing, or for ±1e308
/// infinity across every tile) is placed by `FarLongitudes`, the rule every command shares. Ring orientation is left as given here: it is fixed after simplification, where
/// it can still change (see `TileBuilder`).
package struct FeatureProjector: Sendable {
    /// The squared Douglas-Peucker tolerance in map points² used for the importance pass.
    package var squaredTolerance: Double
    /// Largest distance (map points) between a circle and the ring that stands for it.
    package var circleTolerance: Double
    /// Give each line its own feature with `LineMetrics` (geojson-vt's `lineMetrics`).
    package var lineMetrics: Bool

    package init(squaredTolerance: Double, circleTolerance: Double, lineMetrics: Bool = false) {
        self.squaredTolerance = squaredTolerance
        self.circleTolerance = circleTolerance
        self.lineMetrics = lineMetrics
    }

    /// The projected x of a longitude, unwrapped (see the type's documentation).
    @inlinable
    package static func x(longitude: Double) -> Double {
        (longitude / 360 + 0.5) * MapProjection.worldSize
    }

    /// Appends the features that stand for `shape` (a geometry collection gives one per member,
    /// as geojson-vt does) and returns how many were appended; 0 when the shape has no vertices.
    @discardableResult
    package func project(_ shape: Shape, source: Int, into features: inout [ProjectedFeature]) -> Int {
        let before = features.count
        switch shape {
        case .annotation(let annotation):
            features.append(ProjectedFeature(type: .point, coordinates: point(annotation.coordinate),
                                             rings: [ProjectedRing(start: 0, count: 1, size: 0, isOuter: false)],
                                             source: source))
        case .circle(let circle):
            var coordinates = [Double]()
            var rings = [ProjectedRing]()
            appendRing(circleRing(circle), into: &coordinates, rings: &rings, isPolygon: true, isOuter: true)
            features.append(ProjectedFeature(type: .polygon, coordinates: coordinates, rings: rings, source: source))
        case .polyline(let polyline):
            appendLines([polyline.vertices], source: source, into: &features)
        case .multiPolyline(let multi):
            appendLines(multi.polylines.map(\.vertices), source: source, into: &features)
        case .polygon(let polygon):
            appendPolygons([polygon], source: source, into: &features)
        case .multiPolygon(let multi):
            appendPolygons(multi.polygons, source: source, into: &features)
        case .collection(let collection):
            let points = collection.members.compactMap { member -> Coordinate? in
                if case .annotation(let annotation) = member { return annotation.coordinate }
                return nil
            }
            if collection.origin == .multiPoint && points.count == collection.members.count {
                guard !points.isEmpty else { return 0 }
                var coordinates = [Double]()
                coordinates.reserveCapacity(points.count * 3)
                for coordinate in points { coordinates += point(coordinate) }
                features.append(ProjectedFeature(type: .point, coordinates: coordinates,
                                                 rings: [ProjectedRing(start: 0, count: points.count, size: 0, isOuter: false)],
                                                 source: source))
            } else {
                for member in collection.members { project(member, source: source, into: &features) }
            }
        }
        return features.count - before
    }

    /// A point's triple: a longitude beyond ±540° wrapped by whole turns (`FarLongitudes`;
    /// within, the copies across the antimeridian draw it at its wrapped place, as geojson-vt).
    private func point(_ coordinate: Coordinate) -> [Double] {
        [Self.x(longitude: Self.farWrapped(coordinate.longitude)), MapProjection.y(latitude: coordinate.latitude), 0]
    }

    /// `longitude` as written within ±540°, wrapped by whole turns beyond.
    private static func farWrapped(_ longitude: Double) -> Double {
        longitude.magnitude > FarLongitudes.drawnAsWritten ? MapProjection.wrappedLongitude(longitude) : longitude
    }

    private func appendLines(_ lines: [VertexBuffer], source: Int, into features: inout [ProjectedFeature]) {
        if lineMetrics {
            for line in lines {
                var coordinates = [Double](), rings = [ProjectedRing]()
                appendRing(projected(line), into: &coordinates, rings: &rings, isPolygon: false, isOuter: false)
                guard let ring = rings.first else { continue }
                features.append(ProjectedFeature(type: .line, coordinates: coordinates, rings: rings, source: source,
                                                 metrics: LineMetrics(start: 0, end: ring.size, size: ring.size)))
            }
            return
        }
        var coordinates = [Double]()
        coordinates.reserveCapacity(lines.reduce(0) { $0 + $1.count } * 3)
        var rings = [ProjectedRing]()
        for line in lines {
            appendRing(projected(line), into: &coordinates, rings: &rings, isPolygon: false, isOuter: false)
        }
        guard !rings.isEmpty else { return }
        features.append(ProjectedFeature(type: .line, coordinates: coordinates, rings: rings, source: source))
    }

    private func appendPolygons(_ polygons: [Polygon], source: Int, into features: inout [ProjectedFeature]) {
        var coordinates = [Double]()
        var rings = [ProjectedRing]()
        for polygon in polygons {
            appendRing(projected(polygon.vertices), into: &coordinates, rings: &rings, isPolygon: true, isOuter: true)
            for hole in polygon.interiorPolygons {
                appendRing(projected(hole.vertices), into: &coordinates, rings: &rings, isPolygon: true, isOuter: false)
            }
        }
        guard !rings.isEmpty else { return }
        features.append(ProjectedFeature(type: .polygon, coordinates: coordinates, rings: rings, source: source))
    }

    /// x, y pairs of a vertex buffer, with unwrapped longitudes: as written when all lie within
    /// ±540° (geojson-vt's drawing); a path reaching beyond is placed by `FarLongitudes` (each
    /// vertex beyond ±180° the short way from the vertex before).
    private func projected(_ vertices: VertexBuffer) -> [Double] {
        var pairs = [Double]()
        pairs.reserveCapacity(vertices.count * 2)
        if FarLongitudes.anyBeyond(vertices.coordinates, limit: FarLongitudes.drawnAsWritten) {
            for (longitude, point) in zip(FarLongitudes.placed(vertices.coordinates), vertices.points) {
                pairs.append(Self.x(longitude: longitude))
                pairs.append(point.y)
            }
            return pairs
        }
        for (coordinate, point) in zip(vertices.coordinates, vertices.points) {
            pairs.append(Self.x(longitude: coordinate.longitude))
            pairs.append(point.y)
        }
        return pairs
    }

    /// Appends one ring of x, y pairs as triples, with its size and importance.
    private func appendRing(_ pairs: [Double], into coordinates: inout [Double], rings: inout [ProjectedRing],
                            isPolygon: Bool, isOuter: Bool) {
        let count = pairs.count / 2
        guard count > 0 else { return }
        let start = coordinates.count / 3
        var size = 0.0
        var x0 = 0.0, y0 = 0.0
        for index in 0..<count {
            let x = pairs[2 * index], y = pairs[2 * index + 1]
            coordinates.append(x)
            coordinates.append(y)
            coordinates.append(0)
            if index > 0 {
                if isPolygon {
                    size += (x0 * y - x * y0) / 2
                } else {
                    size += ((x - x0) * (x - x0) + (y - y0) * (y - y0)).squareRoot()
                }
            }
            x0 = x
            y0 = y
        }
        let first = start, last = start + count - 1
        coordinates[first * 3 + 2] = ProjectedFeature.keep
        DouglasPeucker.computeImportance(&coordinates, first: first, last: last, squaredTolerance: squaredTolerance)
        coordinates[last * 3 + 2] = ProjectedFeature.keep
        rings.append(ProjectedRing(start: start, count: count, size: abs(size), isOuter: isOuter))
    }

    /// `CirclePolygon`'s closed ring around the circle in map space (MapKit draws `MKCircle` as a
    /// Mercator circle), within `circleTolerance` of it, around the unwrapped center x.
    func circleRing(_ circle: Circle) -> [Double] {
        CirclePolygon.ring(centerX: Self.x(longitude: Self.farWrapped(circle.center.longitude)), centerY: MapProjection.y(latitude: circle.center.latitude),
                           radius: circle.mapRadius, tolerance: circleTolerance)
    }
}

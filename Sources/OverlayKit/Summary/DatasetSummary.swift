import OverlayModel

/// Statistics over a stream of features, as `overlaykit info` prints them: counts per kind,
/// vertices, extent in degrees (antimeridian-aware) and map points, the zoom that fits, and
/// the property keys with the JSON types seen for each. Constant memory: O(keys + 3600).
public struct DatasetSummary: Sendable {
    /// Features seen.
    public private(set) var featureCount = 0
    /// Features without geometry.
    public private(set) var nullGeometryCount = 0
    /// Features per shape kind, in `ShapeKind` order.
    public private(set) var kindCounts: [ShapeKind: Int] = [:]
    /// Vertices over all shapes.
    public private(set) var vertexCount = 0
    /// The union of every feature's `boundingMapRect` (no wrapping).
    private var unionRect = MapRect.null
    /// Property keys in order of first appearance, each with the types seen, in order.
    public private(set) var propertyTypes: [(key: String, types: [String])] = []
    private var keyIndex: [String: Int] = [:]
    private var minLatitude = Double.infinity
    private var maxLatitude = -Double.infinity
    /// West and east, crossing decided from the geometry (shared with `tile`'s bounds).
    private var longitudes = LongitudeExtent()

    /// An empty summary; add features to it.
    public init() {}

    /// Adds one feature. O(vertices + properties).
    public mutating func add(_ feature: Feature) {
        featureCount += 1
        if let properties = feature.properties {
            for member in properties.members { note(key: member.key, type: member.value.typeName) }
        }
        guard let shape = feature.shape else {
            nullGeometryCount += 1
            return
        }
        kindCounts[shape.kind, default: 0] += 1
        vertexCount += shape.vertexCount
        unionRect = unionRect.union(shape.boundingMapRect)
        visitCoordinates(of: shape)
        longitudes.add(shape)
    }

    private mutating func note(key: String, type: String) {
        if let index = keyIndex[key] {
            if !propertyTypes[index].types.contains(type) { propertyTypes[index].types.append(type) }
        } else {
            keyIndex[key] = propertyTypes.count
            propertyTypes.append((key, [type]))
        }
    }

    private mutating func visitCoordinates(of shape: Shape) {
        switch shape {
        case .annotation(let annotation): note(annotation.coordinate)
        case .circle(let circle):
            // The circle's extent, not just its center.
            let rect = circle.boundingMapRect
            note(Coordinate(rect.origin))
            note(Coordinate(MapPoint(x: rect.maxX, y: rect.maxY)))
        case .polyline(let polyline): polyline.coordinates.forEach { note($0) }
        case .polygon(let polygon): polygon.rings.forEach { $0.coordinates.forEach { note($0) } }
        case .multiPolyline(let multi): multi.polylines.forEach { $0.coordinates.forEach { note($0) } }
        case .multiPolygon(let multi): multi.polygons.forEach { visitCoordinates(of: .polygon($0)) }
        case .collection(let collection): collection.members.forEach { visitCoordinates(of: $0) }
        }
    }

    @inline(__always)
    private mutating func note(_ coordinate: Coordinate) {
        if coordinate.latitude < minLatitude { minLatitude = coordinate.latitude }
        if coordinate.latitude > maxLatitude { maxLatitude = coordinate.latitude }
    }

    /// The extent in degrees as (west, south, east, north). When the geometry crosses the
    /// antimeridian (see `LongitudeExtent`) and the data is narrower across it, west > east
    /// (RFC 7946 §5.2). Nil when there are no coordinates.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)? {
        guard let westEast = longitudes.westEast else { return nil }
        return (westEast.west, minLatitude, westEast.east, maxLatitude)
    }

    /// The extent in map points, agreeing with ``boundingBox``: the union of the features'
    /// rects, except that data across the antimeridian gets MapKit's form of a rect across the
    /// 180th meridian — it starts at the west edge and runs past the world's east edge
    /// (`spans180thMeridian` is true; `remainder` is the part beyond), where the union of the
    /// parts on both sides would be the whole world's width. `MapRect.null` without coordinates.
    public var boundingMapRect: MapRect {
        guard crossesAntimeridian, let box = boundingBox, !unionRect.isNull else { return unionRect }
        let left = MapProjection.x(longitude: box.west)
        let width = MapProjection.x(longitude: box.east) + MapProjection.worldSize - left
        // 180 … −180 is the whole world seen from the antimeridian: the union says it plainly.
        guard width > 0 && width < MapProjection.worldSize else { return unionRect }
        return MapRect(x: left, y: unionRect.minY, width: width, height: unionRect.height)
    }

    /// True when the extent crosses the antimeridian.
    public var crossesAntimeridian: Bool {
        guard let box = boundingBox else { return false }
        return box.west > box.east
    }

    /// The largest whole zoom at which the extent fits in `width` × `height` screen points.
    public func zoomToFit(width: Double = 1024, height: Double = 1024) -> Int? {
        guard let box = boundingBox else { return nil }
        let top = MapProjection.y(latitude: box.north), bottom = MapProjection.y(latitude: box.south)
        var left = MapProjection.x(longitude: box.west), right = MapProjection.x(longitude: box.east)
        if right < left { right += MapProjection.worldSize }
        if box.west > box.east && left > right { left -= MapProjection.worldSize }
        let rect = MapRect(x: left, y: top, width: right - left, height: bottom - top)
        return Int(saturating: Zoom.zoomToFit(rect, width: width, height: height).rounded(.down))
    }
}

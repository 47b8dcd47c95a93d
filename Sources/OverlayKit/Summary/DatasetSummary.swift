import OverlayModel

/// Statistics over a stream of features, as `overlaykit info` prints them: counts per kind,
/// vertices, extent in degrees (antimeridian-aware) and map points, the zoom that fits, and
/// the property keys with the JSON types seen for each. Constant memory: O(keys + 3600).
///
/// Every statistic is a count, a sum, an extreme or a first appearance, so summaries of
/// consecutive parts of a stream merge (``merge(_:)``) into exactly the summary of the whole:
/// `info` summarizes GeoParquet row groups on the threads that decode them.
public struct DatasetSummary: Sendable {
    /// Features seen.
    public private(set) var featureCount = 0
    /// Features without geometry.
    public private(set) var nullGeometryCount = 0
    /// Features per shape kind, in `ShapeKind` order.
    public private(set) var kindCounts: [ShapeKind: Int] = [:]
    /// Vertices over all shapes.
    public private(set) var vertexCount = 0
    /// The extremes of every feature's `boundingMapRect` (no wrapping): their union, kept as
    /// four extremes rather than a rect so the result does not depend on the order of unions.
    private var unionMinX = Double.infinity, unionMinY = Double.infinity
    private var unionMaxX = -Double.infinity, unionMaxY = -Double.infinity
    /// Property keys in order of first appearance, each with the types seen, in order.
    public private(set) var propertyTypes: [(key: String, types: [String])] = []
    private var keyIndex: [String: Int] = [:]
    /// Per entry of `propertyTypes`, the types seen as bits (`typeBit`): a test, not a search.
    private var typeBits: [UInt8] = []
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
            for (position, member) in properties.members.enumerated() {
                note(key: member.key, at: position, type: member.value)
            }
        }
        guard let shape = feature.shape else {
            nullGeometryCount += 1
            return
        }
        kindCounts[shape.kind, default: 0] += 1
        vertexCount += shape.vertexCount
        noteRect(shape.boundingMapRect)
        visitCoordinates(of: shape)
        longitudes.add(shape)
    }

    /// Adds what `other` holds, as if the features it saw had been added here after those seen
    /// so far: counts add up, extremes combine (ties keep this summary's value, as `add` keeps
    /// the earlier feature's), keys and types new to this summary follow in `other`'s order.
    /// The result equals the summary of both streams one after the other, number for number.
    /// O(keys + 3600).
    /// - Parameter other: the summary of the features that follow this summary's.
    public mutating func merge(_ other: DatasetSummary) {
        featureCount += other.featureCount
        nullGeometryCount += other.nullGeometryCount
        for (kind, count) in other.kindCounts { kindCounts[kind, default: 0] += count }
        vertexCount += other.vertexCount
        if other.unionMinX < unionMinX { unionMinX = other.unionMinX }
        if other.unionMinY < unionMinY { unionMinY = other.unionMinY }
        if other.unionMaxX > unionMaxX { unionMaxX = other.unionMaxX }
        if other.unionMaxY > unionMaxY { unionMaxY = other.unionMaxY }
        for entry in other.propertyTypes {
            for type in entry.types { note(key: entry.key, at: -1, typeName: type, bit: Self.typeBit(type)) }
        }
        if other.minLatitude < minLatitude { minLatitude = other.minLatitude }
        if other.maxLatitude > maxLatitude { maxLatitude = other.maxLatitude }
        longitudes.merge(other.longitudes)
    }

    @inline(__always)
    private mutating func noteRect(_ rect: MapRect) {
        guard !rect.isNull else { return }
        if rect.minX < unionMinX { unionMinX = rect.minX }
        if rect.minY < unionMinY { unionMinY = rect.minY }
        if rect.maxX > unionMaxX { unionMaxX = rect.maxX }
        if rect.maxY > unionMaxY { unionMaxY = rect.maxY }
    }

    /// The union of every feature's rect: `MapRect.null` when none had one.
    private var unionRect: MapRect {
        guard unionMinX <= unionMaxX, unionMinY <= unionMaxY else { return .null }
        return MapRect(x: unionMinX, y: unionMinY, width: unionMaxX - unionMinX, height: unionMaxY - unionMinY)
    }

    /// The bit of a JSON type name (`JSONValue.typeName`) in `typeBits`; 0 for any other name.
    private static func typeBit(_ name: String) -> UInt8 {
        switch name {
        case "null": 1
        case "boolean": 2
        case "number": 4
        case "string": 8
        case "array": 16
        case "object": 32
        default: 0
        }
    }

    /// `typeBit(value.typeName)` without comparing strings.
    private static func typeBit(_ value: JSONValue) -> UInt8 {
        switch value {
        case .null: 1
        case .bool: 2
        case .integer, .number: 4
        case .string: 8
        case .array: 16
        case .object: 32
        }
    }

    private mutating func note(key: String, at position: Int, type value: JSONValue) {
        note(key: key, at: position, typeName: value.typeName, bit: Self.typeBit(value))
    }

    /// Notes `key` with a value of type `typeName`. Features of one source mostly list their
    /// keys in the same order, so the key at `position` is compared first (no hashing); the
    /// table decides otherwise.
    private mutating func note(key: String, at position: Int, typeName: String, bit: UInt8) {
        let index: Int
        if position >= 0, position < propertyTypes.count, propertyTypes[position].key == key {
            index = position
        } else if let known = keyIndex[key] {
            index = known
        } else {
            keyIndex[key] = propertyTypes.count
            propertyTypes.append((key, [typeName]))
            typeBits.append(bit)
            return
        }
        let seen = bit != 0 ? typeBits[index] & bit != 0 : propertyTypes[index].types.contains(typeName)
        if !seen {
            typeBits[index] |= bit
            propertyTypes[index].types.append(typeName)
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

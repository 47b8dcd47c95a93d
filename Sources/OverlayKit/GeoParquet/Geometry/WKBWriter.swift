import OverlayModel

/// A model shape as ISO well-known binary (little-endian), the writer's side of ``WKBReader``:
/// an annotation or a circle is a Point (a circle's radius travels as a property, as in GeoJSON),
/// a polyline a LineString, a multi-point collection a MultiPoint, a mixed one a
/// GeometryCollection. A shape with any altitude is written with Z (a position without one
/// takes 0). Rings follow RFC 7946's winding, as the GeoJSON writer writes them: exterior
/// counterclockwise, holes clockwise.
struct WKBWriter {
    /// The WKB bytes of the last shape written.
    private(set) var bytes: [UInt8] = []
    /// The extent of the last shape: x (longitude) and y (latitude), min and max.
    private(set) var bounds = GeometryBounds()
    private var hasZ = false

    /// The smallest box holding a geometry's positions, in degrees.
    struct GeometryBounds: Equatable {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var minZ = Double.infinity, maxZ = -Double.infinity

        /// True when no position was added.
        var isEmpty: Bool { minX > maxX }

        /// Grows the box to hold `coordinate`.
        mutating func add(_ coordinate: Coordinate) {
            minX = Swift.min(minX, coordinate.longitude)
            maxX = Swift.max(maxX, coordinate.longitude)
            minY = Swift.min(minY, coordinate.latitude)
            maxY = Swift.max(maxY, coordinate.latitude)
            if let altitude = coordinate.altitude {
                minZ = Swift.min(minZ, altitude)
                maxZ = Swift.max(maxZ, altitude)
            }
        }

        /// Grows the box to hold `other`.
        mutating func formUnion(_ other: GeometryBounds) {
            minX = Swift.min(minX, other.minX)
            maxX = Swift.max(maxX, other.maxX)
            minY = Swift.min(minY, other.minY)
            maxY = Swift.max(maxY, other.maxY)
            minZ = Swift.min(minZ, other.minZ)
            maxZ = Swift.max(maxZ, other.maxZ)
        }
    }

    /// The ISO WKB type code of a shape (1…7, plus 1000 with Z).
    private(set) var typeCode: UInt32 = 0

    /// The GeoParquet `geometry_types` name of the last shape ("Point", "MultiPolygon Z", …).
    var typeName: String {
        let names = ["", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"]
        let base = Int(typeCode % 1000)
        return names[base] + (typeCode >= 1000 ? " Z" : "")
    }

    /// Writes `shape`, replacing the previous one's bytes.
    mutating func write(_ shape: Shape) {
        bytes.removeAll(keepingCapacity: true)
        bounds = GeometryBounds()
        hasZ = Self.hasAltitude(shape)
        typeCode = geometry(shape)
    }

    private static func hasAltitude(_ shape: Shape) -> Bool {
        switch shape {
        case .annotation(let annotation): annotation.coordinate.altitude != nil
        case .circle(let circle): circle.center.altitude != nil
        case .polyline(let line): line.coordinates.contains { $0.altitude != nil }
        case .polygon(let polygon): polygon.rings.contains { $0.coordinates.contains { $0.altitude != nil } }
        case .multiPolyline(let multi): multi.polylines.contains { hasAltitude(.polyline($0)) }
        case .multiPolygon(let multi): multi.polygons.contains { hasAltitude(.polygon($0)) }
        case .collection(let collection): collection.members.contains(where: hasAltitude)
        }
    }

    private mutating func header(_ type: UInt32) -> UInt32 {
        let code = type + (hasZ ? 1000 : 0)
        bytes.append(1)
        uint32(code)
        return code
    }

    private mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func position(_ coordinate: Coordinate) {
        double(coordinate.longitude)
        double(coordinate.latitude)
        if hasZ { double(coordinate.altitude ?? 0) }
        bounds.add(coordinate)
    }

    private mutating func positions(_ coordinates: [Coordinate], reversed: Bool = false) {
        uint32(UInt32(coordinates.count))
        if reversed {
            for coordinate in coordinates.reversed() { position(coordinate) }
        } else {
            for coordinate in coordinates { position(coordinate) }
        }
    }

    /// Twice the ring's signed area in degrees: positive counterclockwise.
    private static func signedArea(_ ring: [Coordinate]) -> Double {
        ringTwiceSignedArea(count: ring.count) { (ring[$0].longitude, ring[$0].latitude) }
    }

    private mutating func rings(_ polygon: Polygon) {
        if polygon.pointCount == 0 && polygon.interiorPolygons.isEmpty {
            uint32(0)
            return
        }
        uint32(UInt32(1 + polygon.interiorPolygons.count))
        let exterior = polygon.coordinates
        positions(exterior, reversed: Self.signedArea(exterior) < 0)
        for hole in polygon.interiorPolygons {
            positions(hole.coordinates, reversed: Self.signedArea(hole.coordinates) > 0)
        }
    }

    @discardableResult
    private mutating func geometry(_ shape: Shape) -> UInt32 {
        switch shape {
        case .annotation(let annotation):
            let code = header(1)
            position(annotation.coordinate)
            return code
        case .circle(let circle):
            let code = header(1)
            position(circle.center)
            return code
        case .polyline(let line):
            let code = header(2)
            positions(line.coordinates)
            return code
        case .polygon(let polygon):
            let code = header(3)
            rings(polygon)
            return code
        case .multiPolyline(let multi):
            let code = header(5)
            uint32(UInt32(multi.polylines.count))
            for line in multi.polylines { geometry(.polyline(line)) }
            return code
        case .multiPolygon(let multi):
            let code = header(6)
            uint32(UInt32(multi.polygons.count))
            for polygon in multi.polygons { geometry(.polygon(polygon)) }
            return code
        case .collection(let collection):
            let allPoints = collection.members.allSatisfy { if case .annotation = $0 { true } else { false } }
            let code = header(collection.origin == .multiPoint && allPoints ? 4 : 7)
            uint32(UInt32(collection.members.count))
            for member in collection.members { geometry(member) }
            return code
        }
    }
}

import OverlayModel

/// Well-known binary (ISO and EWKB flags, either byte order) to a model shape. Counts are
/// checked against the bytes left before anything is allocated; nesting is bounded. Z is
/// kept as altitude, M dropped. An empty point is no shape.
public struct WKBReader {
    /// Why the bytes are not WKB, with the byte offset.
    public struct Failure: Error {
        /// What is wrong and at which byte.
        public let reason: String
    }

    private let bytes: ArraySlice<UInt8>
    private var position: Int
    private static let maxDepth = 16

    /// A reader of one geometry.
    private init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    /// The shape of `bytes` (nil for an empty point or empty geometry).
    public static func shape(_ bytes: ArraySlice<UInt8>) throws -> Shape? {
        var reader = WKBReader(bytes)
        let shape = try reader.geometry(depth: 0)
        guard reader.position == bytes.endIndex else {
            throw Failure(reason: "\(bytes.endIndex - reader.position) bytes after the geometry")
        }
        return shape
    }

    private struct Header { var littleEndian: Bool; var type: Int; var dimensions: Int; var hasZ: Bool }

    private var offset: Int { position - bytes.startIndex }

    private mutating func header() throws -> Header {
        guard position < bytes.endIndex else { throw Failure(reason: "the geometry ends at byte \(offset)") }
        let order = bytes[position]
        guard order <= 1 else { throw Failure(reason: "byte order \(order) at byte \(offset) is neither 0 nor 1") }
        position += 1
        let littleEndian = order == 1
        var raw = try uint32(littleEndian)
        var hasZ = raw & 0x8000_0000 != 0
        var hasM = raw & 0x4000_0000 != 0
        if raw & 0x2000_0000 != 0 { _ = try uint32(littleEndian) } // EWKB SRID
        raw &= 0x0FFF_FFFF
        let iso = Int(raw / 1000)
        guard iso <= 3 else { throw Failure(reason: "geometry type \(raw) at byte \(offset - 4) is not one of WKB's") }
        if iso == 1 || iso == 3 { hasZ = true }
        if iso == 2 || iso == 3 { hasM = true }
        let type = Int(raw % 1000)
        guard (1...7).contains(type) else { throw Failure(reason: "geometry type \(raw) at byte \(offset - 4) is not one of WKB's") }
        return Header(littleEndian: littleEndian, type: type, dimensions: 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0), hasZ: hasZ)
    }

    private mutating func uint32(_ littleEndian: Bool) throws -> UInt32 {
        guard bytes.endIndex - position >= 4 else { throw Failure(reason: "the geometry ends at byte \(offset)") }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[position + i])
            value |= littleEndian ? byte << (8 * UInt32(i)) : byte << (8 * UInt32(3 - i))
        }
        position += 4
        return value
    }

    private mutating func double(_ littleEndian: Bool) -> Double {
        var raw: UInt64 = 0
        for i in 0..<8 {
            let byte = UInt64(bytes[position + i])
            raw |= littleEndian ? byte << (8 * UInt64(i)) : byte << (8 * UInt64(7 - i))
        }
        position += 8
        return Double(bitPattern: raw)
    }

    private mutating func count(_ header: Header, minimumSize: Int, what: String) throws -> Int {
        let value = Int(try uint32(header.littleEndian))
        guard value <= (bytes.endIndex - position) / minimumSize else {
            throw Failure(reason: "\(value) \(what) at byte \(offset - 4) do not fit in the \(bytes.endIndex - position) bytes left")
        }
        return value
    }

    private mutating func coordinates(_ header: Header) throws -> [Coordinate] {
        let n = try count(header, minimumSize: 8 * header.dimensions, what: "points")
        var result = [Coordinate]()
        result.reserveCapacity(n)
        for _ in 0..<n { result.append(try coordinate(header)) }
        return result
    }

    private mutating func coordinate(_ header: Header) throws -> Coordinate {
        guard bytes.endIndex - position >= 8 * header.dimensions else { throw Failure(reason: "a point ends early at byte \(offset)") }
        let x = double(header.littleEndian)
        let y = double(header.littleEndian)
        let z = header.hasZ ? double(header.littleEndian) : nil
        if header.dimensions == 4 || (header.dimensions == 3 && !header.hasZ) { _ = double(header.littleEndian) }
        guard x.isFinite, y.isFinite else {
            throw Failure(reason: "a coordinate before byte \(offset) is not finite (\(x), \(y))")
        }
        return Coordinate(latitude: y, longitude: x, altitude: z.flatMap { $0.isFinite ? $0 : nil })
    }

    private mutating func polygon(_ header: Header) throws -> Polygon? {
        let ringCount = try count(header, minimumSize: 4, what: "rings")
        var rings = [[Coordinate]]()
        for _ in 0..<ringCount { rings.append(try coordinates(header)) }
        guard let exterior = rings.first else { return nil }
        return Polygon(coordinates: exterior, interiorPolygons: rings.dropFirst().map { Polygon(coordinates: $0) })
    }

    private mutating func geometry(depth: Int) throws -> Shape? {
        guard depth <= Self.maxDepth else { throw Failure(reason: "collections nest deeper than \(Self.maxDepth)") }
        let header = try header()
        switch header.type {
        case 1:
            guard bytes.endIndex - position >= 8 * header.dimensions else { throw Failure(reason: "a point ends early at byte \(offset)") }
            let start = position
            let x = double(header.littleEndian)
            let y = double(header.littleEndian)
            if x.isNaN && y.isNaN {
                position = start + 8 * header.dimensions
                return nil
            }
            position = start
            return .annotation(PointAnnotation(coordinate: try coordinate(header)))
        case 2:
            let points = try coordinates(header)
            return points.isEmpty ? nil : .polyline(Polyline(coordinates: points))
        case 3:
            return try polygon(header).map(Shape.polygon)
        default:
            let n = try count(header, minimumSize: 5, what: "members")
            var members = [Shape]()
            for _ in 0..<n {
                let memberStart = offset
                let member = try geometry(depth: depth + 1)
                let expected: ShapeKind? = header.type == 4 ? .annotation : header.type == 5 ? .polyline : header.type == 6 ? .polygon : nil
                if let expected, let member, member.kind != expected {
                    throw Failure(reason: "a member at byte \(memberStart) of a multi geometry is a \(member.kind), not a \(expected)")
                }
                if let member { members.append(member) }
            }
            guard !members.isEmpty else { return nil }
            switch header.type {
            case 4: return .collection(ShapeCollection(members: members, origin: .multiPoint))
            case 5: return .multiPolyline(MultiPolyline(members.compactMap { if case .polyline(let line) = $0 { line } else { nil } }))
            case 6: return .multiPolygon(MultiPolygon(members.compactMap { if case .polygon(let polygon) = $0 { polygon } else { nil } }))
            default: return .collection(ShapeCollection(members: members, origin: .geometryCollection))
            }
        }
    }
}

import OverlayModel

/// The bytes of one projected feature in a `SpillFile`: the tile it is filed under, the
/// feature's flat buffers exactly (doubles as stored, so tiles cut from it are the same bit
/// for bit as from memory) and its id and properties, all little-endian:
///
///     u32 length of what follows
///     u32 x, u32 y              tile at the level's zoom
///     i64 source                input position
///     u8 type (0: no geometry), u8 has-metrics
///     f64 minX, minY, maxX, maxY
///     f64 start, end, size      line metrics, when present
///     u32 rings, then each: u32 start, u32 count, f64 size, u8 outer
///     u32 doubles, then the x, y, importance triples
///     the attributes (`AttributeCodec`) to the end
enum SpillRecord {
    /// Offset of `x` in a record's bytes (after the length).
    static let tileOffset = 0

    /// The tile a record is filed under, read without decoding the rest.
    @inline(__always)
    static func tile(_ bytes: UnsafeRawBufferPointer) -> (x: UInt32, y: UInt32) {
        (bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self), bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    }

    /// The input position a record belongs to.
    @inline(__always)
    static func source(_ bytes: UnsafeRawBufferPointer) -> Int {
        Int(bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self))
    }

    /// A record's geometry type (nil: no geometry) and bounds, read without decoding the rest.
    @inline(__always)
    static func header(_ bytes: UnsafeRawBufferPointer) -> (type: TileGeometryType?, bounds: FeatureBounds) {
        var bounds = FeatureBounds()
        let type = TileGeometryType(rawValue: Int(bytes[16]))
        if type != nil {
            func double(_ at: Int) -> Double { Double(bitPattern: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            bounds.minX = double(18)
            bounds.minY = double(26)
            bounds.maxX = double(34)
            bounds.maxY = double(42)
        }
        return (type, bounds)
    }

    /// Appends `bytes` (a whole record) as it stands, with its length.
    static func appendFramed(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: bytes)
    }

    /// Appends `bytes` (a whole record) filed under another tile, with its length.
    static func appendCopy(_ bytes: UnsafeRawBufferPointer, tile: (x: UInt32, y: UInt32), to out: inout [UInt8]) {
        let start = out.count + 4
        appendFramed(bytes, to: &out)
        withUnsafeBytes(of: tile.x.littleEndian) { for index in 0..<4 { out[start + index] = $0[index] } }
        withUnsafeBytes(of: tile.y.littleEndian) { for index in 0..<4 { out[start + 4 + index] = $0[index] } }
    }

    /// Appends one record for `feature` (nil: a feature without geometry, kept for its attributes).
    static func append<Bytes: Collection<UInt8>>(_ feature: ProjectedFeature?, source: Int, tile: (x: UInt32, y: UInt32),
                                                 attributes: Bytes, to out: inout [UInt8]) {
        let lengthAt = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        put(tile.x, &out)
        put(tile.y, &out)
        put(Int64(source), &out)
        if let feature {
            out.append(UInt8(feature.type.rawValue))
            out.append(feature.metrics == nil ? 0 : 1)
            for value in [feature.minX, feature.minY, feature.maxX, feature.maxY] { put(value.bitPattern, &out) }
            if let metrics = feature.metrics {
                for value in [metrics.start, metrics.end, metrics.size] { put(value.bitPattern, &out) }
            }
            put(UInt32(feature.rings.count), &out)
            for ring in feature.rings {
                put(UInt32(ring.start), &out)
                put(UInt32(ring.count), &out)
                put(ring.size.bitPattern, &out)
                out.append(ring.isOuter ? 1 : 0)
            }
            put(UInt32(feature.coordinates.count), &out)
            feature.coordinates.withUnsafeBytes { out.append(contentsOf: $0) }
        } else {
            out.append(0)
            out.append(0)
        }
        out.append(contentsOf: attributes)
        let length = UInt32(out.count - lengthAt - 4)
        withUnsafeBytes(of: length.littleEndian) { bytes in
            for index in 0..<4 { out[lengthAt + index] = bytes[index] }
        }
    }

    /// The feature in a record (nil for one without geometry) and where its attributes start.
    static func feature(_ bytes: UnsafeRawBufferPointer) -> (feature: ProjectedFeature?, attributesAt: Int) {
        var at = 16
        let type = bytes[at], hasMetrics = bytes[at + 1] != 0
        at += 2
        guard let geometryType = TileGeometryType(rawValue: Int(type)) else { return (nil, at) }
        func double() -> Double {
            defer { at += 8 }
            return Double(bitPattern: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        func integer() -> Int {
            defer { at += 4 }
            return Int(bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
        }
        let minX = double(), minY = double(), maxX = double(), maxY = double()
        var metrics: LineMetrics?
        if hasMetrics { metrics = LineMetrics(start: double(), end: double(), size: double()) }
        let ringCount = integer()
        var rings = [ProjectedRing]()
        rings.reserveCapacity(ringCount)
        for _ in 0..<ringCount {
            let start = integer(), count = integer(), size = double()
            rings.append(ProjectedRing(start: start, count: count, size: size, isOuter: bytes[at] != 0))
            at += 1
        }
        let doubles = integer()
        let coordinates = [Double](unsafeUninitializedCapacity: doubles) { storage, initialized in
            UnsafeMutableRawBufferPointer(storage).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[at..<at + doubles * 8]))
            initialized = doubles
        }
        at += doubles * 8
        var feature = ProjectedFeature(bounded: geometryType, coordinates: coordinates, rings: rings, source: source(bytes),
                                       minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        feature.metrics = metrics
        return (feature, at)
    }

    @inline(__always)
    private static func put<Value: FixedWidthInteger>(_ value: Value, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }
}

extension ProjectedFeature {
    /// A feature whose bounds are already known (read back from a spill file).
    init(bounded type: TileGeometryType, coordinates: [Double], rings: [ProjectedRing], source: Int,
         minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.init(type: type, coordinates: [], rings: [], source: source)
        self.coordinates = coordinates
        self.rings = rings
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
}

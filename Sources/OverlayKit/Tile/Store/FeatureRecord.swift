import OverlayModel

/// The bytes of one projected feature (or one piece of it) in a `RecordFile`: the tile it is
/// filed under, where it stands in the run's order, its tags, the feature's flat buffers
/// exactly (doubles as stored, so tiles cut from it are the same bit for bit as from memory)
/// and its id and properties, all little-endian:
///
///     u32 length of what follows (the frame; `bytes` below start after it)
///  0  u32 x, u32 y              tile at the level's zoom
///  8  i64 source                input position
/// 16  u8 member minzoom, u8 member maxzoom, u8 thinned minzoom, u8 group (0 west copy, 1 the
///     feature, 2 east copy: the antimeridian copies' order)
/// 20  u32 where zooms
/// 24  u16 layer, u8 type (0: no geometry), u8 flags (bit 0: line metrics; bits 1–7: the
///     shared-border zoom tag, `FeatureTags.sharedBordersThrough`)
/// 28  u32 part                  the piece's place among its source's pieces
/// 32  u64 anchor                the feature's anchor (`SpatialOrder.key`; 0 without one): the
///     partition that owns it, in a run split over machines (`TileJob`)
/// 40  f64 minX, minY, maxX, maxY
///     f64 start, end, size      line metrics, when present
///     u32 rings, then each: u32 start, u32 count, f64 size, u8 outer
///     u32 doubles, then the x, y, importance triples
///     the attributes (`AttributeCodec`) to the end
///
/// A tile's records are in the run's order: group, then source, then part, as the features
/// of a tile in memory are (`AntimeridianWrap` puts west copies first and east copies last).
enum FeatureRecord {
    private static let typeOffset = 26
    private static let boundsOffset = 40

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

    /// Where the record stands in the run's order: group, source, part.
    @inline(__always)
    static func order(_ bytes: UnsafeRawBufferPointer) -> (group: UInt8, source: Int, part: UInt32) {
        (bytes[19], source(bytes), bytes.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
    }

    /// The feature's anchor key (0 without one).
    @inline(__always)
    static func anchor(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: 32, as: UInt64.self)
    }

    /// The record's tags, read without decoding the rest.
    @inline(__always)
    static func tags(_ bytes: UnsafeRawBufferPointer) -> FeatureTags {
        var tags = FeatureTags()
        tags.memberMinZoom = bytes[16]
        tags.memberMaxZoom = bytes[17]
        tags.thinnedMinZoom = bytes[18]
        tags.whereZooms = bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self)
        tags.layer = bytes.loadUnaligned(fromByteOffset: 24, as: UInt16.self)
        tags.sharedBordersThrough = bytes[typeOffset + 1] >> 1
        return tags
    }

    /// A record's geometry type (nil: no geometry) and bounds, read without decoding the rest.
    @inline(__always)
    static func header(_ bytes: UnsafeRawBufferPointer) -> (type: TileGeometryType?, bounds: FeatureBounds) {
        var bounds = FeatureBounds()
        let type = TileGeometryType(rawValue: Int(bytes[typeOffset]))
        if type != nil {
            func double(_ at: Int) -> Double { Double(bitPattern: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            bounds.minX = double(boundsOffset)
            bounds.minY = double(boundsOffset + 8)
            bounds.maxX = double(boundsOffset + 16)
            bounds.maxY = double(boundsOffset + 24)
        }
        return (type, bounds)
    }

    /// Appends `bytes` (a whole record) as it stands, with its length.
    static func appendFramed(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: bytes)
    }

    /// Appends `bytes` (a whole record) filed under another tile, with its length; `fixed`,
    /// when given, replaces the record's input position, thinned minzoom, layer and shared-border tag (zoom 0's
    /// records learn them once the whole input is read).
    static func appendCopy(_ bytes: UnsafeRawBufferPointer, tile: (x: UInt32, y: UInt32),
                           fixed: (source: Int, tags: FeatureTags)? = nil, to out: inout [UInt8]) {
        let start = out.count + 4
        appendFramed(bytes, to: &out)
        out.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: tile.x.littleEndian, toByteOffset: start, as: UInt32.self)
            raw.storeBytes(of: tile.y.littleEndian, toByteOffset: start + 4, as: UInt32.self)
            guard let fixed else { return }
            raw.storeBytes(of: Int64(fixed.source).littleEndian, toByteOffset: start + 8, as: Int64.self)
            raw[start + 18] = fixed.tags.thinnedMinZoom
            raw.storeBytes(of: fixed.tags.layer.littleEndian, toByteOffset: start + 24, as: UInt16.self)
            raw[start + typeOffset + 1] = raw[start + typeOffset + 1] & 1 | fixed.tags.sharedBordersThrough << 1
        }
    }

    /// Appends one record for `feature` (nil: a feature without geometry, kept for its attributes).
    static func append<Bytes: Collection<UInt8>>(_ feature: ProjectedFeature?, source: Int, tags: FeatureTags, group: UInt8,
                                                 part: Int, anchor: UInt64 = 0, tile: (x: UInt32, y: UInt32),
                                                 attributes: Bytes, to out: inout [UInt8]) {
        let lengthAt = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        put(tile.x, &out)
        put(tile.y, &out)
        put(Int64(source), &out)
        out.append(tags.memberMinZoom)
        out.append(tags.memberMaxZoom)
        out.append(tags.thinnedMinZoom)
        out.append(group)
        put(tags.whereZooms, &out)
        put(tags.layer, &out)
        out.append(UInt8(feature?.type.rawValue ?? 0))
        out.append((feature?.metrics == nil ? 0 : 1) | tags.sharedBordersThrough << 1)
        put(UInt32(truncatingIfNeeded: part), &out)
        put(anchor, &out)
        if let feature {
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
        }
        out.append(contentsOf: attributes)
        let length = UInt32(out.count - lengthAt - 4)
        withUnsafeBytes(of: length.littleEndian) { bytes in
            for index in 0..<4 { out[lengthAt + index] = bytes[index] }
        }
    }

    /// The feature in a record (nil for one without geometry), tags included, and where its
    /// attributes start.
    static func feature(_ bytes: UnsafeRawBufferPointer) -> (feature: ProjectedFeature?, attributesAt: Int) {
        var at = boundsOffset
        guard let geometryType = TileGeometryType(rawValue: Int(bytes[typeOffset])) else { return (nil, at) }
        let hasMetrics = bytes[typeOffset + 1] & 1 != 0
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
        feature.tags = tags(bytes)
        return (feature, at)
    }

    @inline(__always)
    private static func put<Value: FixedWidthInteger>(_ value: Value, _ out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }
}

extension ProjectedFeature {
    /// A feature whose bounds are already known (read back from a record file).
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

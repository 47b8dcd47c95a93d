import OverlayModel

/// A `TileSource`'s features in temporary files instead of memory: the projected input in
/// input order (the parts read on separate threads each in a file of their own), and the
/// first level `ExternalPyramid` reads (wrapped across the antimeridian as
/// `AntimeridianWrap` does). What tiling needs of every feature at once is kept beside them
/// in memory, a few bytes per feature: the anchors thinning and zoom guessing sort.
final class SpilledFeatures: @unchecked Sendable {
    /// Where the files are made.
    let folder: String
    /// What the files hold now and at most.
    let usage = SpillUsage()
    /// The projected input, in input order: each file with the input position its records count from.
    private(set) var input: [(file: SpillFile, firstSource: Int)]
    /// Zoom 0's files: the copies wrapped from beyond the west edge, the features, the copies
    /// from beyond the east edge (records in that order, as `AntimeridianWrap` orders them).
    private(set) var firstLevel = [SpillFile]()
    /// By input position, the `SpatialOrder` key of the feature's first vertex, on the map
    /// when a wrapped copy puts it there (as `TileSource.anchors` picks it); `anchorRank`
    /// `.max` when it has none.
    private(set) var anchorKeys = [UInt64]()
    private(set) var anchorRank = [UInt8]()
    /// By input position, whether some part of the feature is not a point.
    private(set) var notPoint = [Bool]()
    /// `MaxZoomGuess`'s vertex spacing of the wrapped lines and polygons.
    private(set) var vertexSpacing = MaxZoomGuess.VertexSpacing()
    /// The polygons' exterior area, each input feature once (`estimatedPolygonTiles`).
    private(set) var polygonArea = 0.0

    /// An empty store writing into `folder`.
    init(folder: String) {
        self.folder = folder
        input = []
    }

    /// Bytes of the projected input's files.
    var inputBytes: Int { input.reduce(0) { $0 + $1.file.size } }

    /// Hands zoom 0's files over to the one pyramid that reads them, so each level's files are
    /// freed as soon as the next is cut.
    func takeFirstLevel() -> [SpillFile] {
        defer { firstLevel = [] }
        return firstLevel
    }

    /// Takes `later`'s files, their input positions moved on by `offset`.
    func append(_ later: SpilledFeatures, offset: Int) {
        for (file, _) in later.input { file.count(in: usage) }
        input += later.input.map { ($0.file, $0.firstSource + offset) }
    }

    /// Adds a file of projected records whose sources count from `firstSource`.
    func add(_ file: SpillFile, firstSource: Int) {
        input.append((file, firstSource))
    }

    /// Calls `body` with every input record in input order: its feature (nil without geometry)
    /// with its absolute input position, and the record's bytes and where its attributes start.
    func forEachInputRecord(_ body: (ProjectedFeature?, Int, UnsafeRawBufferPointer, Int) throws -> Void) throws {
        for (file, firstSource) in input {
            var reader = try SpillReader(file)
            while try reader.next({ (bytes: UnsafeRawBufferPointer) -> Void in
                var (feature, attributesAt) = SpillRecord.feature(bytes)
                let source = SpillRecord.source(bytes) + firstSource
                feature?.source = source
                try body(feature, source, bytes, attributesAt)
            }) != nil {}
        }
    }

    /// Writes zoom 0's files from the input and measures what is kept in memory, for
    /// `featureCount` input features wrapped with `buffer` (a fraction of the world).
    func prepareFirstLevel(featureCount: Int, buffer: Double, onFeature: (ProjectedFeature) -> Void = { _ in }) throws {
        anchorKeys = Array(repeating: 0, count: featureCount)
        anchorRank = Array(repeating: .max, count: featureCount)
        notPoint = Array(repeating: false, count: featureCount)
        var areaCounted = [Bool](repeating: false, count: featureCount)
        let world = MapProjection.worldSize
        // West copies, features, east copies: AntimeridianWrap's order. The files buffer writes.
        let files = try (0..<3).map { _ in try SpillFile(in: folder, usage: usage) }
        var record = [UInt8]()
        var centerClipped = false
        var spacing = [MaxZoomGuess.VertexSpacing](repeating: .init(), count: 3)
        func write(_ part: ProjectedFeature, group: Int, attributes: UnsafeRawBufferPointer) throws {
            record.removeAll(keepingCapacity: true)
            SpillRecord.append(part, source: part.source, tile: (0, 0), attributes: attributes, to: &record)
            try files[group].append(record)
            spacing[group].add(part)
            if part.type != .point { notPoint[part.source] = true }
            // The first on-map vertex wins, wrapped copies in AntimeridianWrap's order.
            if part.coordinates.count >= 2 {
                let x = part.coordinates[0]
                let rank = UInt8((0..<world).contains(x) ? 0 : 3) + UInt8(group)
                if rank < anchorRank[part.source] {
                    anchorRank[part.source] = rank
                    anchorKeys[part.source] = SpatialOrder.key(x: x, y: part.coordinates[1])
                }
            }
        }
        try forEachInputRecord { feature, source, bytes, attributesAt in
            guard let feature else { return }
            onFeature(feature)
            let attributes = UnsafeRawBufferPointer(rebasing: bytes[attributesAt...])
            if feature.type == .polygon && !areaCounted[source] {
                areaCounted[source] = true
                for ring in feature.rings where ring.isOuter { polygonArea += ring.size }
            }
            let parts = AntimeridianWrap.copies(of: feature, buffer: buffer)
            for part in parts.west { try write(part, group: 0, attributes: attributes) }
            if parts.center != [feature] { centerClipped = true }
            for part in parts.center { try write(part, group: 1, attributes: attributes) }
            for part in parts.east { try write(part, group: 2, attributes: attributes) }
        }
        if files[0].size == 0 && files[2].size == 0 && centerClipped {
            // Nothing wraps: AntimeridianWrap keeps every feature as it is, unclipped.
            let unclipped = try SpillFile(in: folder, usage: usage)
            spacing = [.init(), .init(), .init()]
            try forEachInputRecord { feature, _, bytes, attributesAt in
                guard let feature else { return }
                record.removeAll(keepingCapacity: true)
                SpillRecord.append(feature, source: feature.source, tile: (0, 0),
                                   attributes: UnsafeRawBufferPointer(rebasing: bytes[attributesAt...]), to: &record)
                try unclipped.append(record)
                spacing[1].add(feature)
            }
            firstLevel = [unclipped]
        } else {
            firstLevel = files
        }
        vertexSpacing = spacing[0]
        vertexSpacing.merge(spacing[1])
        vertexSpacing.merge(spacing[2])
    }
}

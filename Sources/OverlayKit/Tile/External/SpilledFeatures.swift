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
    func prepareFirstLevel(featureCount: Int, buffer: Double) throws {
        anchorKeys = Array(repeating: 0, count: featureCount)
        anchorRank = Array(repeating: .max, count: featureCount)
        notPoint = Array(repeating: false, count: featureCount)
        var areaCounted = [Bool](repeating: false, count: featureCount)
        let world = MapProjection.worldSize
        let west = try SpillFile(in: folder, usage: usage), center = try SpillFile(in: folder, usage: usage), east = try SpillFile(in: folder, usage: usage)
        var westBytes = [UInt8](), centerBytes = [UInt8](), eastBytes = [UInt8]()
        var centerClipped = false
        var spacing = [MaxZoomGuess.VertexSpacing](repeating: .init(), count: 3)
        func write(_ part: ProjectedFeature, group: Int, attributes: UnsafeRawBufferPointer) throws {
            switch group {
            case 0: SpillRecord.append(part, source: part.source, tile: (0, 0), attributes: attributes, to: &westBytes)
            case 1: SpillRecord.append(part, source: part.source, tile: (0, 0), attributes: attributes, to: &centerBytes)
            default: SpillRecord.append(part, source: part.source, tile: (0, 0), attributes: attributes, to: &eastBytes)
            }
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
            try flushFull(&westBytes, west)
            try flushFull(&centerBytes, center)
            try flushFull(&eastBytes, east)
        }
        try forEachInputRecord { feature, source, bytes, attributesAt in
            guard let feature else { return }
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
        try west.append(westBytes)
        try center.append(centerBytes)
        try east.append(eastBytes)
        if west.size == 0 && east.size == 0 && centerClipped {
            // Nothing wraps: AntimeridianWrap keeps every feature as it is, unclipped.
            let unclipped = try SpillFile(in: folder, usage: usage)
            var bytes = [UInt8]()
            spacing = [.init(), .init(), .init()]
            try forEachInputRecord { feature, _, record, attributesAt in
                guard let feature else { return }
                SpillRecord.append(feature, source: feature.source, tile: (0, 0),
                                   attributes: UnsafeRawBufferPointer(rebasing: record[attributesAt...]), to: &bytes)
                spacing[1].add(feature)
                try flushFull(&bytes, unclipped)
            }
            try unclipped.append(bytes)
            firstLevel = [unclipped]
        } else {
            firstLevel = [west, center, east]
        }
        vertexSpacing = spacing[0]
        vertexSpacing.merge(spacing[1])
        vertexSpacing.merge(spacing[2])
    }

    /// Appends `bytes` to `file` once they fill a megabyte.
    private func flushFull(_ bytes: inout [UInt8], _ file: SpillFile) throws {
        guard bytes.count >= 1 << 20 else { return }
        try file.append(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

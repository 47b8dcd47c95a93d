import OverlayModel

/// Joins several vector tile sets into one, as tippecanoe's `tile-join` does: every z/x/y held
/// by any input becomes one tile whose same-named layers are merged (`VectorTileMerger`).
///
/// Streaming over tile ids: memory holds the sorted id list and the tiles of one z/x/y at a time.
public struct TileJoin: Sendable {
    /// One input as the join reads it: its tile ids and, for each, the uncompressed MVT bytes.
    public struct Input: Sendable {
        /// A name for messages (the path).
        public var name: String
        /// Every tile id the input holds.
        public var tileIDs: [TileID]
        /// The uncompressed MVT bytes of a tile, nil when absent.
        public var read: @Sendable (TileID) throws -> [UInt8]?

        /// Creates an input.
        public init(name: String, tileIDs: [TileID], read: @escaping @Sendable (TileID) throws -> [UInt8]?) {
            self.name = name
            self.tileIDs = tileIDs
            self.read = read
        }
    }

    /// What the join wrote and how each tile was made.
    public struct Counts: Hashable, Sendable {
        /// Tiles written, their bytes (in the output's encoding) and features, per zoom and in
        /// all, and the tiles the filters left empty.
        public var written = TileWriteCounts()
        /// Tiles held by more than one input, merged.
        public var mergedTiles = 0
        /// Tiles held by one input and copied byte for byte (no renaming or filtering asked).
        public var copiedTiles = 0
        /// Tiles held by one input and rewritten because layers or properties were filtered or
        /// renamed. Merged, copied and rewritten tiles add up to ``tiles``.
        public var rewrittenTiles = 0

        /// No tiles yet.
        public init() {}

        /// Tiles written.
        public var tiles: Int { written.tiles }
        /// Tiles left without layers by the layer filters: not written.
        public var emptyTiles: Int { written.emptyTiles }
        /// Uncompressed bytes written.
        public var bytes: Int { written.bytes }
    }

    /// How layers and properties are merged, renamed and filtered.
    public var merger: VectorTileMerger
    /// Only tiles at these zooms are written (tile-join's `-z`/`-Z`); nil keeps every zoom.
    public var zooms: ClosedRange<Int>?
    /// The encoding tiles are written in: MVT as merged, or converted to MLT.
    public var encoding: TileEncoding

    /// Creates a join.
    public init(merger: VectorTileMerger = VectorTileMerger(), zooms: ClosedRange<Int>? = nil, encoding: TileEncoding = .mvt) {
        self.merger = merger
        self.zooms = zooms
        self.encoding = encoding
    }

    /// The encoding of the joined tiles: `requested`, else the one every input shares.
    /// - Throws: `tilejoin.format-mismatch` when inputs mix MVT and MLT and no encoding is
    ///   requested, or an input holds tiles of no vector encoding.
    public static func outputEncoding(_ inputs: [(name: String, format: String)], requested: TileEncoding?) throws -> TileEncoding {
        var encodings = [TileEncoding]()
        for input in inputs {
            guard let encoding = TileEncoding(metadataFormat: input.format.lowercased()), encoding != .geojson else {
                throw Diagnostic(.error, code: .tilejoinFormatMismatch,
                                 message: "\(input.name) holds \(input.format) tiles; tile-join joins vector tiles (MVT or MLT)")
            }
            encodings.append(encoding)
        }
        if let requested { return requested }
        guard let first = encodings.first, encodings.allSatisfy({ $0 == first }) else {
            let named = zip(inputs, encodings).map { "\($0.0.name) (\($0.1.rawValue))" }.joined(separator: ", ")
            throw Diagnostic(.error, code: .tilejoinFormatMismatch,
                             message: "the inputs mix MVT and MLT tiles: \(named); give --tile-format mvt or mlt to convert them")
        }
        return first
    }

    /// Warnings for inputs that hold no tiles.
    /// - Throws: `Diagnostic` `tilejoin.no-tiles` when no input holds any: there is nothing to
    ///   join, and an empty output would hide the mistake (a wrong or empty directory).
    public static func checkHoldTiles(_ inputs: [Input]) throws -> [Diagnostic] {
        let empty = inputs.filter(\.tileIDs.isEmpty)
        if empty.count == inputs.count {
            throw Diagnostic(.error, code: .tilejoinNoTiles,
                             message: "no tiles to join: \(empty.map(\.name).joined(separator: ", ")) hold\(empty.count == 1 ? "s" : "") no tiles")
        }
        return empty.map {
            Diagnostic(.warning, code: .tilejoinEmptyInput, message: "\($0.name) holds no tiles; the other inputs are joined")
        }
    }

    /// Every tile id of the inputs within ``zooms``, once, in `order` (default: zoom, then x,
    /// then y).
    public func tileIDs(_ inputs: [Input], order: (TileID, TileID) -> Bool = TileJoin.zxyOrder) -> [TileID] {
        tileIDsAndOutsideZooms(inputs, order: order).ids
    }

    /// ``tileIDs(_:order:)`` and how many distinct ids ``zooms`` leaves out.
    func tileIDsAndOutsideZooms(_ inputs: [Input], order: (TileID, TileID) -> Bool = TileJoin.zxyOrder) -> (ids: [TileID], outside: Int) {
        var ids = inputs.flatMap(\.tileIDs)
        ids.sort(by: order)
        var unique = [TileID](), outside = 0
        unique.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() where index == 0 || ids[index - 1] != id {
            if let zooms, !zooms.contains(id.z) { outside += 1 } else { unique.append(id) }
        }
        return (unique, outside)
    }

    /// Zoom, then x, then y.
    public static func zxyOrder(_ a: TileID, _ b: TileID) -> Bool {
        (a.z, a.x, a.y) < (b.z, b.x, b.y)
    }

    /// Merges each tile id's tiles from every input and hands the result, in ``encoding``, to
    /// `write`, in `ids` order.
    /// - Throws: `Diagnostic` `mvt.bad-tile` naming the input and tile when one does not decode,
    ///   or what `read`/`write` throw.
    public func run(_ inputs: [Input], ids: [TileID], write: (TileID, [UInt8]) throws -> Void) throws -> Counts {
        var counts = Counts()
        let copyUnchanged = merger.options == VectorTileMerger.Options()
        let decoder = MVTDecoder()
        for id in ids {
            var found = [(input: Int, bytes: [UInt8])]()
            for (index, input) in inputs.enumerated() {
                if let bytes = try input.read(id) { found.append((index, bytes)) }
            }
            guard !found.isEmpty else { continue }
            var layers = [[MVTLayer]]()
            for (index, bytes) in found {
                do {
                    layers.append(try decoder.decode(bytes))
                } catch let diagnostic as Diagnostic {
                    throw Diagnostic(.error, code: diagnostic.code,
                                     message: "\(inputs[index].name) tile \(id.z)/\(id.x)/\(id.y): \(diagnostic.message)")
                }
            }
            var output: [UInt8]
            let merged: [MVTLayer]
            if found.count == 1 && copyUnchanged {
                // Decoded above only to check it and count features; the bytes go out as they came.
                merged = layers[0]
                output = found[0].bytes
                counts.copiedTiles += 1
            } else {
                merged = try merger.merge(layers)
                guard !merged.isEmpty else {
                    counts.written.addEmptyTile(atZoom: id.z)
                    continue
                }
                output = VectorTileMerger.encode(merged)
                if found.count > 1 { counts.mergedTiles += 1 } else { counts.rewrittenTiles += 1 }
            }
            if encoding != .mvt { output = try VectorTileTranscoder.transcode(output, from: .mvt, to: encoding) }
            try write(id, output)
            counts.written.add(bytesEach: output.count, features: merged.reduce(0) { $0 + $1.features.count }, atZoom: id.z)
        }
        return counts
    }

    /// The joined set's metadata: the inputs' united with this join's filters
    /// (`TileMetadataMerger`), in ``encoding``, then corrected by what was written: zooms outside
    /// ``zooms`` leave the zoom range, the layers' and the center's, and the drop report; the
    /// report's per-zoom `tiles`, `bytes` and `features` (summed over inputs they would count a
    /// merged tile twice) are the written ones.
    public func metadata(merging inputs: [TileSetMetadata], counts: Counts) -> TileSetMetadata {
        var merged = TileMetadataMerger(options: merger.options).merge(inputs)
            ?? TileSetMetadata(name: "", bounds: nil, center: nil, minZoom: 0, maxZoom: 0, vectorLayers: [])
        merged.format = encoding.metadataFormat
        if let zooms {
            func clamped(_ zoom: Int) -> Int { min(max(zoom, zooms.lowerBound), zooms.upperBound) }
            merged.minZoom = clamped(merged.minZoom)
            merged.maxZoom = clamped(merged.maxZoom)
            if let zoom = merged.center?.zoom { merged.center?.zoom = clamped(zoom) }
            for index in merged.vectorLayers.indices {
                merged.vectorLayers[index].minZoom = clamped(merged.vectorLayers[index].minZoom)
                merged.vectorLayers[index].maxZoom = clamped(merged.vectorLayers[index].maxZoom)
            }
        }
        if var report = merged.dropReport {
            report.zooms = report.zooms.compactMap { entry in
                if let zooms, !zooms.contains(entry.zoom) { return nil }
                let written = counts.written.zooms.indices.contains(entry.zoom)
                    ? counts.written.zooms[entry.zoom] : TileZoomCounts(zoom: entry.zoom)
                var corrected = entry
                corrected.tiles = written.tiles
                corrected.bytes = written.bytes
                corrected.statistics.features = written.statistics.features
                return corrected
            }
            merged.dropReport = report
        }
        return merged
    }
}

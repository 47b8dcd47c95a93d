import Foundation
import OverlayModel

/// Encodes the tiles `TilePyramid.build` emits (MVT or GeoJSON) and hands them to an archive
/// writer, from several threads at once; counts what MVT could not hold and what was written.
///
/// ```swift
/// let writer = try TileArchive.create("out.pmtiles")
/// let sink = TileArchiveSink(writer: writer, layer: "places")
/// let zooms = try TilePyramid.build(source, minZoom: 0, emit: sink.write)
/// try writer.finish(metadata: sink.metadata(for: source, minZoom: 0, zooms: zooms))
/// ```
public final class TileArchiveSink: @unchecked Sendable {
    /// The running counts handed to `onProgress`: tiles written, in all and per zoom (the
    /// name before ``TileWriteCounts``, which `TileJoin` reports too).
    public typealias Progress = TileWriteCounts

    /// Where tiles go.
    public let writer: any TileArchiveWriter
    /// The layer name in every MVT tile.
    public let layer: String
    /// How tiles are encoded.
    public let encoding: TileEncoding
    /// What each tile may hold; a tile over it is reduced before it is written.
    public let budget: TileBudget
    private var mvt: LayeredMVTEncoder
    private let compressesStrings: Bool
    /// The layer of each feature when tiles have several (nil: every feature in ``layer``).
    private var layers: TileLayers?
    private let geoJSON: TileGeoJSONEncoder
    private let lock = NSLock()
    private var lossTotal = TileEncodingLosses()
    private var counts = TileWriteCounts()
    private var blockTilesOneByOne = 0
    private let onProgress: (@Sendable (TileWriteCounts) -> Void)?

    /// A sink that encodes each tile and hands it to `writer`.
    /// - Parameters:
    ///   - writer: the archive (directory, PMTiles, MBTiles) the tiles go to.
    ///   - layer: the name of the one layer every tile carries.
    ///   - encoding: MVT, or GeoJSON tiles (directories only).
    ///   - precision: decimal places of GeoJSON tile coordinates.
    ///   - onProgress: called after every tile (under a lock, keep it quick) with the running counts.
    ///   - budget: the bytes and features a tile may hold (unlimited unless given).
    ///   - compressesStrings: MLT text may be FSST-compressed (false for tiles gzipped after:
    ///     `Tiler` passes whether its output is a directory).
    public init(writer: any TileArchiveWriter, layer: String, encoding: TileEncoding = .mvt, precision: Int = 7,
                budget: TileBudget = .unlimited, compressesStrings: Bool = true,
                onProgress: (@Sendable (TileWriteCounts) -> Void)? = nil) {
        self.writer = writer
        self.budget = budget
        self.layer = layer
        self.encoding = encoding
        self.compressesStrings = compressesStrings
        mvt = LayeredMVTEncoder(names: [layer], encoding: encoding, compressesStrings: compressesStrings)
        geoJSON = TileGeoJSONEncoder(precision: precision)
        self.onProgress = onProgress
    }

    /// Sends each feature to the layer `layers` gives it (MVT tiles; GeoJSON tiles hold one
    /// collection). Called before the first tile.
    package func assignLayers(_ layers: TileLayers) {
        self.layers = layers
        mvt = LayeredMVTEncoder(names: layers.names.isEmpty ? [layer] : layers.names, encoding: encoding,
                                compressesStrings: compressesStrings)
    }

    /// What MVT could not hold, summed over the tiles written so far (a feature in 4 tiles
    /// counts 4; the metadata's drop report counts each feature once).
    public var losses: TileEncodingLosses {
        lock.lock()
        defer { lock.unlock() }
        return lossTotal
    }

    /// The running counts.
    public var progress: TileWriteCounts {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// Encodes one tile, reduced to fit ``budget`` (counted in its statistics), and writes it;
    /// returns the encoded size. Fits `TilePyramid.build`'s `emit`.
    /// - Throws: `Diagnostic` `tile.too-large` when the tile cannot be made to fit; the writer's errors.
    public func write(_ tile: inout VectorTile) throws -> Int {
        let fitted = try encode(&tile)
        let bytes = fitted.encoded
        if let gzipped = fitted.gzipped {
            try writer.write(tile.id, bytes, gzipped: gzipped)
        } else {
            try writer.write(tile.id, bytes)
        }
        lock.lock()
        counts.add(bytesEach: bytes.count, features: tile.statistics.features, atZoom: tile.id.z)
        onProgress?(counts)
        lock.unlock()
        return bytes.count
    }

    /// The most tiles of solid blocks a writer that stores tiles one by one may receive: 2^24
    /// (a world polygon to z14 would be 2^28 files). Beyond, the run stops with
    /// `tile.too-many-tiles` instead of filling the disk; PMTiles has no limit. (`Tiler` also
    /// checks an estimate before the first tile.)
    public var maximumBlockTilesWrittenOneByOne = 1 << 24

    /// Encodes one tile and writes it at every position of `block` (identical tiles below a
    /// solid tile); returns the encoded size of one copy. Fits `TilePyramid.build`'s `emitBlock`.
    /// - Throws: `Diagnostic` `tile.too-many-tiles` when the writer stores blocks tile by tile and
    ///   the run's blocks exceed ``maximumBlockTilesWrittenOneByOne``; the writer's errors.
    public func writeBlock(_ tile: inout VectorTile, _ block: TileBlock) throws -> Int {
        let copies = block.tileCount
        if !writer.storesBlocksOnce || encoding == .geojson {
            lock.lock()
            blockTilesOneByOne = blockTilesOneByOne.addingSaturating(copies)
            let total = blockTilesOneByOne
            lock.unlock()
            guard total <= maximumBlockTilesWrittenOneByOne else {
                throw Diagnostic(.error, code: .tileTooManyTiles,
                    message: "z\(block.root.z)/\(block.root.x)/\(block.root.y) is covered by polygons down to z\(block.zoom): "
                        + "more than \(maximumBlockTilesWrittenOneByOne)"
                        + " identical tiles would be written one by one to "
                        + "\(writer.path); write a .pmtiles archive (it stores them once) or lower --max-zoom")
            }
        }
        if encoding == .geojson {
            // GeoJSON tiles are in degrees: each tile of the block has its own coordinates. The
            // tile is reduced to its budget once; every copy then fits as it is.
            let bytes = try encode(&tile).encoded
            let reduced = tile
            try block.forEachTile { id in
                var one = reduced
                one.id = id
                _ = try write(&one)
            }
            return bytes.count
        }
        let bytes = try encode(&tile).encoded
        try writer.writeBlock(block, bytes)
        lock.lock()
        counts.add(tiles: copies, bytesEach: bytes.count, features: tile.statistics.features, atZoom: block.zoom)
        onProgress?(counts)
        lock.unlock()
        return bytes.count
    }

    /// The tile's bytes within ``budget``; only the final encoding's losses are counted.
    private func encode(_ tile: inout VectorTile) throws -> FittedTile {
        switch encoding {
        case .mvt, .mlt:
            var losses = TileEncodingLosses()
            let encoded = try budget.fit(&tile) { tile in
                let (encoded, tileLosses) = mvt.encode(tile)
                losses = tileLosses
                return encoded
            }
            lock.lock()
            lossTotal += losses
            lock.unlock()
            return encoded
        case .geojson:
            return try budget.fit(&tile) { try geoJSON.encode($0) }
        }
    }

    /// The tile set's metadata: bounds and center from the source, one vector layer with its
    /// fields, tilestats (geometry type and attribute types), and the drop report.
    public func metadata(for source: TileSource, minZoom: Int, zooms: [TileZoomCounts],
                         name: String? = nil, description: String = "") throws -> TileSetMetadata {
        metadata(for: source.facts, minZoom: minZoom, zooms: zooms, name: name, description: description)
    }

    /// The metadata of a tile set whose input `facts` describe (one run's `TileSource`, or the
    /// plan of a run split over machines).
    package func metadata(for source: TileSetFacts, minZoom: Int, zooms: [TileZoomCounts],
                          name: String? = nil, description: String = "") -> TileSetMetadata {
        let maxZoom = source.options.maxZoom
        var bounds: TileSetMetadata.Bounds?
        var center: TileSetMetadata.Center?
        let rect = source.boundingMapRect
        if !rect.isNull {
            let world = MapProjection.worldSize
            let west = max(-180, rect.minX / world * 360 - 180), east = min(180, rect.maxX / world * 360 - 180)
            var box = TileSetMetadata.Bounds(west: west, south: MapProjection.latitude(y: rect.maxY),
                                             east: east, north: MapProjection.latitude(y: rect.minY))
            if let clip = source.options.clipBox, !clip.crossesAntimeridian {
                // The data was clipped to the box in map points; its edges, back in degrees,
                // may lie an ulp outside it.
                box = TileSetMetadata.Bounds(west: max(box.west, clip.west), south: max(box.south, clip.south),
                                             east: min(box.east, clip.east), north: min(box.north, clip.north))
            }
            bounds = box
            center = TileSetMetadata.Center(longitude: (box.west + box.east) / 2, latitude: (box.south + box.north) / 2,
                                            zoom: minZoom)
        }
        let layerNames = names(of: source)
        // Gathered while the input was read. As the encoder: a feature without a layer of its
        // own goes to the first; with one name, every feature is in it.
        var summaries = [TileLayerSummary](repeating: TileLayerSummary(), count: layerNames.count)
        for (index, summary) in source.layerSummaries.enumerated() {
            summaries[index < layerNames.count ? index : 0].merge(summary, positionOffset: 0)
        }
        var vectorLayers = [TileSetMetadata.VectorLayer](), layerStats = [JSONValue]()
        for (index, layerName) in layerNames.enumerated() {
            let layerFields = summaries[index].orderedFields
            vectorLayers.append(.init(id: layerName, fields: layerFields, minZoom: minZoom, maxZoom: maxZoom))
            layerStats.append(tileStats(layer: layerName, typeCounts: summaries[index].typeCounts, fields: layerFields))
        }
        let report = TileDropReport(extent: source.options.extent, buffer: source.options.buffer,
                                    tolerance: source.options.tolerance, input: source.inputCounts,
                                    notWritten: encoding == .geojson ? TileEncodingLosses() : source.losses,
                                    zooms: zooms)
        return TileSetMetadata(name: name ?? layerNames[0], description: description,
                               format: encoding.metadataFormat, bounds: bounds, center: center,
                               minZoom: minZoom, maxZoom: maxZoom,
                               vectorLayers: vectorLayers,
                               tileStats: .object(["layerCount": .integer(Int64(layerStats.count)), "layers": .array(layerStats)]),
                               dropReport: report)
    }

    /// The layer names tiles carry: those of ``assignLayers(_:)`` when there are several,
    /// else the one layer.
    private func names(of source: TileSetFacts) -> [String] {
        guard encoding != .geojson else { return [layer] }
        return (layers ?? source.layers).encodedNames(default: layer)
    }

    /// Mapbox tilestats for one layer whose features, by geometry type, are `typeCounts`:
    /// feature count, the commonest geometry type, and each attribute's type (GDAL's MVT driver
    /// takes the layer's geometry type from here).
    private func tileStats(layer: String, typeCounts: [Int], fields: [TileSetMetadata.VectorLayer.Field]) -> JSONValue {
        let names = ["", "Point", "LineString", "Polygon"]
        let commonest = (1...3).max { typeCounts[$0] < typeCounts[$1] } ?? 3
        var layerStats = JSONObject()
        layerStats.append("layer", .string(layer))
        layerStats.append("count", .integer(Int64(typeCounts.reduce(0, +))))
        layerStats.append("geometry", .string(names[commonest]))
        layerStats.append("attributeCount", .integer(Int64(fields.count)))
        layerStats.append("attributes", .array(fields.map { field in
            .object(["attribute": .string(field.name), "type": .string(field.type.lowercased())])
        }))
        return .object(layerStats)
    }
}

import OverlayModel

extension TileJoin {
    /// Joins the tile sets `options.inputs` into `options.output`, as tippecanoe's `tile-join`
    /// does (and go-pmtiles' `Convert`, one call): opens each input by its bytes, checks they
    /// hold vector tiles of one encoding (or converts them to ``Options/tileEncoding``),
    /// merges every z/x/y run by run (``run(_:write:)``: a PMTiles input's runs of identical
    /// tiles stay runs in a PMTiles output), writes the archive and its metadata, united from the
    /// inputs' and corrected by what was written (``metadata(merging:counts:)``).
    ///
    /// The output appears only when complete; on any error nothing is left there and an
    /// existing output is untouched.
    /// - Returns: what was written and left out, with the warnings.
    /// - Throws: `tile.bad-option` for options out of range; `io.not-found` naming an input
    ///   that does not exist, `tile.not-a-tile-set` for one that is no tile set;
    ///   `tilejoin.format-mismatch` for GeoJSON tiles or mixed encodings; `tilejoin.no-tiles`
    ///   when no input holds a tile; `tile.too-many-tiles` when a folder or MBTiles output would
    ///   get more than ``maximumTilesWrittenOneByOne`` tiles; `mvt.bad-tile` naming the input and
    ///   z/x/y of a tile that does not decode; `io.*` when the output cannot be written.
    public static func join(_ options: Options) throws -> Report {
        try options.validate()
        var readers = [any TileArchiveReader]()
        for path in options.inputs {
            guard POSIX.status(path) != nil else {
                throw Diagnostic(.error, code: .ioNotFound, message: "no such tile set: \(path)",
                                 location: SourceLocation(file: path, line: 1, column: 1))
            }
            readers.append(try TileArchive.open(path))
        }
        let encoding = try outputEncoding(readers.map { ($0.path, $0.metadata.format) }, requested: options.tileEncoding)
        let inputs = try readers.map(input)
        var diagnostics = try checkHoldTiles(inputs)
        let join = TileJoin(merger: VectorTileMerger(options: options.merging), zooms: options.zooms, encoding: encoding)
        var createOptions = TileArchive.CreateOptions()
        createOptions.replaceExisting = options.replaceExisting
        createOptions.tileExtension = encoding.fileExtension
        let writer = try TileArchive.create(options.output, options: createOptions)
        let counts: Counts, metadata: TileSetMetadata
        do {
            if !writer.storesBlocksOnce {
                // Counted from the runs before the first tile: hundreds of millions of files would fill the disk.
                let tiles = join.tileCount(inputs)
                guard tiles <= maximumTilesWrittenOneByOne else {
                    throw Diagnostic(.error, code: .tileTooManyTiles,
                                     message: "the inputs hold \(tiles) tiles, more than the \(maximumTilesWrittenOneByOne) that \(options.output) "
                                        + "should hold as one file or row per tile; join into a .pmtiles archive (it stores identical tiles once) or give --maximum-zoom")
                }
            }
            // PMTiles and MBTiles store gzip: a joined tile written as several blocks is compressed once.
            let gzips = TileArchiveFormat(path: options.output) != .directory
            var gzipped = [[UInt8]: [UInt8]](), gzippedBytes = 0
            counts = try join.run(inputs) { block, bytes in
                guard gzips else {
                    if block.zoom == block.root.z { try writer.write(block.root, bytes) } else { try writer.writeBlock(block, bytes) }
                    return
                }
                let compressed: [UInt8]
                if let known = gzipped[bytes] {
                    compressed = known
                } else {
                    compressed = try Gzip.compress(bytes)
                    if gzippedBytes > 8 << 20 {
                        gzipped.removeAll(keepingCapacity: true)
                        gzippedBytes = 0
                    }
                    gzipped[bytes] = compressed
                    gzippedBytes += bytes.count + compressed.count
                }
                if block.zoom == block.root.z {
                    try writer.write(block.root, bytes, gzipped: compressed)
                } else if writer.storesBlocksOnce {
                    try writer.writeBlock(block, bytes, gzipped: compressed)
                } else {
                    // MBTiles: a row per tile, each taking the bytes compressed once.
                    try block.forEachTile { try writer.write($0, bytes, gzipped: compressed) }
                }
            }
            var merged = join.metadata(merging: readers.map(\.metadata), counts: counts)
            if let name = options.name { merged.name = name }
            try writer.finish(metadata: merged)
            metadata = merged
        } catch {
            writer.abort()
            throw error
        }
        if counts.emptyTiles > 0 {
            diagnostics.append(Diagnostic(.note, code: .tilejoinEmpty,
                                          message: "\(counts.emptyTiles) tiles left without layers by the filters were not written"))
        }
        var dropped = Dropped()
        (dropped.layers, dropped.properties) = TileMetadataMerger(options: options.merging).dropped(from: readers.map(\.metadata))
        dropped.tilesOutsideZooms = counts.tilesOutsideZooms
        dropped.emptyTiles = counts.emptyTiles
        return Report(counts: counts, metadata: metadata, encoding: encoding, fileBytes: POSIX.regularFileSize(options.output),
                      dropped: dropped, diagnostics: diagnostics)
    }

    /// An archive as the join reads it: each tile as MVT bytes (MLT converted), a GeoJSON tile
    /// refused. The archive's declared content type (a PMTiles header's tile type, a `format`)
    /// decides what a tile is; its first byte is looked at only when nothing is declared (an MLT
    /// tile may well start with `{`).
    private static func input(_ reader: any TileArchiveReader) throws -> Input {
        let path = reader.path
        let declared = reader.contentType
        let encoding = declared == .mlt ? .mlt : TileEncoding(metadataFormat: reader.metadata.format.lowercased()) ?? .mvt
        let sniffs = declared == .unknown || reader is TileDirectoryReader     // a folder of files has no header
        // Read from the joining thread only, one tile at a time.
        nonisolated(unsafe) let source = reader
        return Input(name: path, runs: try reader.tileRuns()) { run in
            let id = run.firstTile ?? TileID(z: 0, x: 0, y: 0)
            guard let bytes = try source.storedTile(of: run)?.uncompressed(source: "\(path) (tile \(id))") else { return nil }
            if sniffs && bytes.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{") {
                throw Diagnostic(.error, code: .tilejoinFormatMismatch,
                                 message: "\(path) tile \(id.z)/\(id.x)/\(id.y) is a GeoJSON tile; tile-join joins vector tiles")
            }
            do {
                return try VectorTileTranscoder.transcode(bytes, from: encoding, to: .mvt)
            } catch let diagnostic as Diagnostic {
                throw Diagnostic(.error, code: diagnostic.code, message: "\(path) tile \(id.z)/\(id.x)/\(id.y): \(diagnostic.message)")
            }
        }
    }
}

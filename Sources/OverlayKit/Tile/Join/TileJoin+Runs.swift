import OverlayModel

extension TileJoin {
    /// The most tiles a join writes one by one to an archive that stores every tile apart (a
    /// folder, MBTiles): 16,777,216, counted from the runs before the first tile is written
    /// (the world to z14 would be 358 million files). PMTiles stores a run once: no limit.
    public static let maximumTilesWrittenOneByOne = 1 << 24

    /// The distinct tiles the inputs hold within ``zooms``, counted from their runs (none is
    /// read or listed). O(runs).
    /// - Parameter inputs: the join's inputs.
    public func tileCount(_ inputs: [Input]) -> Int {
        var tiles = 0
        TileRunSweep(sets: inputs.map(\.runs)).forEachSegment { segment in
            if let zooms, !zooms.contains(segment.span.zoom) { return }
            tiles = tiles.addingSaturating(Int(segment.span.count))
        }
        return tiles
    }

    /// What one combination of stored tiles joins to (the same for every tile holding it).
    private struct Joined {
        /// The joined tile in ``TileJoin/encoding``; nil when no input had the tile, empty
        /// when the filters left no layer.
        var bytes: [UInt8]?
        var features = 0
        var kind = Kind.copied
        enum Kind { case copied, merged, rewritten, empty }
    }

    /// Which stored tile each input holds over a segment.
    private struct Combination: Hashable {
        var parts: [Part]
        struct Part: Hashable {
            var input: Int
            var content: TileRun.Content
        }
    }

    /// Merges the inputs tile by tile and hands each joined tile, in ``encoding``, to `write`
    /// with the square block of tiles it stands for (`TileBlock`: one tile when its zoom is its
    /// root's), in tile id order. The inputs' runs are swept together (`TileRunSweep`): each
    /// stretch of ids over which every input holds the same stored tile is read, merged and
    /// encoded once, and written as the blocks that cover it (at most 6 per zoom of depth), so
    /// the result is the one tile by tile would give, at the cost of the runs. The last joined
    /// tiles are kept (up to 32 MiB) so runs pointing at the same bytes are merged once.
    /// - Parameters:
    ///   - inputs: the tile sets, in order (a merged tile's layers come in this order).
    ///   - write: takes a joined tile and the block of tiles that hold it.
    /// - Throws: `Diagnostic` `mvt.bad-tile` naming the input and tile when one does not decode,
    ///   or what `read`/`write` throw.
    public func run(_ inputs: [Input], write: (TileBlock, [UInt8]) throws -> Void) throws -> Counts {
        var counts = Counts()
        let copyUnchanged = merger.options == VectorTileMerger.Options()
        let decoder = MVTDecoder()
        var cache = [Combination: Joined](), cachedBytes = 0
        let cacheLimit = 32 << 20

        func join(_ combination: Combination, span: TileRun.ZoomSpan, first id: TileID) throws -> Joined {
            var found = [(input: Int, bytes: [UInt8])]()
            for part in combination.parts {
                // The part of the input's run the segment covers.
                let run = TileRun(firstID: span.firstID, count: span.count, content: part.content)
                if let bytes = try inputs[part.input].read(run) { found.append((part.input, bytes)) }
            }
            guard !found.isEmpty else { return Joined(bytes: nil) }
            var layers = [[MVTLayer]]()
            for (index, bytes) in found {
                do {
                    layers.append(try decoder.decode(bytes))
                } catch let diagnostic as Diagnostic {
                    throw Diagnostic(.error, code: diagnostic.code,
                                     message: "\(inputs[index].name) tile \(id.z)/\(id.x)/\(id.y): \(diagnostic.message)")
                }
            }
            var joined = Joined()
            var output: [UInt8]
            let merged: [MVTLayer]
            if found.count == 1 && copyUnchanged {
                // Decoded above only to check it and count features; the bytes go out as they came.
                merged = layers[0]
                output = found[0].bytes
            } else {
                merged = try merger.merge(layers)
                guard !merged.isEmpty else { return Joined(bytes: [], kind: .empty) }
                output = VectorTileMerger.encode(merged)
                joined.kind = found.count > 1 ? .merged : .rewritten
            }
            if encoding != .mvt { output = try VectorTileTranscoder.transcode(output, from: .mvt, to: encoding) }
            joined.bytes = output
            joined.features = merged.reduce(0) { $0 + $1.features.count }
            return joined
        }

        try TileRunSweep(sets: inputs.map(\.runs)).forEachSegment { segment in
            let span = segment.span, tiles = Int(span.count)
            if let zooms, !zooms.contains(span.zoom) {
                counts.tilesOutsideZooms = counts.tilesOutsideZooms.addingSaturating(tiles)
                return
            }
            guard let first = PMTiles.tile(span.firstID) else { return }
            let combination = Combination(parts: segment.runs.enumerated().compactMap { input, run in
                run.map { Combination.Part(input: input, content: inputs[input].runs[$0].content) }
            })
            let joined: Joined
            if let known = cache[combination] {
                joined = known
            } else {
                joined = try join(combination, span: span, first: first)
                if cachedBytes > cacheLimit || cache.count >= 1 << 16 {
                    cache.removeAll(keepingCapacity: true)
                    cachedBytes = 0
                }
                cache[combination] = joined
                cachedBytes += (joined.bytes?.count ?? 0) + 64
            }
            guard let bytes = joined.bytes else { return }
            switch joined.kind {
            case .empty:
                counts.written.addEmptyTile(atZoom: span.zoom, tiles: tiles)
                return
            case .copied: counts.copiedTiles = counts.copiedTiles.addingSaturating(tiles)
            case .merged: counts.mergedTiles = counts.mergedTiles.addingSaturating(tiles)
            case .rewritten: counts.rewrittenTiles = counts.rewrittenTiles.addingSaturating(tiles)
            }
            if tiles == 1 {
                try write(TileBlock(root: first, zoom: first.z), bytes)
            } else {
                for block in span.blocks { try write(block, bytes) }
            }
            counts.written.add(tiles: tiles, bytesEach: bytes.count, features: joined.features, atZoom: span.zoom)
        }
        return counts
    }
}

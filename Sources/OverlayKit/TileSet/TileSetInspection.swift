import Dispatch
import OverlayModel

/// What a tile set holds, zoom by zoom, as `overlaykit info TILESET` prints it (planetiler's
/// per-zoom sizes, tippecanoe's largest tiles): tiles, stored bytes (sum, largest, 99th
/// percentile), features per layer, the largest tiles, and the drop counts `tile` wrote into
/// the metadata.
public struct TileSetReport: Sendable {
    /// One zoom's numbers.
    public struct Zoom: Hashable, Sendable {
        /// The zoom.
        public var zoom: Int
        /// Tiles stored (a PMTiles run counts each tile it stands for).
        public var tiles: Int
        /// Stored bytes over all tiles (compressed as stored: what a client downloads).
        public var bytes: Int
        /// The largest tile's stored bytes.
        public var maxBytes: Int
        /// The 99th percentile of stored tile bytes (nearest rank: the smallest size at or above
        /// which no more than 1 % of the zoom's tiles lie).
        public var p99Bytes: Int
        /// Features per layer over all tiles, layers in order of first appearance (empty when
        /// the tiles are not decodable).
        public var featuresByLayer: [LayerCount]
    }

    /// Features of one layer.
    public struct LayerCount: Hashable, Sendable {
        /// The layer's name.
        public var layer: String
        /// Its features.
        public var features: Int
    }

    /// One of the largest tiles.
    public struct LargeTile: Hashable, Sendable {
        /// The tile.
        public var id: TileID
        /// Its stored bytes.
        public var bytes: Int
    }

    /// The path inspected.
    public var path: String
    /// The container.
    public var format: TileArchiveFormat
    /// What the tiles are.
    public var contentType: TileContentType
    /// True when the tiles are stored gzip-compressed.
    public var gzipTiles: Bool
    /// The tile set's metadata (name, bounds, zooms, layers, and the drop report).
    public var metadata: TileSetMetadata
    /// Per zoom, ascending; zooms without tiles are left out.
    public var zooms: [Zoom]
    /// The largest tiles, largest first (ties by z/x/y).
    public var largestTiles: [LargeTile]
    /// False when the tiles' encoding has no decoder (feature counts are then empty).
    public var decoded: Bool
    /// What the set says of itself before any tile is read (header and metadata).
    public var summary: TileSetSummary

    /// Tiles over all zooms.
    public var tileCount: Int { zooms.reduce(0) { $0 + $1.tiles } }
    /// Stored bytes over all zooms.
    public var byteCount: Int { zooms.reduce(0) { $0 + $1.bytes } }
}

extension TileSet {
    /// Reads every stored tile once (a PMTiles run once, counted for each tile it stands
    /// for, per zoom by arithmetic; runs pointing at the same bytes decoded once), decodes it
    /// when a decoder exists, and sums per zoom. Memory: one entry per
    /// distinct tile size per zoom, plus the `largest` tiles kept.
    /// - Throws: `tile.archive-*` for a damaged set, the decoder's `Diagnostic` for a bad tile
    ///   (naming it).
    ///
    /// `onProgress`, when given, hears how far the scan is (``TileSetScanProgress``): before the
    /// runs are listed, once they are, and every 1,024 runs read.
    public func inspect(largest: Int = 10, onProgress: ((TileSetScanProgress) -> Void)? = nil) throws -> TileSetReport {
        let start = DispatchTime.now().uptimeNanoseconds
        var progress = TileSetScanProgress()
        func report() {
            progress.seconds = TileSetScanProgress.seconds(since: start)
            onProgress?(progress)
        }
        report()
        let decoder = TileDecoders.decoder(for: contentType)
        var sizes = [Int: [Int: Int]]()            // zoom → stored size → tiles
        var layerCounts = [Int: [(String, Int)]]()  // zoom → layer counts in order
        var largestTiles = [TileSetReport.LargeTile]()
        var gzip = false
        func keepLargest(_ candidates: [TileSetReport.LargeTile]) {
            largestTiles += candidates
            largestTiles.sort { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.id < $1.id }
            if largestTiles.count > largest { largestTiles.removeLast(largestTiles.count - largest) }
        }
        // Features per layer of the stored tiles decoded so far (an ocean's runs share a few).
        var decodedLayers = [TileRun.Content: [(String, Int)]]()
        try forEachRun(listed: { runs in
            progress.runs = runs
            report()
        }) { run in
            progress.runsRead += 1
            progress.tilesCounted = progress.tilesCounted.addingSaturating(run.zoomCounts.reduce(0) { $0.addingSaturating($1.count) })
            if progress.runsRead & 1023 == 0 { report() }
            let size = run.tile.bytes.count
            gzip = gzip || run.tile.compression == .gzip
            var perLayer = [(String, Int)]()
            if let known = decodedLayers[run.content] {
                perLayer = known
            } else if let decoder {
                let first = run.sampleIDs.first.map { "\($0)" } ?? "?"
                let bytes = try run.tile.uncompressed(source: "\(path) (tile \(first))")
                do {
                    for layer in try decoder.decodeLayers(bytes) { perLayer.append((layer.name, layer.features.count)) }
                } catch let diagnostic as Diagnostic {
                    throw Diagnostic(.error, code: diagnostic.code, message: "\(path) tile \(first): \(diagnostic.message)")
                }
                if decodedLayers.count >= 1 << 16 { decodedLayers.removeAll(keepingCapacity: true) }
                decodedLayers[run.content] = perLayer
            }
            for (zoom, count) in run.zoomCounts {
                sizes[zoom, default: [:]][size, default: 0] += count
                var counts = layerCounts[zoom] ?? []
                for (layer, features) in perLayer {
                    let total = features.multipliedSaturating(by: count)
                    if let index = counts.firstIndex(where: { $0.0 == layer }) {
                        counts[index].1 = counts[index].1.addingSaturating(total)
                    } else {
                        counts.append((layer, total))
                    }
                }
                layerCounts[zoom] = counts
            }
            if largest > 0, largestTiles.count < largest || size >= largestTiles[largestTiles.count - 1].bytes {
                keepLargest(run.sampleIDs.prefix(largest).map { TileSetReport.LargeTile(id: $0, bytes: size) })
            }
        }
        let zooms = sizes.keys.sorted().map { zoom -> TileSetReport.Zoom in
            let histogram = sizes[zoom]!.sorted { $0.key < $1.key }
            let tiles = histogram.reduce(0) { $0.addingSaturating($1.value) }
            let bytes = histogram.reduce(0) { $0.addingSaturating($1.key.multipliedSaturating(by: $1.value)) }
            // Nearest rank: the size of the ⌈0.99·n⌉-th smallest tile.
            let rank = (tiles.multipliedSaturating(by: 99) + 99) / 100
            var seen = 0, p99 = histogram.last?.key ?? 0
            for (size, count) in histogram {
                seen = seen.addingSaturating(count)
                if seen >= rank { p99 = size; break }
            }
            return TileSetReport.Zoom(zoom: zoom, tiles: tiles, bytes: bytes, maxBytes: histogram.last?.key ?? 0, p99Bytes: p99,
                                      featuresByLayer: (layerCounts[zoom] ?? []).map { TileSetReport.LayerCount(layer: $0.0, features: $0.1) })
        }
        return TileSetReport(path: path, format: format, contentType: contentType, gzipTiles: gzip, metadata: metadata,
                             zooms: zooms, largestTiles: largestTiles, decoded: decoder != nil, summary: summary)
    }
}

import OverlayModel

/// `overlaykit diff` on two tile sets (PMTiles, MBTiles or directories, in any mix), so a
/// re-tiling can be reviewed: per zoom the tiles added, removed, changed and unchanged, and for
/// each changed tile the features per layer before and after (as martin's `mbtiles diff` does for
/// MBTiles). Tiles are compared by their stored bytes, then, when those differ, by their decoded
/// layers, so a tile only compressed or encoded another way with the same content is unchanged.
public enum TileSetDiff {
    /// The tiles of one zoom.
    public struct Zoom: Hashable, Sendable {
        /// The zoom level.
        public var zoom: Int
        /// Tiles only in the new set.
        public var added = 0
        /// Tiles only in the old set.
        public var removed = 0
        /// Tiles in both with other content.
        public var changed = 0
        /// Tiles in both with the same content.
        public var unchanged = 0

        /// Empty counts for `zoom`.
        public init(zoom: Int) { self.zoom = zoom }
    }

    /// A layer's features in a changed tile.
    public struct LayerCounts: Hashable, Sendable {
        /// The layer's name.
        public var name: String
        /// Features in the old tile (0 when the layer is new).
        public var old: Int
        /// Features in the new tile (0 when the layer is gone).
        public var new: Int

        /// Counts of `name`.
        public init(name: String, old: Int, new: Int) {
            self.name = name
            self.old = old
            self.new = new
        }
    }

    /// One changed tile and its layers.
    public struct ChangedTile: Hashable, Sendable {
        /// The tile.
        public var id: TileID
        /// Every layer of either version, by name.
        public var layers: [LayerCounts]

        /// A changed tile with its layers.
        public init(id: TileID, layers: [LayerCounts]) {
            self.id = id
            self.layers = layers
        }
    }

    /// What changed between two tile sets.
    public struct Result: Hashable, Sendable {
        /// The old set's path.
        public var oldPath: String
        /// The new set's path.
        public var newPath: String
        /// Per zoom, ascending; a zoom either set has.
        public var zooms: [Zoom]
        /// The changed tiles, in tile order, at most `maximumListedTiles`.
        public var changedTiles: [ChangedTile]
        /// Changed tiles beyond the listed ones.
        public var unlistedChangedTiles: Int

        /// Whether anything differs (diff(1)'s status 1).
        public var hasChanges: Bool { zooms.contains { $0.added + $0.removed + $0.changed > 0 } }
    }

    /// Compares the tile sets at `oldPath` and `newPath`; at most `maximumListedTiles` changed
    /// tiles are listed with their layers (all are counted). The sets are read by their runs
    /// (`TileRun`, swept together by `TileRunSweep`): tiles over which both hold the same stored
    /// tiles are compared once and counted by arithmetic, so two oceans to z14 (358 million
    /// tiles in a few thousand runs each) compare in the time of their directories.
    /// - Throws: `Diagnostic`: the archives' errors (`tile.archive-*`), `tileset.undecodable`.
    public static func compare(oldPath: String, newPath: String, maximumListedTiles: Int = 1000) throws -> Result {
        let old = try TileSet(path: oldPath), new = try TileSet(path: newPath)
        let oldRuns = TileRun.normalized(try old.reader.tileRuns()), newRuns = TileRun.normalized(try new.reader.tileRuns())
        var zooms: [Int: Zoom] = [:]
        var changed = SmallestTiles(limit: maximumListedTiles), changedTiles = 0
        // Whether two stored tiles hold the same content, by where each is stored.
        var compared = [[TileRun.Content]: Bool]()
        try TileRunSweep(sets: [oldRuns, newRuns]).forEachSegment { segment in
            let span = segment.span, count = Int(span.count), zoom = span.zoom
            switch (segment.runs[0], segment.runs[1]) {
            case let (oldRun?, newRun?):
                let key = [oldRuns[oldRun].content, newRuns[newRun].content]
                let same: Bool
                if let known = compared[key] {
                    same = known
                } else {
                    guard let id = PMTiles.tile(span.firstID) else { return }
                    same = try sameContent(old, new, id)
                    if compared.count >= 1 << 16 { compared.removeAll(keepingCapacity: true) }
                    compared[key] = same
                }
                if same {
                    zooms[zoom, default: Zoom(zoom: zoom)].unchanged += count
                } else {
                    zooms[zoom, default: Zoom(zoom: zoom)].changed += count
                    changedTiles = changedTiles.addingSaturating(count)
                    for block in span.blocks { changed.offer(block) }
                }
            case (_?, nil): zooms[zoom, default: Zoom(zoom: zoom)].removed += count
            case (nil, _?): zooms[zoom, default: Zoom(zoom: zoom)].added += count
            case (nil, nil): break
            }
        }
        let listed = try changed.tiles.map { ChangedTile(id: $0, layers: try layerCounts(old, new, $0)) }
        return Result(oldPath: oldPath, newPath: newPath, zooms: zooms.values.sorted { $0.zoom < $1.zoom },
                      changedTiles: listed, unlistedChangedTiles: changedTiles - listed.count)
    }

    /// The same bytes, or the same decoded layers.
    private static func sameContent(_ old: TileSet, _ new: TileSet, _ id: TileID) throws -> Bool {
        if let a = try old.reader.tile(id), let b = try new.reader.tile(id), a == b { return true }
        return try old.layers(at: id) == new.layers(at: id)
    }

    private static func layerCounts(_ old: TileSet, _ new: TileSet, _ id: TileID) throws -> [LayerCounts] {
        var counts: [String: LayerCounts] = [:]
        for layer in try old.layers(at: id) ?? [] {
            counts[layer.name, default: LayerCounts(name: layer.name, old: 0, new: 0)].old += layer.features.count
        }
        for layer in try new.layers(at: id) ?? [] {
            counts[layer.name, default: LayerCounts(name: layer.name, old: 0, new: 0)].new += layer.features.count
        }
        return counts.values.sorted { $0.name < $1.name }
    }
}

extension TileSetDiff.Result {
    /// The report in `format`: text (a line per zoom, then per changed tile its layers), JSON,
    /// Markdown (a table of zooms, a table of changed tiles) or SARIF (one `diff.modified`,
    /// `diff.added` or `diff.removed` note per zoom with changes, located at the new set).
    public func report(_ format: DiffReport.Format) -> String {
        switch format {
        case .text:
            var text = "--- \(oldPath)\n+++ \(newPath)\n"
            for zoom in zooms {
                text += "z\(zoom.zoom): \(zoom.added) added, \(zoom.removed) removed, \(zoom.changed) changed, \(zoom.unchanged) unchanged tiles\n"
            }
            for tile in changedTiles {
                text += "\(tile.id): " + tile.layers.map { "\($0.name) \($0.old) → \($0.new) features" }.joined(separator: ", ") + "\n"
            }
            if unlistedChangedTiles > 0 { text += "… and \(unlistedChangedTiles) more changed tiles\n" }
            return text
        case .markdown:
            var text = "### overlaykit diff: `\(oldPath)` → `\(newPath)`\n\n| zoom | added | removed | changed | unchanged |\n|---|---|---|---|---|\n"
            for zoom in zooms { text += "| \(zoom.zoom) | \(zoom.added) | \(zoom.removed) | \(zoom.changed) | \(zoom.unchanged) |\n" }
            if !changedTiles.isEmpty {
                text += "\n| changed tile | features per layer (old → new) |\n|---|---|\n"
                for tile in changedTiles {
                    text += "| \(tile.id) | " + tile.layers.map { "\($0.name) \($0.old) → \($0.new)" }.joined(separator: ", ") + " |\n"
                }
                if unlistedChangedTiles > 0 { text += "\n… and \(unlistedChangedTiles) more changed tiles.\n" }
            }
            return text
        case .json, .sarif:
            let zoomObjects: [JSONValue] = zooms.map {
                .object(["zoom": .integer(Int64($0.zoom)), "added": .integer(Int64($0.added)), "removed": .integer(Int64($0.removed)),
                         "changed": .integer(Int64($0.changed)), "unchanged": .integer(Int64($0.unchanged))])
            }
            let tiles: [JSONValue] = changedTiles.map { tile in
                .object(["tile": .string(tile.id.description), "layers": .array(tile.layers.map {
                    .object(["name": .string($0.name), "old": .integer(Int64($0.old)), "new": .integer(Int64($0.new))])
                })])
            }
            var root: JSONObject = ["version": .integer(1), "old": .string(oldPath), "new": .string(newPath), "zooms": .array(zoomObjects),
                                    "changedTiles": .array(tiles), "unlistedChangedTiles": .integer(Int64(unlistedChangedTiles))]
            if format == .sarif { root = sarif(zoomObjects) }
            var bytes = JSONBytes()
            bytes.appendObject(root)
            bytes.append(UInt8(ascii: "\n"))
            return String(decoding: bytes.bytes, as: UTF8.self)
        }
    }

    /// A SARIF 2.1.0 log with one note per zoom that changed, at the new tile set (no lines).
    private func sarif(_ zoomObjects: [JSONValue]) -> JSONObject {
        let rule: JSONObject = ["id": .string(Diagnostic.Code.diffModified.rawValue), "name": .string("DiffModified"),
                                "shortDescription": .object(["text": .string("Tiles changed")]),
                                "defaultConfiguration": .object(["level": .string("note")])]
        let results: [JSONValue] = zip(zooms, zoomObjects).filter { $0.0.added + $0.0.removed + $0.0.changed > 0 }.map { zoom, object in
            let diagnostic = Diagnostic(.note, code: .diffModified,
                                        message: "z\(zoom.zoom): \(zoom.added) tiles added, \(zoom.removed) removed, \(zoom.changed) changed",
                                        location: SourceLocation(file: newPath, line: 0, column: 0))
            return .object(SARIFReport.result(diagnostic, ruleID: Diagnostic.Code.diffModified.rawValue, index: 0, file: newPath,
                                              properties: object.objectValue ?? JSONObject()))
        }
        let run: JSONObject = [
            "tool": .object(["driver": .object(["name": .string(SARIFReport.toolName), "version": .string(SARIFReport.toolVersion),
                                                "rules": .array([.object(rule)])])]),
            "results": .array(results),
        ]
        return ["$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"), "version": .string("2.1.0"), "runs": .array([.object(run)])]
    }
}

import OverlayModel

extension TileSetReport {
    /// The drop counts a zoom's metadata entry holds: every non-zero count but `features`
    /// (what was written), in the drop report's order.
    public static func drops(_ zoom: TileZoomCounts) -> [(name: String, count: Int)] {
        TileStatistics.counters.compactMap { counter in
            let count = zoom.statistics[keyPath: counter.keyPath]
            return counter.name == "features" || count == 0 ? nil : (counter.name, count)
        }
    }

    /// The report for people (`overlaykit info TILESET`): the ``summary``'s lines (what the set
    /// says of itself), then ``scanText()`` (what reading its tiles found).
    public func text() -> String {
        summary.text() + scanText()
    }

    /// What reading the tiles found: tiles and bytes in all, per zoom, the largest tiles, and the
    /// metadata's drop counts (`info TILESET` prints it after the ``summary``, once the scan is done).
    public func scanText() -> String {
        let stored = gzipTiles && summary.declaredCompression != .gzip ? " (stored gzip)" : ""
        var lines = ["tiles: \(tileCount), bytes: \(byteCount)\(stored)", ""]
        let header = ["zoom", "tiles", "bytes", "max", "p99", "features per layer"]
        var rows = zooms.map { zoom in
            [String(zoom.zoom), String(zoom.tiles), String(zoom.bytes), String(zoom.maxBytes), String(zoom.p99Bytes),
             decoded ? zoom.featuresByLayer.map { "\($0.layer) \($0.features)" }.joined(separator: ", ") : "(\(contentType.name): not decoded)"]
        }
        rows.insert(header, at: 0)
        let widths = (0..<header.count - 1).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            var line = ""
            for column in 0..<widths.count {
                let cell = row[column]
                line += column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
                line += "  "
            }
            lines.append(line + row[header.count - 1])
        }
        lines.append("")
        lines.append("largest tiles (stored bytes):")
        for tile in largestTiles { lines.append("  \(tile.id)  \(tile.bytes)") }
        if let report = metadata.dropReport {
            lines.append("")
            lines.append("dropped (from the metadata; counts are per tile):")
            var any = false
            for zoom in report.zooms {
                let drops = Self.drops(zoom)
                guard !drops.isEmpty else { continue }
                any = true
                lines.append("  zoom \(zoom.zoom): " + drops.map { "\($0.name) \($0.count)" }.joined(separator: ", "))
            }
            if !any { lines.append("  nothing") }
        } else {
            lines.append("")
            lines.append("dropped: no drop report in the metadata (not written by overlaykit tile)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON (`overlaykit info TILESET --json`), per `Schemas/tileset-info.schema.json`.
    public func json() -> [UInt8] {
        var object = JSONObject()
        object.append("path", .string(path))
        object.append("format", .string(format.rawValue))
        object.append("tileType", .string(contentType.name))
        object.append("gzipTiles", .bool(gzipTiles))
        object.append("name", .string(metadata.name))
        if let bounds = metadata.bounds {
            object.append("bounds", .array([.number(bounds.west), .number(bounds.south), .number(bounds.east), .number(bounds.north)]))
        } else {
            object.append("bounds", .null)
        }
        object.append("minZoom", .integer(Int64(metadata.minZoom)))
        object.append("maxZoom", .integer(Int64(metadata.maxZoom)))
        object.append("layers", .array(metadata.vectorLayers.map { layer in
            var entry = JSONObject()
            entry.append("id", .string(layer.id))
            entry.append("minZoom", .integer(Int64(layer.minZoom)))
            entry.append("maxZoom", .integer(Int64(layer.maxZoom)))
            entry.append("fields", .object(JSONObject(layer.fields.map { .init(key: $0.name, value: .string($0.type)) })))
            return .object(entry)
        }))
        object.append("tiles", .integer(Int64(tileCount)))
        object.append("bytes", .integer(Int64(byteCount)))
        object.append("decoded", .bool(decoded))
        object.append("zooms", .array(zooms.map { zoom in
            var entry = JSONObject()
            entry.append("zoom", .integer(Int64(zoom.zoom)))
            entry.append("tiles", .integer(Int64(zoom.tiles)))
            entry.append("bytes", .integer(Int64(zoom.bytes)))
            entry.append("maxBytes", .integer(Int64(zoom.maxBytes)))
            entry.append("p99Bytes", .integer(Int64(zoom.p99Bytes)))
            entry.append("features", .object(JSONObject(zoom.featuresByLayer.map { .init(key: $0.layer, value: .integer(Int64($0.features))) })))
            return .object(entry)
        }))
        object.append("largestTiles", .array(largestTiles.map { tile in
            .object(["z": .integer(Int64(tile.id.z)), "x": .integer(Int64(tile.id.x)), "y": .integer(Int64(tile.id.y)),
                     "bytes": .integer(Int64(tile.bytes))])
        }))
        if let report = metadata.dropReport {
            object.append("dropped", .array(report.zooms.map { zoom in
                var entry = JSONObject()
                entry.append("zoom", .integer(Int64(zoom.zoom)))
                for drop in Self.drops(zoom) { entry.append(drop.name, .integer(Int64(drop.count))) }
                return .object(entry)
            }))
        } else {
            object.append("dropped", .null)
        }
        var out = JSONBytes()
        out.appendObject(object)
        out.append(UInt8(ascii: "\n"))
        return out.bytes
    }
}

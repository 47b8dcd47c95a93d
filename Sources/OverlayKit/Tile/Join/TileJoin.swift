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

    /// What the join wrote.
    public struct Counts: Hashable, Sendable {
        /// Tiles written.
        public var tiles = 0
        /// Tiles held by more than one input, merged.
        public var mergedTiles = 0
        /// Tiles held by one input and copied byte for byte (no renaming or filtering asked).
        public var copiedTiles = 0
        /// Tiles held by one input and rewritten because layers or properties were filtered or
        /// renamed. Merged, copied and rewritten tiles add up to ``tiles``.
        public var rewrittenTiles = 0
        /// Tiles left empty by layer or zoom filters: not written.
        public var emptyTiles = 0
        /// Uncompressed bytes written.
        public var bytes = 0
        /// Features written, per zoom.
        public var featuresByZoom: [Int: Int] = [:]
        /// Tiles written, per zoom.
        public var tilesByZoom: [Int: Int] = [:]
        /// Uncompressed bytes written, per zoom.
        public var bytesByZoom: [Int: Int] = [:]

        /// No tiles yet.
        public init() {}
    }

    /// How layers and properties are merged, renamed and filtered.
    public var merger: VectorTileMerger
    /// Only tiles at these zooms are written (tile-join's `-z`/`-Z`); nil keeps every zoom.
    public var zooms: ClosedRange<Int>?

    /// Creates a join.
    public init(merger: VectorTileMerger = VectorTileMerger(), zooms: ClosedRange<Int>? = nil) {
        self.merger = merger
        self.zooms = zooms
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

    /// Every tile id of the inputs, once, in `order` (default: zoom, then x, then y).
    public func tileIDs(_ inputs: [Input], order: (TileID, TileID) -> Bool = TileJoin.zxyOrder) -> [TileID] {
        var ids = inputs.flatMap(\.tileIDs)
        if let zooms { ids.removeAll { !zooms.contains($0.z) } }
        ids.sort(by: order)
        var unique = [TileID]()
        unique.reserveCapacity(ids.count)
        for id in ids where unique.last != id { unique.append(id) }
        return unique
    }

    /// Zoom, then x, then y.
    public static func zxyOrder(_ a: TileID, _ b: TileID) -> Bool {
        (a.z, a.x, a.y) < (b.z, b.x, b.y)
    }

    /// Merges each tile id's tiles from every input and hands the result to `write`, in `ids`
    /// order.
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
            let output: [UInt8]
            let merged: [MVTLayer]
            if found.count == 1 && copyUnchanged {
                // Decoded above only to check it and count features; the bytes go out as they came.
                merged = layers[0]
                output = found[0].bytes
                counts.copiedTiles += 1
            } else {
                merged = try merger.merge(layers)
                guard !merged.isEmpty else {
                    counts.emptyTiles += 1
                    continue
                }
                output = VectorTileMerger.encode(merged)
                if found.count > 1 { counts.mergedTiles += 1 } else { counts.rewrittenTiles += 1 }
            }
            try write(id, output)
            counts.tiles += 1
            counts.bytes += output.count
            counts.featuresByZoom[id.z, default: 0] += merged.reduce(0) { $0 + $1.features.count }
            counts.tilesByZoom[id.z, default: 0] += 1
            counts.bytesByZoom[id.z, default: 0] += output.count
        }
        return counts
    }

    /// Merged metadata corrected by what the join wrote: per-zoom `tiles`, `bytes` and
    /// `features` (summed over inputs they would count a merged tile twice) are the written
    /// ones, and zooms the join's zoom range left out are removed.
    public func metadata(_ merged: JSONObject, counts: Counts) -> JSONObject {
        var result = merged
        // The per-zoom counts sit at the top (overlaykit 0.1 directories) or in the drop report.
        for member in merged.members {
            if case .object(let inner) = member.value, inner["zooms"] != nil, member.key != "zooms" {
                result[member.key] = .object(correctedZooms(inner, counts: counts))
            }
        }
        result = correctedZooms(result, counts: counts)
        if let zooms {
            for key in ["minzoom", "maxzoom"] {
                guard let value = result[key] else { continue }
                guard let number = value.doubleValue ?? value.stringValue.flatMap(Double.init), number.isFinite else { continue }
                let clamped = Int64(min(max(number, Double(zooms.lowerBound)), Double(zooms.upperBound)).rounded())
                result[key] = value.stringValue != nil ? .string(String(clamped)) : .integer(clamped)
            }
        }
        return result
    }

    private func correctedZooms(_ object: JSONObject, counts: Counts) -> JSONObject {
        var result = object
        if case .array(let items)? = object["zooms"] {
            result["zooms"] = .array(items.compactMap { item in
                guard var zoom = item.objectValue, case .integer(let z)? = zoom["zoom"], let level = Int(exactly: z) else { return item }
                if let zooms, !zooms.contains(level) { return nil }
                if zoom["tiles"] != nil { zoom["tiles"] = .integer(Int64(counts.tilesByZoom[level] ?? 0)) }
                if zoom["bytes"] != nil { zoom["bytes"] = .integer(Int64(counts.bytesByZoom[level] ?? 0)) }
                if zoom["features"] != nil { zoom["features"] = .integer(Int64(counts.featuresByZoom[level] ?? 0)) }
                return .object(zoom)
            })
        }
        return result
    }

    /// The joined set's metadata from the inputs' (`TileMetadataMerger` on their JSON form,
    /// corrected by what was written).
    /// - Throws: `Diagnostic` `tile.archive-metadata` when the merged JSON is not metadata.
    public func metadata(merging inputs: [TileSetMetadata], counts: Counts) throws -> TileSetMetadata {
        var objects = [JSONObject]()
        for input in inputs {
            guard case .object(var object) = try JSONScanner(input: ByteInput(bytes: input.pmtilesJSON())).readValue() else { continue }
            if let bounds = input.bounds {
                object["bounds"] = .array([bounds.west, bounds.south, bounds.east, bounds.north].map(JSONValue.number))
            }
            if let center = input.center {
                object["center"] = .array([.number(center.longitude), .number(center.latitude), .integer(Int64(center.zoom))])
            }
            object["minzoom"] = .integer(Int64(input.minZoom))
            object["maxzoom"] = .integer(Int64(input.maxZoom))
            objects.append(object)
        }
        var merged = metadata(TileMetadataMerger(options: merger.options).merge(objects), counts: counts)
        var bounds: TileSetMetadata.Bounds?
        if let numbers = TileMetadataMerger.bounds(merged["bounds"]) {
            bounds = TileSetMetadata.Bounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
        }
        var center: TileSetMetadata.Center?
        if case .array(let items)? = merged["center"], items.count == 3, let longitude = items[0].doubleValue,
           let latitude = items[1].doubleValue, let zoom = items[2].doubleValue, zoom.isFinite, (0...30).contains(zoom) {
            center = TileSetMetadata.Center(longitude: longitude, latitude: latitude, zoom: Int(zoom))
        }
        func zoom(_ key: String, _ fallback: Int) -> Int {
            guard let value = merged[key]?.doubleValue, value.isFinite, (0...30).contains(value) else { return fallback }
            return Int(value)
        }
        let minZoom = zoom("minzoom", 0), maxZoom = zoom("maxzoom", 0)
        for key in ["bounds", "center", "minzoom", "maxzoom"] { merged[key] = nil }
        var json = JSONBytes()
        json.appendValue(.object(merged))
        return try TileSetMetadata.fromPMTilesJSON(json.bytes, source: "tile-join", bounds: bounds, center: center,
                                                   minZoom: minZoom, maxZoom: max(minZoom, maxZoom))
    }
}

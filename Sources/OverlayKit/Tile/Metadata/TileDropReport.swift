import OverlayModel

/// OverlayKit's account of a tiling run: the options, the input, and per zoom every feature
/// copy and ring that was dropped or changed, so nothing is lost without a count. Stored under
/// `"overlaykit"` in every archive's metadata; `+=` sums two reports (for joined tile sets).
public struct TileDropReport: Hashable, Sendable {
    /// Tile units across a tile.
    public var extent: Int
    /// Tile units kept beyond each edge.
    public var buffer: Int
    /// Simplification tolerance in tile units.
    public var tolerance: Double
    /// What was read.
    public var input: TileInputCounts
    /// What MVT could not hold.
    public var notWritten: TileEncodingLosses
    /// Per zoom: tiles, bytes, features, and what was dropped.
    public var zooms: [TileZoomCounts]

    /// A report from its parts.
    public init(extent: Int, buffer: Int, tolerance: Double, input: TileInputCounts,
                notWritten: TileEncodingLosses, zooms: [TileZoomCounts]) {
        self.extent = extent
        self.buffer = buffer
        self.tolerance = tolerance
        self.input = input
        self.notWritten = notWritten
        self.zooms = zooms
    }

    /// What the per-zoom counts mean, written beside them.
    public static let explanation = "Counts are per tile (a feature in 4 tiles counts 4). droppedFeatures: features that "
        + "reached a tile but lost every part there. droppedTinyRings/Lines: smaller than the zoom's tolerance "
        + "(area < tolerance², length < tolerance). droppedDegenerateRings/Lines: fewer than 4 points (rings) "
        + "or 2 (lines), or no area, even at full detail, and holes of dropped exteriors. repairedRings: "
        + "simplified less than asked to stay valid. selfCrossingRings: still crossing at the least "
        + "simplification tried. thinnedFeatures: points not drawn at this zoom by the drop rate (-r, -B). "
        + "outsideZoomRange: features outside their own tippecanoe minzoom/maxzoom. tinyStandIns: squares and "
        + "short lines written in place of tiny rings and lines (their sizes added up). clusteredPoints: points "
        + "merged into clusters; clusters: cluster features written. droppedForBudget / coalescedForBudget: "
        + "features dropped or merged into a neighbour to keep a tile within --max-tile-bytes / --max-tile-features. "
        + "filteredAtZoom: features a --where naming $zoom leaves out at this zoom. overflowedSums: cluster "
        + "attributes left out because their --accumulate-attribute sum is beyond the largest double."

    /// Adds another run's counts (zooms matched by number); options are kept from the left side.
    public static func += (a: inout TileDropReport, b: TileDropReport) {
        a.input.features += b.input.features
        a.input.withoutGeometry += b.input.withoutGeometry
        a.input.withoutPositions += b.input.withoutPositions
        a.notWritten += b.notWritten
        for zoom in b.zooms {
            if let index = a.zooms.firstIndex(where: { $0.zoom == zoom.zoom }) {
                a.zooms[index].tiles += zoom.tiles
                a.zooms[index].emptyTiles += zoom.emptyTiles
                a.zooms[index].bytes += zoom.bytes
                a.zooms[index].statistics += zoom.statistics
            } else {
                a.zooms.append(zoom)
            }
        }
        a.zooms.sort { $0.zoom < $1.zoom }
    }

    /// Per-zoom keys before the counts of `TileStatistics.counters`.
    private static let zoomKeys = ["zoom", "tiles", "emptyTilesNotWritten", "bytes"]

    private static func entries(_ zoom: TileZoomCounts) -> [(String, Int)] {
        [("zoom", zoom.zoom), ("tiles", zoom.tiles), ("emptyTilesNotWritten", zoom.emptyTiles), ("bytes", zoom.bytes)]
            + TileStatistics.counters.map { ($0.name, zoom.statistics[keyPath: $0.keyPath]) }
    }

    /// The report as a JSON object (keys in a fixed order).
    public func json() -> JSONObject {
        var object = JSONObject()
        object.append("extent", .integer(Int64(extent)))
        object.append("buffer", .integer(Int64(buffer)))
        object.append("tolerance", .number(tolerance))
        object.append("input", .object(["features": .integer(Int64(input.features)),
                                        "withoutGeometry": .integer(Int64(input.withoutGeometry)),
                                        "withoutPositions": .integer(Int64(input.withoutPositions))]))
        object.append("notWritten", .object(["idsNotUnsignedIntegers": .integer(Int64(notWritten.idsNotWritten)),
                                             "nullPropertyValues": .integer(Int64(notWritten.nullValuesNotWritten)),
                                             "propertyValuesWrittenAsJSONText": .integer(Int64(notWritten.valuesWrittenAsJSON))]))
        object.append("zooms", .array(zooms.map { zoom in
            .object(JSONObject(Self.entries(zoom).map { .init(key: $0.0, value: .integer(Int64($0.1))) }))
        }))
        object.append("explanation", .string(Self.explanation))
        return object
    }

    /// Reads what `json()` wrote.
    /// - Throws: `Diagnostic` `tile.archive-metadata` naming `source` when a count is missing or not an integer.
    public init(json: JSONValue, source: String) throws {
        func bad(_ what: String) -> Diagnostic {
            Diagnostic(.error, code: .tileArchiveMetadata, message: "\(source): overlaykit drop report: \(what)")
        }
        guard case .object(let object) = json else { throw bad("not an object") }
        func integer(_ object: JSONObject?, _ key: String) throws -> Int {
            guard let value = object?[key]?.doubleValue, let result = Int(exactly: value) else { throw bad("\(key) is not an integer") }
            return result
        }
        extent = try integer(object, "extent")
        buffer = try integer(object, "buffer")
        guard let tolerance = object["tolerance"]?.doubleValue else { throw bad("tolerance is not a number") }
        self.tolerance = tolerance
        input = TileInputCounts()
        let inputObject = object["input"]?.objectValue
        input.features = try integer(inputObject, "features")
        input.withoutGeometry = try integer(inputObject, "withoutGeometry")
        input.withoutPositions = try integer(inputObject, "withoutPositions")
        notWritten = TileEncodingLosses()
        let lossObject = object["notWritten"]?.objectValue
        notWritten.idsNotWritten = try integer(lossObject, "idsNotUnsignedIntegers")
        notWritten.nullValuesNotWritten = try integer(lossObject, "nullPropertyValues")
        notWritten.valuesWrittenAsJSON = try integer(lossObject, "propertyValuesWrittenAsJSONText")
        guard case .array(let entries) = object["zooms"] else { throw bad("zooms is not an array") }
        zooms = try entries.map { entry in
            let values = try Self.zoomKeys.map { try integer(entry.objectValue, $0) }
            var zoom = TileZoomCounts(zoom: values[0])
            zoom.tiles = values[1]
            zoom.emptyTiles = values[2]
            zoom.bytes = values[3]
            for counter in TileStatistics.counters {
                // Counts added in later versions are absent from older archives: 0.
                guard entry.objectValue?[counter.name] != nil else { continue }
                zoom.statistics[keyPath: counter.keyPath] = try integer(entry.objectValue, counter.name)
            }
            return zoom
        }
    }
}

// Tiling, vector tiles, tile archives and tile-join.

extension Diagnostic.Code {
    /// `mvt.bad-tile` (data): Bytes are not a valid Mapbox Vector Tile.
    public static let mvtBadTile = Diagnostic.Code("mvt.bad-tile", kind: .data)
    /// `mlt.bad-tile` (data): Bytes are not a valid MapLibre Tile.
    public static let mltBadTile = Diagnostic.Code("mlt.bad-tile", kind: .data)
    /// `mvt.id-not-integer` (finding): Feature ids that are not unsigned integers are not written (MVT ids are unsigned integers).
    public static let mvtIdNotInteger = Diagnostic.Code("mvt.id-not-integer", kind: .finding)
    /// `mvt.json-value` (finding): An array or object property is written as its JSON text (MVT values are scalars).
    public static let mvtJsonValue = Diagnostic.Code("mvt.json-value", kind: .finding)
    /// `mvt.null-value` (finding): A null property is not written (MVT has no null).
    public static let mvtNullValue = Diagnostic.Code("mvt.null-value", kind: .finding)
    /// `tile.archive-bad-gzip` (data): A gzip-compressed tile or directory does not inflate.
    public static let tileArchiveBadGzip = Diagnostic.Code("tile.archive-bad-gzip", kind: .data)
    /// `tile.archive-mbtiles` (data): An MBTiles file is malformed.
    public static let tileArchiveMbtiles = Diagnostic.Code("tile.archive-mbtiles", kind: .data)
    /// `tile.archive-metadata` (data): A tile set's metadata is malformed.
    public static let tileArchiveMetadata = Diagnostic.Code("tile.archive-metadata", kind: .data)
    /// `tile.archive-pmtiles` (data): A PMTiles archive is malformed.
    public static let tileArchivePmtiles = Diagnostic.Code("tile.archive-pmtiles", kind: .data)
    /// `tile.archive-too-large` (data): A tile, directory or archive is larger than the reader accepts.
    public static let tileArchiveTooLarge = Diagnostic.Code("tile.archive-too-large", kind: .data)
    /// `tile.archive-truncated` (data): A tile archive ends before its data.
    public static let tileArchiveTruncated = Diagnostic.Code("tile.archive-truncated", kind: .data)
    /// `tile.bad-option` (usage): A tiling option is out of range.
    public static let tileBadOption = Diagnostic.Code("tile.bad-option", kind: .usage)
    /// `tile.bad-work-file` (data): A file of a distributed tile run (`TileJob`) is missing, incomplete or of another run.
    public static let tileBadWorkFile = Diagnostic.Code("tile.bad-work-file", kind: .data)
    /// `tile.dropped` (finding): A tally of tiny and degenerate rings and lines the tiler dropped.
    public static let tileDropped = Diagnostic.Code("tile.dropped", kind: .finding)
    /// `tile.duplicate-tile` (data): The same tile would be written twice.
    public static let tileDuplicateTile = Diagnostic.Code("tile.duplicate-tile", kind: .data)
    /// `tile.no-geometry` (finding): Features without geometry or positions have nothing to tile.
    public static let tileNoGeometry = Diagnostic.Code("tile.no-geometry", kind: .finding)
    /// `tile.not-a-tile-set` (data): A path is neither a directory of z/x/y tiles nor a PMTiles or MBTiles file (recognised by their first bytes).
    public static let tileNotATileSet = Diagnostic.Code("tile.not-a-tile-set", kind: .data)
    /// `tile.sum-overflow` (finding): A cluster's summed attribute is beyond the largest double; it is left out, not written as infinity.
    public static let tileSumOverflow = Diagnostic.Code("tile.sum-overflow", kind: .finding)
    /// `tile.too-many-tiles` (data): The features (polygons by area, lines by length, points), or the tile sets `tile-join` joins, reach more tiles than a directory or MBTiles should hold one by one.
    public static let tileTooManyTiles = Diagnostic.Code("tile.too-many-tiles", kind: .data)
    /// `tilejoin.empty` (finding): Tiles left without layers by the filters were not written.
    public static let tilejoinEmpty = Diagnostic.Code("tilejoin.empty", kind: .finding)
    /// `tilejoin.empty-input` (finding): An input holds no tiles; the others are joined.
    public static let tilejoinEmptyInput = Diagnostic.Code("tilejoin.empty-input", kind: .finding)
    /// `tilejoin.extent-mismatch` (data): A layer has different extents in different inputs.
    public static let tilejoinExtentMismatch = Diagnostic.Code("tilejoin.extent-mismatch", kind: .data)
    /// `tilejoin.format-mismatch` (data): An input holds tiles that are not vector tiles, or the inputs mix MVT and MLT without `--tile-format`.
    public static let tilejoinFormatMismatch = Diagnostic.Code("tilejoin.format-mismatch", kind: .data)
    /// `tilejoin.no-tiles` (data): No input holds any tile.
    public static let tilejoinNoTiles = Diagnostic.Code("tilejoin.no-tiles", kind: .data)

    /// The codes above, in order, for ``allDeclared``.
    static let tileCodes: [Diagnostic.Code] = [
        .tileTooLarge,
        .tileBudget,
        .tileDensity,
        .tileTippecanoeZoomIgnored,
        .tileAttributeType,
        .tileAttributeNotFound,
        .tileFiltered,
        .tileTippecanoeLayerIgnored,
        .mvtBadTile,
        .mltBadTile,
        .mvtIdNotInteger,
        .mvtJsonValue,
        .mvtNullValue,
        .tileArchiveBadGzip,
        .tileArchiveMbtiles,
        .tileArchiveMetadata,
        .tileArchivePmtiles,
        .tileArchiveTooLarge,
        .tileArchiveTruncated,
        .tileBadOption,
        .tileBadWorkFile,
        .tileDropped,
        .tileDuplicateTile,
        .tileNoGeometry,
        .tileNotATileSet,
        .tileSumOverflow,
        .tileTooManyTiles,
        .tilejoinEmpty,
        .tilejoinEmptyInput,
        .tilejoinExtentMismatch,
        .tilejoinFormatMismatch,
        .tilejoinNoTiles,
    ]
    /// `tile.too-large` (data): A tile does not fit its byte or feature budget even with one feature.
    public static let tileTooLarge = Diagnostic.Code("tile.too-large", kind: .data)
    /// `tile.budget` (finding): A tally of features dropped or merged to keep tiles within their budget.
    public static let tileBudget = Diagnostic.Code("tile.budget", kind: .finding)
    /// `tile.density` (finding): A tally of points thinned, tiny shapes drawn as stand-ins and points clustered.
    public static let tileDensity = Diagnostic.Code("tile.density", kind: .finding)
    /// `tile.tippecanoe-zoom-ignored` (finding): A tippecanoe member's minzoom or maxzoom is not a number and is ignored.
    public static let tileTippecanoeZoomIgnored = Diagnostic.Code("tile.tippecanoe-zoom-ignored", kind: .finding)
    /// `tile.attribute-type` (finding): Property values that could not be read as their --attribute-type were left out.
    public static let tileAttributeType = Diagnostic.Code("tile.attribute-type", kind: .finding)
    /// `tile.attribute-not-found` (finding): A property named by --include, --exclude or --attribute-type is on no tiled feature.
    public static let tileAttributeNotFound = Diagnostic.Code("tile.attribute-not-found", kind: .finding)
    /// `tile.filtered` (finding): A tally of features --where left out of the tiles.
    public static let tileFiltered = Diagnostic.Code("tile.filtered", kind: .finding)
    /// `tile.tippecanoe-layer-ignored` (finding): A tippecanoe member names a layer the run does not use.
    public static let tileTippecanoeLayerIgnored = Diagnostic.Code("tile.tippecanoe-layer-ignored", kind: .finding)
}

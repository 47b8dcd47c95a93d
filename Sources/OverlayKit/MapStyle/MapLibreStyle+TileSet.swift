import OverlayModel

extension MapLibreStyle {
    /// The style for the tile set `tile` just wrote at `output` (`tile --style`): one source
    /// named after the set, with its layers. Without `tiles` (a URL template with `{z}`, `{x}`,
    /// `{y}`) a PMTiles archive is read through MapLibre's PMTiles protocol
    /// (`pmtiles://OUTPUT`) and a directory as `OUTPUT/{z}/{x}/{y}.mvt`, both relative to the
    /// page that loads the style.
    /// - Throws: `Diagnostic` `tile.bad-option` for an MBTiles output without `tiles`: a
    ///   browser cannot read SQLite (`overlaykit serve` serves it).
    public init(tileSet metadata: TileSetMetadata, output: String, format: TileArchiveFormat, tiles: String?,
                glyphs: String? = nil) throws {
        let id = metadata.name.isEmpty ? PathName(output).stem : metadata.name
        let location: Source.Location
        if let tiles {
            location = .tiles([tiles], minZoom: metadata.minZoom, maxZoom: metadata.maxZoom, bounds: metadata.bounds)
        } else {
            switch format {
            case .pmtiles:
                location = .tileJSON("pmtiles://" + output)
            case .directory:
                location = .tiles([output + "/{z}/{x}/{y}." + (metadata.format == "mlt" ? "mlt" : "mvt")], minZoom: metadata.minZoom, maxZoom: metadata.maxZoom, bounds: metadata.bounds)
            case .mbtiles:
                throw Diagnostic(.error, code: .tileBadOption,
                                 message: "a browser cannot read MBTiles: give --style-tiles URL with {z}/{x}/{y} (overlaykit serve serves the set)")
            }
        }
        var source = Source(id: id, location: location, layers: metadata.vectorLayers.map(\.id))
        if metadata.format == "mlt" { source.encoding = "mlt" }
        self.init(name: metadata.name, sources: [source], glyphs: glyphs)
        if let center = metadata.center {
            // MapLibre counts 512-pixel tiles: one zoom less than the tiles' 256-point zoom.
            self.center = (center.longitude, center.latitude, Double(max(0, center.zoom - 1)))
        }
    }
}

import OverlayModel

/// A MapLibre style (style specification v8) built from a tile set's layers: for every vector
/// layer a fill, an outline, a line, a circle and (with glyphs) a label layer, each filtered to
/// its geometry kind, with paint read from the simplestyle properties the features carry
/// (`fill`, `fill-opacity`, `stroke`, `stroke-width`, `stroke-opacity`, `marker-color`,
/// `marker-size`) — which `tile` writes for KML styles too — over `overlaykit render`'s
/// defaults (docs/render.md), so a map of the tiles looks like `render` of the file.
public struct MapLibreStyle: Sendable {
    /// One vector source of the style and the layers its tiles hold.
    public struct Source: Hashable, Sendable {
        /// The source's id in the style (also the prefix of its layers' ids).
        public var id: String
        /// Where MapLibre finds the source: a TileJSON URL (`url`), or tile URL templates.
        public var location: Location
        /// The vector layers (`source-layer` names), in drawing order.
        public var layers: [String]
        /// The tiles' encoding when it is not MVT: "mlt" (the source then says `"encoding": "mlt"`).
        public var encoding: String?
        /// The colour (`#rrggbb`) of fills, lines and points of features that name none; nil:
        /// `render`'s defaults (blue shapes, red points).
        public var color: String?

        /// How a source is located.
        public enum Location: Hashable, Sendable {
            /// A TileJSON document's URL (also `pmtiles://…` with the PMTiles protocol).
            case tileJSON(String)
            /// Tile URL templates with `{z}`, `{x}`, `{y}`, and the zooms and bounds tiles exist for.
            case tiles([String], minZoom: Int, maxZoom: Int, bounds: TileSetMetadata.Bounds?)
        }

        /// A source from its parts.
        public init(id: String, location: Location, layers: [String]) {
            self.id = id
            self.location = location
            self.layers = layers
        }
    }

    /// The style's name.
    public var name: String
    /// The sources, drawn in order (later ones above).
    public var sources: [Source]
    /// The glyphs URL template (`{fontstack}`, `{range}`); nil leaves labels out, as a symbol
    /// layer with text needs glyphs. `overlaykit serve` serves them at
    /// `/fonts/{fontstack}/{range}.pbf` (``SDFGlyphFont``).
    public var glyphs: String?
    /// The font stack of labels, as the glyph server names it: by default the font
    /// ``SDFGlyphFont`` makes glyphs of, which `overlaykit serve` serves.
    public var fontStack: [String] = [SDFGlyphFont.defaultFamily]
    /// The map's background color.
    public var background = "#ffffff"
    /// Where the map starts: longitude, latitude, zoom (MapLibre's 512-pixel zoom); nil for none.
    public var center: (longitude: Double, latitude: Double, zoom: Double)?

    /// A style of `sources`; labels only with `glyphs`.
    public init(name: String, sources: [Source], glyphs: String? = nil) {
        self.name = name
        self.sources = sources
        self.glyphs = glyphs
    }

    /// Colours that tell sources apart (ColorBrewer's Dark2), for ``Source/color``: `serve`
    /// gives its first source `render`'s defaults and the others these in order.
    public static let sourceColors = ["#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d"]

    // `overlaykit render`'s defaults (RenderStyle.standard), as MapLibre values.
    static let defaultStroke = "#3366cc", defaultFill = "#3366cc", defaultMarker = "#e0413a", defaultLabel = "#1a1a1a"
    static let defaultStrokeWidth = 2.0, defaultFillOpacity = 0.25, simplestyleFillOpacity = 0.6

    /// The layer ids for one source layer, in the order they are drawn.
    public static func layerIDs(source: String, layer: String, labels: Bool) -> [String] {
        ["fill", "outline", "line", "circle"].map { "\(source)/\(layer)/\($0)" } + (labels ? ["\(source)/\(layer)/label"] : [])
    }

    /// The style document.
    public func json() -> JSONObject {
        var style = JSONObject()
        style.append("version", .integer(8))
        style.append("name", .string(name))
        if let center {
            style.append("center", .array([.number(center.longitude), .number(center.latitude)]))
            style.append("zoom", .number(center.zoom))
        }
        if let glyphs { style.append("glyphs", .string(glyphs)) }
        var sourceObject = JSONObject()
        for source in sources {
            var entry = JSONObject()
            entry.append("type", .string("vector"))
            if let encoding = source.encoding, encoding != "mvt" { entry.append("encoding", .string(encoding)) }
            switch source.location {
            case .tileJSON(let url):
                entry.append("url", .string(url))
            case .tiles(let templates, let minZoom, let maxZoom, let bounds):
                entry.append("tiles", .array(templates.map { .string($0) }))
                entry.append("minzoom", .integer(Int64(minZoom)))
                entry.append("maxzoom", .integer(Int64(maxZoom)))
                if let bounds { entry.append("bounds", Self.bounds(bounds)) }
            }
            sourceObject.append(source.id, .object(entry))
        }
        style.append("sources", .object(sourceObject))
        var layers: [JSONValue] = [.object(["id": .string("background"), "type": .string("background"),
                                            "paint": .object(["background-color": .string(background)])])]
        // Areas and lines of every source first, then points and labels above them all, as
        // `render` draws annotations above overlays.
        for source in sources {
            for layer in source.layers {
                layers += [fill(source.id, layer, source.color), outline(source.id, layer, source.color), line(source.id, layer, source.color)]
            }
        }
        for source in sources {
            for layer in source.layers {
                layers.append(circle(source.id, layer, source.color))
                if glyphs != nil { layers.append(label(source.id, layer)) }
            }
        }
        style.append("layers", .array(layers))
        return style
    }

    /// The style as JSON bytes.
    public func bytes() -> [UInt8] {
        var out = JSONBytes()
        out.appendObject(json())
        out.append(UInt8(ascii: "\n"))
        return out.bytes
    }

    /// `[west, south, east, north]`.
    static func bounds(_ bounds: TileSetMetadata.Bounds) -> JSONValue {
        .array([.number(bounds.west), .number(bounds.south), .number(bounds.east), .number(bounds.north)])
    }

    // MARK: Layers

    private func base(_ source: String, _ layer: String, _ kind: String, type: String, geometry: String) -> JSONObject {
        var object = JSONObject()
        object.append("id", .string("\(source)/\(layer)/\(kind)"))
        object.append("type", .string(type))
        object.append("source", .string(source))
        object.append("source-layer", .string(layer))
        // The legacy `$type` filter matches multi-geometries too.
        object.append("filter", .array([.string("=="), .string("$type"), .string(geometry)]))
        return object
    }

    /// `["to-color", ["get", key], fallback]`: the property when it is a color, else the fallback.
    static func color(_ key: String, _ fallback: String) -> JSONValue {
        .array([.string("to-color"), get(key), .string(fallback)])
    }

    /// `["to-number", ["coalesce", ["get", key], fallback]]`: the property as a number, the
    /// fallback when it is absent (`to-number` alone turns a missing value into 0).
    static func number(_ key: String, _ fallback: Double) -> JSONValue {
        .array([.string("to-number"), .array([.string("coalesce"), get(key), .number(fallback)])])
    }

    static func get(_ key: String) -> JSONValue { .array([.string("get"), .string(key)]) }

    private func fill(_ source: String, _ layer: String, _ color: String?) -> JSONValue {
        var object = base(source, layer, "fill", type: "fill", geometry: "Polygon")
        // simplestyle: fill-opacity 0.6 when a fill color is given; render's own default 0.25.
        let opacity: JSONValue = .array([.string("case"),
                                         .array([.string("has"), .string("fill-opacity")]), Self.number("fill-opacity", Self.simplestyleFillOpacity),
                                         .array([.string("has"), .string("fill")]), .number(Self.simplestyleFillOpacity),
                                         .number(Self.defaultFillOpacity)])
        object.append("paint", .object(["fill-color": Self.color("fill", color ?? Self.defaultFill), "fill-opacity": opacity]))
        return .object(object)
    }

    private func strokePaint(_ color: String?) -> JSONObject {
        ["line-color": Self.color("stroke", color ?? Self.defaultStroke),
         "line-width": Self.number("stroke-width", Self.defaultStrokeWidth),
         "line-opacity": Self.number("stroke-opacity", 1)]
    }

    private func outline(_ source: String, _ layer: String, _ color: String?) -> JSONValue {
        var object = base(source, layer, "outline", type: "line", geometry: "Polygon")
        // KML's `<outline>0</outline>` reaches the tiles as `"outline": false` (SimpleStyle.outlineKey).
        object["filter"] = .array([.string("all"), .array([.string("=="), .string("$type"), .string("Polygon")]),
                                   .array([.string("!="), .string(SimpleStyle.outlineKey), .bool(false)])])
        object.append("layout", .object(["line-cap": .string("round"), "line-join": .string("round")]))
        object.append("paint", .object(strokePaint(color)))
        return .object(object)
    }

    private func line(_ source: String, _ layer: String, _ color: String?) -> JSONValue {
        var object = base(source, layer, "line", type: "line", geometry: "LineString")
        object.append("layout", .object(["line-cap": .string("round"), "line-join": .string("round")]))
        object.append("paint", .object(strokePaint(color)))
        return .object(object)
    }

    private func circle(_ source: String, _ layer: String, _ color: String?) -> JSONValue {
        var object = base(source, layer, "circle", type: "circle", geometry: "Point")
        // simplestyle marker-size: small, medium (the default), large.
        let radius: JSONValue = .array([.string("match"), Self.get("marker-size"), .string("small"), .number(4),
                                        .string("large"), .number(9), .number(6)])
        object.append("paint", .object(["circle-color": Self.color("marker-color", color ?? Self.defaultMarker), "circle-radius": radius,
                                        "circle-stroke-color": .string("#ffffff"), "circle-stroke-width": .number(1)]))
        return .object(object)
    }

    private func label(_ source: String, _ layer: String) -> JSONValue {
        var object = base(source, layer, "label", type: "symbol", geometry: "Point")
        // The first of the title keys `render` uses (FeatureTitle.keys) that the feature has.
        let text: JSONValue = .array([.string("coalesce")] + ["name", "title", "Name", "NAME"].map { Self.get($0) } + [.string("")])
        object.append("layout", .object(["text-field": .array([.string("to-string"), text]),
                                         "text-font": .array(fontStack.map { .string($0) }),
                                         "text-size": .number(12), "text-offset": .array([.number(0), .number(0.8)]),
                                         "text-anchor": .string("top"), "text-optional": .bool(true)]))
        object.append("paint", .object(["text-color": .string(Self.defaultLabel), "text-halo-color": .string("#ffffff"),
                                        "text-halo-width": .number(1)]))
        return .object(object)
    }
}

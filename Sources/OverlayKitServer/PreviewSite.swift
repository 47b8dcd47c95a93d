import Foundation
import OverlayKit

/// The preview site's answers, independent of any HTTP library: a request (method, path,
/// headers) in, a response out. Only names it was given are reachable: the page, the style,
/// one TileJSON per tile set and its tiles, and (with ``PreviewSite/Options/mapLibreScript``)
/// the MapLibre files, and the label glyphs (`/fonts/{fontstack}/{range}.pbf`, made from
/// ``SDFGlyphFont`` unless ``PreviewSite/Options/glyphs`` names another host); no part of a path
/// is ever used as a file name, so no path — `..`, percent-encoded or absolute — reaches
/// anything else.
public struct PreviewSite: Sendable {
    /// How the site is made.
    public struct Options: Sendable {
        /// MapLibre GL JS's script file, served as `/maplibre-gl.js` (with `maplibre-gl.css`
        /// beside it, when there); nil loads ``mapLibreVersion`` from the CDN.
        public var mapLibreScript: String?
        /// A glyphs URL template (`{fontstack}`, `{range}`) on another host for the labels; nil
        /// serves them from `/fonts/` (``SDFGlyphFont``, DejaVu Sans).
        public var glyphs: String?
        /// The labels' font stack, as the glyphs host names it (`/fonts/` serves a stack that
        /// names ``SDFGlyphFont/defaultFamily``).
        public var fontStack: [String]
        /// Bytes of tiles transcoded from MLT kept per tile set (when the page's MapLibre reads no MLT).
        public var transcodedCacheBytes = TranscodedTileProvider.defaultCacheBytes

        /// The defaults: MapLibre from the CDN, labels with glyphs from `/fonts/`.
        public init(mapLibreScript: String? = nil, glyphs: String? = nil, fontStack: [String] = [SDFGlyphFont.defaultFamily]) {
            self.mapLibreScript = mapLibreScript
            self.glyphs = glyphs
            self.fontStack = fontStack
        }
    }

    /// The MapLibre GL JS release the page loads from the CDN: the last 5.x release (5.x is the
    /// line the page is built for; 6.0 dropped WebGL 1 and reworked the URL hash the page reads), which reads
    /// MapLibre Tiles (5.12.0 and later) and queries their features for the inspector (5.21.0
    /// fixed `queryRenderedFeatures` on MLT).
    public static let mapLibreVersion = "5.24.0"

    /// An answer.
    public struct Response: Sendable {
        /// HTTP status.
        public var status: Int
        /// Header fields in order.
        public var headers: [(name: String, value: String)]
        /// The body (empty for HEAD).
        public var body: [UInt8]
        /// True when ``body`` holds gzip bytes the server inflates as it sends them (a gzip tile
        /// for a client that takes no gzip): the client gets the inflated bytes, chunk by chunk,
        /// without a `Content-Length`.
        public var inflatesBody = false

        /// The value of the first header called `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// A request event the page reports (`/client-event`): MapLibre errors and idle.
    public struct ClientEvent: Sendable, Hashable {
        /// `error`, `idle` or `load`.
        public var type: String
        /// What happened.
        public var message: String
    }

    /// The tile sets, each under its id; an MLT set is a ``TranscodedTileProvider`` giving MVT
    /// when the page's MapLibre reads no MLT (``mapLibreReadsMLT``).
    public let tileSets: [ServedTileSet]
    /// The options.
    public let options: Options
    /// The release of the MapLibre GL JS the page loads: ``mapLibreVersion`` from the CDN, or
    /// the one ``Options/mapLibreScript``'s header names (nil when it names none).
    public let mapLibreScriptVersion: MapLibreScriptVersion?
    /// True when the page's MapLibre decodes MapLibre Tiles (5.12.0 and later); otherwise MLT
    /// sets are served as MVT, transcoded tile by tile.
    public var mapLibreReadsMLT: Bool { mapLibreScriptVersion?.readsMLT ?? false }
    /// What the site changed to show the sets, one sentence each (MLT served as MVT), for the
    /// person who started it.
    public let notes: [String]
    private let scriptBytes: [UInt8]?
    private let stylesheetBytes: [UInt8]?
    /// The font `/fonts/` serves; nil when the glyphs come from another host.
    private let glyphFont: SDFGlyphFont?

    /// A site serving `tileSets`.
    /// - Throws: `Diagnostic` `io.*` when the MapLibre script cannot be read, `render.cairo-failed`
    ///   when the label font cannot be made.
    public init(tileSets: [ServedTileSet], options: Options = Options()) throws {
        self.options = options
        glyphFont = options.glyphs == nil ? try SDFGlyphFont() : nil
        if let script = options.mapLibreScript {
            guard let bytes = FileManager.default.contents(atPath: script) else {
                throw Diagnostic(.error, code: .ioNotFound, message: "cannot read MapLibre GL JS at \(script)")
            }
            scriptBytes = Array(bytes)
            mapLibreScriptVersion = MapLibreScriptVersion(script: scriptBytes!)
            // maplibre-gl.css beside maplibre-gl.js.
            let name = PathName(script)
            let css = PathName(name.directory).appending(name.stem + ".css")
            stylesheetBytes = FileManager.default.contents(atPath: css).map(Array.init)
        } else {
            scriptBytes = nil
            stylesheetBytes = nil
            mapLibreScriptVersion = MapLibreScriptVersion(Substring(Self.mapLibreVersion))
        }
        var served = tileSets
        var notes = [String]()
        if !(mapLibreScriptVersion?.readsMLT ?? false) {
            let script = options.mapLibreScript ?? "the CDN"
            let release = mapLibreScriptVersion.map { "MapLibre GL JS \($0) (\(script)) reads no MapLibre Tiles" }
                ?? "\(script) names no MapLibre GL JS release in its header"
            for index in served.indices where served[index].provider.contentType == .mlt {
                served[index].provider = try TranscodedTileProvider(served[index].provider, as: .mvt,
                                                                    cacheBytes: options.transcodedCacheBytes)
                notes.append("\(release) (\(MapLibreScriptVersion.firstReadingMLT) and later do): "
                             + "\(served[index].title) is served as MVT, each tile transcoded from MLT")
            }
        }
        self.tileSets = served
        self.notes = notes
    }

    /// The answer to `method path` with request `headers` (names any case). `origin` is how
    /// the client reached the server (`http://127.0.0.1:8080`), for the URLs in documents.
    public func respond(method: String, path rawPath: String, headers: [(name: String, value: String)], origin: String,
                        onClientEvent: (ClientEvent) -> Void = { _ in }) -> Response {
        let isHead = method == "HEAD"
        guard method == "GET" || isHead else {
            return finish(text(405, "only GET and HEAD\n", extra: [("Allow", "GET, HEAD")]), head: false)
        }
        var path = rawPath
        var query = ""
        if let mark = path.firstIndex(of: "?") {
            query = String(path[path.index(after: mark)...])
            path = String(path[..<mark])
        }
        // Percent-decoded once; a name is compared whole, never used as a file name.
        guard let decoded = path.removingPercentEncoding else { return finish(text(400, "bad percent-encoding\n"), head: isHead) }
        let parts = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let response: Response
        switch parts.first {
        case "" where parts.count == 1:
            response = ok(PreviewPage.html(site: self), type: "text/html; charset=utf-8", headers: headers)
        case "style.json" where parts.count == 1:
            response = ok(style(origin: origin).bytes(), type: "application/json", headers: headers)
        case "tilesets" where parts.count == 2:
            guard parts[1].hasSuffix(".json"), let tileSet = tileSet(String(parts[1].dropLast(5))) else { return finish(notFound(), head: isHead) }
            response = ok(TileJSONDocument.bytes(metadata: tileSet.provider.metadata, tiles: [tileTemplate(tileSet, origin: origin)]),
                          type: "application/json", headers: headers)
        case "tiles" where parts.count == 5:
            response = tile(parts, headers: headers)
        case "fonts" where parts.count == 3 && glyphFont != nil:
            response = glyphs(fontStack: parts[1], file: parts[2], headers: headers)
        case "maplibre-gl.js" where parts.count == 1 && scriptBytes != nil:
            response = ok(scriptBytes!, type: "text/javascript; charset=utf-8", headers: headers)
        case "maplibre-gl.css" where parts.count == 1 && stylesheetBytes != nil:
            response = ok(stylesheetBytes!, type: "text/css; charset=utf-8", headers: headers)
        case "catalog" where parts.count == 1:
            response = ok(catalog(origin: origin), type: "application/json", headers: headers)
        case "client-event" where parts.count == 1:
            var fields = [String: String]()
            for pair in query.split(separator: "&") {
                let item = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                if item.count == 2 { fields[item[0]] = item[1] }
            }
            // Escaped and capped here: the page's words reach a terminal.
            onClientEvent(ClientEvent(type: LogText.escaped(fields["type"] ?? "message", limit: 16),
                                      message: LogText.escaped(fields["message"] ?? "", limit: 500)))
            response = Response(status: 204, headers: [("Cache-Control", "no-store")], body: [])
        default:
            response = notFound()
        }
        return finish(response, head: isHead)
    }

    /// The style `/style.json` serves: every tile set a source through its TileJSON, each in a
    /// colour of its own (``MapLibreStyle/sourceColors``) where its features give none.
    public func style(origin: String) -> MapLibreStyle {
        let vector = tileSets.filter { $0.provider.contentType.isVector }
        var style = MapLibreStyle(name: tileSets.map(\.id).joined(separator: ", "), sources: vector.enumerated().map { index, tileSet in
            var source = MapLibreStyle.Source(id: tileSet.id, location: .tileJSON("\(origin)/tilesets/\(tileSet.id).json"),
                                              layers: tileSet.provider.metadata.vectorLayers.map(\.id))
            source.encoding = tileSet.provider.contentType.name                 // "mlt" says `"encoding": "mlt"`
            // The first keeps `render`'s colours (so the page and `render` draw it alike).
            source.color = index == 0 ? nil : MapLibreStyle.sourceColors[(index - 1) % MapLibreStyle.sourceColors.count]
            return source
        }, glyphs: options.glyphs ?? "\(origin)/fonts/{fontstack}/{range}.pbf")
        style.fontStack = options.fontStack
        if let bounds = bounds {
            style.center = ((bounds.west + bounds.east) / 2, (bounds.south + bounds.north) / 2, 0)
        }
        return style
    }

    /// `/catalog`: every tile set with its content type, title, TileJSON and tiles, and the
    /// fonts served, as martin's catalog lists them (`{"tiles": {ID: {…}}, "fonts": {…}}`).
    public func catalog(origin: String) -> [UInt8] {
        var tiles = JSONObject()
        for tileSet in tileSets {
            let metadata = tileSet.provider.metadata
            var entry = JSONObject()
            entry.append("content_type", .string(tileSet.provider.contentType.mediaType))
            entry.append("name", .string(tileSet.title))
            entry.append("tilejson", .string("\(origin)/tilesets/\(tileSet.id).json"))
            entry.append("tiles", .string(tileTemplate(tileSet, origin: origin)))
            entry.append("minzoom", .integer(Int64(metadata.minZoom)))
            entry.append("maxzoom", .integer(Int64(metadata.maxZoom)))
            entry.append("layers", .array(metadata.vectorLayers.map { .string($0.id) }))
            tiles.append(tileSet.id, .object(entry))
        }
        var fonts = JSONObject()
        if let glyphFont {
            let stack = glyphFont.family.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? glyphFont.family
            fonts.append(glyphFont.family, .object(["url": .string("\(origin)/fonts/\(stack)/{range}.pbf")]))
        }
        return JSONValue.object(["tiles": .object(tiles), "fonts": .object(fonts)]).jsonBytes
    }

    /// The union of the tile sets' bounds.
    public var bounds: TileSetMetadata.Bounds? {
        tileSets.compactMap { $0.provider.metadata.bounds }.reduce(nil) { $0?.union($1) ?? $1 }
    }

    /// The URL template of a tile set's tiles.
    public func tileTemplate(_ tileSet: ServedTileSet, origin: String) -> String {
        "\(origin)/tiles/\(tileSet.id)/{z}/{x}/{y}.\(tileSet.provider.contentType.fileExtension)"
    }

    func tileSet(_ id: String) -> ServedTileSet? { tileSets.first { $0.id == id } }

    private func tile(_ parts: [String], headers: [(name: String, value: String)]) -> Response {
        guard let tileSet = tileSet(parts[1]) else { return notFound() }
        let type = tileSet.provider.contentType
        let last = parts[4]
        // `0.mvt.mvt` names no tile: the name is a row and the set's extension, nothing more.
        guard last.hasSuffix("." + type.fileExtension), !last.dropLast(type.fileExtension.count + 1).contains(".") else { return notFound() }
        let id: TileID
        do {
            id = try TileID(parsing: "\(parts[2])/\(parts[3])/\(last.dropLast(type.fileExtension.count + 1))")
        } catch let diagnostic as Diagnostic {
            return text(400, diagnostic.message + "\n")
        } catch {
            return text(400, "bad tile address\n")
        }
        let stored: StoredTile
        do {
            guard let found = try tileSet.provider.storedTile(id) else { return notFound() }
            stored = found
        } catch {
            return text(500, "tile \(id): \(error)\n")
        }
        let acceptsGzip = AcceptEncoding(headers.filter { $0.name.lowercased() == "accept-encoding" }.map(\.value)).accepts("gzip")
        let body = stored.bytes
        var extra: [(String, String)] = [("Vary", "Accept-Encoding")]
        var tag = Self.hash(stored.bytes)
        if stored.compression == .gzip {
            if acceptsGzip {
                extra.append(("Content-Encoding", "gzip"))
                tag += "-gzip"
            } else {
                // Inflated by the server as the client reads (a 60 MiB tile is never held whole).
                var response = ok(body, type: type.mediaType, headers: headers, etag: "\"\(tag)\"", extra: extra)
                response.inflatesBody = response.status == 200
                return response
            }
        }
        return ok(body, type: type.mediaType, headers: headers, etag: "\"\(tag)\"", extra: extra)
    }

    /// `/fonts/STACK/START-END.pbf`: the glyphs of one range when the stack names the served font.
    private func glyphs(fontStack: String, file: String, headers: [(name: String, value: String)]) -> Response {
        guard let font = glyphFont, file.hasSuffix(".pbf"), let range = GlyphRange(parsing: file.dropLast(4)) else { return notFound() }
        let names = fontStack.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.contains(font.family) else { return notFound() }
        do {
            return ok(try font.pbf(fontStack: fontStack, range: range), type: "application/x-protobuf", headers: headers)
        } catch {
            return text(500, "\(error)\n")
        }
    }

    // MARK: Responses

    private func ok(_ body: [UInt8], type: String, headers: [(name: String, value: String)], etag: String? = nil,
                    extra: [(String, String)] = []) -> Response {
        let tag = etag ?? "\"\(Self.hash(body))\""
        var fields: [(name: String, value: String)] = [("Content-Type", type), ("ETag", tag), ("Cache-Control", "no-cache"),
                                                       ("Access-Control-Allow-Origin", "*")]
        fields += extra.map { (name: $0.0, value: $0.1) }
        let matches = headers.filter { $0.name.lowercased() == "if-none-match" }.flatMap { $0.value.split(separator: ",") }
            .contains { $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*" }
        if matches { return Response(status: 304, headers: fields.filter { $0.name != "Content-Type" }, body: []) }
        return Response(status: 200, headers: fields, body: body)
    }

    private func notFound() -> Response { text(404, "not found\n") }

    private func text(_ status: Int, _ message: String, extra: [(String, String)] = []) -> Response {
        Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")]
                    + extra.map { (name: $0.0, value: $0.1) }, body: Array(message.utf8))
    }

    private func finish(_ response: Response, head: Bool) -> Response {
        var result = response
        if response.inflatesBody {
            // Sent chunked, its length unknown; HEAD gets the true length, counted a chunk at a
            // time with nothing kept (a chunked announcement would promise a body HEAD cannot have).
            guard head else { return result }
            guard let chunks = try? GzipChunks(response.body, limit: GzipChunks.tileLimit, source: "tile") else { return finish(text(500, "tile does not inflate\n"), head: head) }
            var length = 0
            do {
                while let chunk = try chunks.next() { length += chunk.count }
            } catch {
                return finish(text(500, "\(error)\n"), head: head)
            }
            result.inflatesBody = false
            result.headers.append(("Content-Length", String(length)))
            result.body = []
            return result
        }
        result.headers.append(("Content-Length", String(response.body.count)))
        if head { result.body = [] }
        return result
    }

    /// FNV-1a 64 over the bytes, as 16 hex digits (an ETag: equal bytes, equal tag).
    static func hash(_ bytes: [UInt8]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// One tile set the site serves, under an id used in its URLs.
public struct ServedTileSet: Sendable {
    /// The id in URLs and the style (letters, digits, `-` and `_`).
    public var id: String
    /// Where it came from (a path), for the page.
    public var title: String
    /// The tiles.
    public var provider: any TileProvider

    /// A served tile set.
    public init(id: String, title: String, provider: any TileProvider) {
        self.id = id
        self.title = title
        self.provider = provider
    }

    /// Ids for `names` (file names): letters, digits, `-` and `_` kept, the rest `_`, made unique with `-2`, `-3`….
    public static func ids(for names: [String]) -> [String] {
        var seen = Set<String>()
        return names.map { name in
            var base = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
            if base.isEmpty { base = "tiles" }
            var candidate = base, number = 1
            while seen.contains(candidate) {
                number += 1
                candidate = "\(base)-\(number)"
            }
            seen.insert(candidate)
            return candidate
        }
    }
}

import OverlayModel

/// What a feature element's children said beyond its properties: gathered while they are read,
/// used once all are (the overlay parts only mean something on the matching kind of feature).
struct KMLFeatureParts {
    var shape: Shape?
    var info = KMLParserCore.GeometryInfo()
    var iconHref: String?
    var box: (north: Double, south: Double, east: Double, west: Double, rotation: Double)?
    var quad: [Coordinate]?
    var link: JSONObject?
    var region: (box: [Double]?, lod: [JSONValue]?)?
    var regionLine: Int
}

// Features: one `Placemark`, `GroundOverlay`, `NetworkLink`, `ScreenOverlay` or `PhotoOverlay`
// with its properties, geometry and overlay parts, and the conventions the writer left in it.
extension KMLParserCore {
    /// Reads one feature element; `legacyFields` are the typed child elements of a
    /// `Schema parent="Placemark"` placemark (see `KMLLegacySchemaPlacemarks`).
    func parseFeature(kind: String, index: Int, legacyFields: [String: KMLLegacySchemaPlacemarks.Field]? = nil) throws -> PendingFeature {
        let line = xml.line
        let qualified = xml.qualifiedName
        let path = currentPath + "/\(legacyFields == nil ? kind : xml.localName)[\(index)]"
        var feature = Feature(shape: nil, folderPath: folderPath,
                              location: xml.location(line: line, needle: "<" + qualified, kmlPath: path))
        if let id = xml.attribute("id") { feature.id = .string(id) }
        var pending = PendingFeature(feature: feature, line: line)
        lateSchemaValues = []
        var properties = KMLPropertyBuilder(expecting: lastPropertyCount)
        var parts = KMLFeatureParts(regionLine: line)

        try xml.forEachChild { name in
            try readFeatureChild(name, kind: kind, legacyFields: legacyFields, parts: &parts, properties: &properties, pending: &pending)
        }

        if let mode = parts.info.altitudeMode { properties["altitudeMode"] = .string(mode) }
        if let extrude = parts.info.extrude { properties["extrude"] = .bool(extrude) }
        if let tessellate = parts.info.tessellate { properties["tessellate"] = .bool(tessellate) }
        if let times = parts.info.times { properties.setTimes(times) }
        finishOverlay(kind: kind, line: line, parts: &parts, feature: &feature, properties: &properties)

        restoreFeatureID(of: &feature, from: &properties)
        var shape = parts.shape
        // What KML cannot say about a GeoJSON feature, from the writer's overlaykit: Data.
        let hadNullProperties = KMLGeoJSONFidelity.hadNullProperties(properties)
        KMLGeoJSONFidelity.restore(&feature, shape: &shape, properties: &properties)
        // A polygon carrying a circle's center and radius is that circle.
        if case .polygon? = shape, let circle = KMLCircle.circle(from: properties.object) {
            shape = .circle(circle)
            properties[KMLConventions.circleCenterKey] = nil
            properties[KMLConventions.circleRadiusKey] = nil
        }
        if let current = shape {
            shape = decorate(current, properties: properties.object)
        }
        feature.shape = shape
        feature.properties = hadNullProperties && properties.isEmpty ? nil : properties.object
        lastPropertyCount = properties.count
        for move in properties.moves {
            for index in lateSchemaValues.indices where lateSchemaValues[index].propertyKey == move.from {
                lateSchemaValues[index].propertyKey = move.to
            }
        }
        propertyCollisions.add(properties.collisions, unnamed: properties.unnamedCount, at: feature.location)
        pending.feature = feature
        pending.lateSchemaValues = lateSchemaValues
        lateSchemaValues = []
        return pending
    }

    /// Reads one child of a feature element into its properties, parts or pending styles.
    private func readFeatureChild(_ name: String, kind: String, legacyFields: [String: KMLLegacySchemaPlacemarks.Field]?,
                                  parts: inout KMLFeatureParts, properties: inout KMLPropertyBuilder,
                                  pending: inout PendingFeature) throws {
        switch name {
        case "name", "description", "address", "phoneNumber":
            // An empty element is kept as "" (togeojson leaves it out), so KML → GeoJSON → KML
            // writes it back and GeoJSON's `"name": ""` survives GeoJSON → KML → GeoJSON.
            // Markup in a description is kept as the XML written, as GDAL does.
            let text = name == "description" ? try xml.readInnerXML() : try xml.readText()
            properties[name] = .string(text)
        case "visibility":
            let valueLine = xml.line
            let text = try xml.readText()
            if let flag = KMLStyleParser.bool(text) { properties["visibility"] = .bool(flag) } else {
                report(.kmlInvalidValue, "visibility '\(text.kmlTrimmed)' is not 0 or 1; kept as text", line: valueLine)
                properties["visibility"] = .string(text)
            }
        case "styleUrl":
            pending.styleUrl = try xml.readText().kmlTrimmed
        case "Style":
            pending.inlineStyle = try styleParser().parseStyle()
        case "StyleMap":
            pending.inlineMap = try styleParser().parseStyleMap()
        case "ExtendedData":
            try parseExtendedData(into: &properties)
        case "TimeStamp":
            try xml.forEachChild { part in
                if part == "when" { properties["timestamp"] = .string(try xml.readText().kmlTrimmed) } else { try skipReported(part, in: "TimeStamp") }
            }
        case "TimeSpan":
            var span = JSONObject()
            try xml.forEachChild { part in
                if part == "begin" || part == "end" { span[part] = .string(try xml.readText().kmlTrimmed) } else { try skipReported(part, in: "TimeSpan") }
            }
            properties["timespan"] = .object(span)
        case "Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "Track", "MultiTrack", "Model",
             "MultiPolygon", "MultiLineString", "MultiPoint":
            if parts.shape != nil {
                report(.kmlExtraGeometry, "<\(kind)> has more than one geometry; only the first is kept", line: xml.line)
                try xml.skipElement()
            } else {
                let types = properties[KMLConventions.geometryTypeKey]?.stringValue.flatMap(KMLGeoJSONFidelity.multiGeometryTypes(in:))
                multiGeometryTypes = types.map { $0[...] } ?? []
                parts.shape = try parseGeometry(name, info: &parts.info)
                multiGeometryTypes = []
            }
        case "Icon", "LatLonBox", "LatLonQuad", "Link", "Url", "Region":
            try readOverlayChild(name, parts: &parts)
        case "altitude", "drawOrder":
            properties[name] = .number(try readNumber(name) ?? 0)
        case "altitudeMode":
            properties["altitudeMode"] = .string(try xml.readText().kmlTrimmed)
        case _ where legacyFields?[name] != nil:
            let valueLine = xml.line
            _ = properties.appendData(name, typedValue(try xml.readText(), field: legacyFields?[name], key: name, line: valueLine))
        default:
            try skipReported(xml.qualifiedName, in: kind)
        }
    }

    /// Reads an overlay's image, placement, link or region (`Icon`, `LatLonBox`,
    /// `gx:LatLonQuad`, `Link`/`Url`, `Region`).
    private func readOverlayChild(_ name: String, parts: inout KMLFeatureParts) throws {
        switch name {
        case "Icon":
            try xml.forEachChild { part in
                if part == "href" { parts.iconHref = try xml.readText().kmlTrimmed } else { try skipReported(part, in: "Icon") }
            }
        case "LatLonBox":
            var values: [String: Double] = [:]
            try xml.forEachChild { part in values[part] = try readNumber(part) }
            if let north = values["north"], let south = values["south"], let east = values["east"], let west = values["west"] {
                parts.box = (north, south, east, west, values["rotation"] ?? 0)
            } else {
                report(.kmlInvalidValue, "LatLonBox needs north, south, east and west", line: xml.line)
            }
        case "LatLonQuad":
            parts.quad = try parseCoordinates(of: "LatLonQuad")
        case "Link", "Url":
            var object = JSONObject()
            try xml.forEachChild { part in object[part] = .string(try xml.readText().kmlTrimmed) }
            parts.link = object
        default:
            parts.regionLine = xml.line
            parts.region = try parseRegion()
        }
    }

    /// Gives an overlay its geometry and link properties, and reports overlay parts that mean
    /// nothing on this kind of feature.
    private func finishOverlay(kind: String, line: Int, parts: inout KMLFeatureParts, feature: inout Feature,
                               properties: inout KMLPropertyBuilder) {
        switch kind {
        case "GroundOverlay":
            properties["@geometry-type"] = .string("groundoverlay")
            if let iconHref = parts.iconHref { properties["icon"] = .string(iconHref) }
            if let box = parts.box {
                parts.shape = .polygon(Polygon(coordinates: KMLGroundOverlay.ring(north: box.north, south: box.south, east: box.east,
                                                                                  west: box.west, rotation: box.rotation)))
                feature.foreignMembers["bbox"] = .array([box.west, box.south, box.east, box.north].map { .number($0) })
            } else if let quad = parts.quad, quad.count == 4 {
                parts.shape = .polygon(Polygon(coordinates: quad + [quad[0]]))
            } else {
                report(.kmlInvalidValue, "GroundOverlay has neither a LatLonBox nor a 4-corner gx:LatLonQuad; read without geometry", line: line)
            }
        case "NetworkLink", "ScreenOverlay", "PhotoOverlay":
            finishLinkOverlay(kind: kind, parts: &parts, feature: &feature, properties: &properties)
        default:
            if parts.region != nil {
                report(.kmlIgnoredElement, "<Region> in <\(kind)> is not kept", line: parts.regionLine, once: kind + "/Region", needle: "<Region")
            }
        }
        // Overlay parts read above but meaningless on this kind of feature: said, not dropped silently.
        if kind == "Placemark" {
            for (present, element) in [(parts.iconHref != nil, "Icon"), (parts.box != nil, "LatLonBox"), (parts.quad != nil, "gx:LatLonQuad"),
                                       (parts.link != nil, "Link")]
            where present {
                report(.kmlIgnoredElement, "<\(element == "Link" ? "Link>/<Url" : element)> in <Placemark> is not kept", line: line, once: "Placemark/" + element)
            }
        }
    }

    /// A `NetworkLink`, `ScreenOverlay` or `PhotoOverlay`: its link as properties, and a warning
    /// that the link is not fetched.
    private func finishLinkOverlay(kind: String, parts: inout KMLFeatureParts, feature: inout Feature,
                                   properties: inout KMLPropertyBuilder) {
        // Geometry (docs/kml.md): a PhotoOverlay's Point, else the Region's box, where the
        // link or photo is active; a ScreenOverlay is drawn on the screen, not the map, so it
        // has none and its Region's box is the property `region` [west, south, east, north].
        properties["@geometry-type"] = .string(kind.lowercased())
        if let iconHref = parts.iconHref { properties["icon"] = .string(iconHref) }
        if let link = parts.link {
            if let href = link["href"] { properties["href"] = href }
            for member in link where member.key != "href" { properties[member.key] = member.value }
        }
        if let region = parts.region {
            if let lod = region.lod { properties["lod"] = .array(lod) }
            if kind == "ScreenOverlay", let b = region.box {
                properties["region"] = .array([b[3], b[1], b[2], b[0]].map { .number($0) })
            } else if parts.shape == nil, let b = region.box {
                parts.shape = .polygon(Polygon(coordinates: [
                    Coordinate(latitude: b[0], longitude: b[3]), Coordinate(latitude: b[0], longitude: b[2]),
                    Coordinate(latitude: b[1], longitude: b[2]), Coordinate(latitude: b[1], longitude: b[3]),
                    Coordinate(latitude: b[0], longitude: b[3]),
                ]))
                feature.foreignMembers["bbox"] = .array([b[3], b[1], b[2], b[0]].map { .number($0) })
            }
        }
        let target = (parts.link?["href"] ?? parts.iconHref.map { .string($0) })?.stringValue ?? "no link"
        // A link to an entry of the same KMZ is read, not fetched (KMZNetworkLinks).
        if kind == "NetworkLink", archiveEntry?(target) != nil { return }
        warnings.append(Diagnostic(.warning, code: .kmlNotFetched,
                                   message: "<\(kind)> kept as a feature; its link (\(target)) is not fetched",
                                   location: feature.location))
    }

    /// A feature id the writer could not put in the `id` attribute (`KMLConventions.featureIDKey`,
    /// JSON text), restored as the id it was.
    private func restoreFeatureID(of feature: inout Feature, from properties: inout KMLPropertyBuilder) {
        guard let text = properties[KMLConventions.featureIDKey]?.stringValue else { return }
        let scanner = JSONScanner(input: ByteInput(string: text))
        switch try? scanner.readValue() {
        case .string(let id)?: feature.id = .string(id)
        case .integer(let id)?: feature.id = .integer(id)
        case .number(let id)?: feature.id = .number(id)
        default: feature.id = .string(text)
        }
        properties[KMLConventions.featureIDKey] = nil
    }

    /// Points take the feature's name and description as title and subtitle.
    private func decorate(_ shape: Shape, properties: JSONObject) -> Shape {
        switch shape {
        case .annotation(var annotation):
            // An empty name or description titles nothing.
            annotation.title = properties["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            annotation.subtitle = properties["description"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            return .annotation(annotation)
        case .collection(var collection):
            collection.members = collection.members.map { decorate($0, properties: properties) }
            return .collection(collection)
        default:
            return shape
        }
    }

    /// A `Region`: its `LatLonAltBox` as [north, south, east, west] and its `Lod` as
    /// [minLodPixels, maxLodPixels, minFadeExtent, maxFadeExtent] (null where absent).
    private func parseRegion() throws -> (box: [Double]?, lod: [JSONValue]?) {
        var box: [Double]?
        var lod: [JSONValue]?
        try xml.forEachChild { part in
            switch part {
            case "LatLonAltBox":
                var values: [String: Double] = [:]
                try xml.forEachChild { field in
                    // altitudeMode (and gx:altitudeMode) is a word, not a number; the region's altitudes are not kept.
                    if field == "altitudeMode" { try xml.skipElement() } else { values[field] = try readNumber(field) }
                }
                if let n = values["north"], let s = values["south"], let e = values["east"], let w = values["west"] { box = [n, s, e, w] }
            case "Lod":
                var values: [String: Double] = [:]
                try xml.forEachChild { field in values[field] = try readNumber(field) }
                lod = ["minLodPixels", "maxLodPixels", "minFadeExtent", "maxFadeExtent"].map { key in
                    values[key].map { .number($0) } ?? .null
                }
            default:
                try skipReported(part, in: "Region")
            }
        }
        return (box, lod)
    }
}

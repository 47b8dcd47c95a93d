import OverlayModel

extension KMLConventions {
    /// ExtendedData `Data` saying a feature's GeoJSON `"properties"` was `null` (value `null`),
    /// which KML, whose placemarks always have a set of fields, cannot tell from `{}`.
    public static let nullPropertiesKey = "overlaykit:properties"
    /// ExtendedData `Data` naming the GeoJSON geometry type where KML cannot say it: a
    /// `GeometryCollection` whose members are of one kind (a `MultiGeometry` of one kind reads
    /// as a Multi* otherwise), or the type of an empty geometry (written as no geometry).
    public static let geometryTypeKey = "overlaykit:geometry"
    /// Prefix of ExtendedData `Data` holding a Feature's foreign member (such as `bbox`) as
    /// JSON text: `overlaykit:member:bbox`.
    public static let foreignMemberPrefix = "overlaykit:member:"
    /// Prefix of ExtendedData `Data` holding a member of a Feature's geometry object other
    /// than `type` and `coordinates`/`geometries` (such as its `bbox`) as JSON text.
    public static let geometryMemberPrefix = "overlaykit:geometry-member:"
}

/// What a GeoJSON feature holds that KML has no element for, carried in `overlaykit:` Data
/// (`KMLConventions`) so GeoJSON → KML → GeoJSON gives it back (docs/kml.md "GeoJSON → KML →
/// GeoJSON"): `"properties": null`, a one-kind GeometryCollection, an empty geometry, the
/// Feature's foreign members and its geometry's extra members.
enum KMLGeoJSONFidelity {
    /// The Data to write for `feature`, in a fixed order.
    static func data(for feature: Feature) -> JSONObject {
        var data = JSONObject()
        if feature.properties == nil { data.append(KMLConventions.nullPropertiesKey, .string("null")) }
        if let shape = feature.shape {
            if isEmpty(shape) {
                data.append(KMLConventions.geometryTypeKey, .string(geoJSONType(of: shape)))
            } else if case .collection(let collection) = shape, collection.origin == .geometryCollection,
                      readBack(shape) != shape {
                // The reader would combine some MultiGeometry into another type (a one-kind
                // collection into a Multi*, a nested collection's points into its parent's
                // MultiPoint): name every MultiGeometry's type, in document order.
                data.append(KMLConventions.geometryTypeKey, .string(multiGeometryTypes(of: shape).joined(separator: " ")))
            }
        }
        for member in feature.foreignMembers {
            data.append(KMLConventions.foreignMemberPrefix + member.key, .string(member.value.kmlJSONText))
        }
        if feature.shape != nil {
            for member in feature.geometryMembers {
                data.append(KMLConventions.geometryMemberPrefix + member.key, .string(member.value.kmlJSONText))
            }
        }
        return data
    }

    /// True for a shape with no position at all (GeoJSON allows `"coordinates": []`); KML has
    /// no empty geometry, so none is written and `geometryTypeKey` says what it was.
    static func isEmpty(_ shape: Shape) -> Bool {
        switch shape {
        case .annotation, .circle: false
        case .polyline(let polyline): polyline.coordinates.isEmpty
        case .polygon(let polygon): polygon.coordinates.isEmpty && polygon.interiorPolygons.isEmpty
        case .multiPolyline(let multi): multi.polylines.isEmpty
        case .multiPolygon(let multi): multi.polygons.isEmpty
        case .collection(let collection): collection.members.isEmpty
        }
    }

    /// The shape the KML reader gives back for `shape` written as KML without `geometryTypeKey`:
    /// every GeometryCollection's MultiGeometry combined (`KMLReaderShapes.combine`). Recursion
    /// follows the nesting, which the readers bound.
    static func readBack(_ shape: Shape) -> Shape {
        guard case .collection(let collection) = shape, collection.origin == .geometryCollection else { return shape }
        return KMLReaderShapes.combine(collection.members.map(readBack)) ?? shape
    }

    /// The GeoJSON type of every shape written as a `MultiGeometry`, in document (pre-)order:
    /// what `geometryTypeKey` holds when the plain reading would differ.
    static func multiGeometryTypes(of shape: Shape) -> [String] {
        var types: [String] = []
        var pending = [shape]
        while let next = pending.popLast() {
            switch next {
            case .multiPolyline, .multiPolygon: types.append(geoJSONType(of: next))
            case .collection(let collection):
                types.append(geoJSONType(of: next))
                pending += collection.members.reversed()
            default: break
            }
        }
        return types
    }

    /// The MultiGeometry types a `geometryTypeKey` value names, or nil when it is not one the
    /// writer writes (then it stays an ordinary property).
    static func multiGeometryTypes(in value: String) -> [Substring]? {
        let types = value.split(separator: " ")
        let known: Set<Substring> = ["GeometryCollection", "MultiPoint", "MultiLineString", "MultiPolygon"]
        guard types.first == "GeometryCollection", types.allSatisfy(known.contains) else { return nil }
        return types
    }

    /// The GeoJSON type the GeoJSON writer gives `shape`.
    static func geoJSONType(of shape: Shape) -> String {
        switch shape {
        case .annotation, .circle: "Point"
        case .polyline: "LineString"
        case .polygon: "Polygon"
        case .multiPolyline: "MultiLineString"
        case .multiPolygon: "MultiPolygon"
        case .collection(let collection): collection.origin == .multiPoint ? "MultiPoint" : "GeometryCollection"
        }
    }

    /// The empty shape of a GeoJSON type, or nil for a type that cannot be empty here.
    static func emptyShape(ofType type: String) -> Shape? {
        switch type {
        case "LineString": .polyline(Polyline(coordinates: []))
        case "Polygon": .polygon(Polygon(coordinates: []))
        case "MultiLineString": .multiPolyline(MultiPolyline([]))
        case "MultiPolygon": .multiPolygon(MultiPolygon([]))
        case "MultiPoint": .collection(ShapeCollection(members: [], origin: .multiPoint))
        case "GeometryCollection": .collection(ShapeCollection(members: [], origin: .geometryCollection))
        default: nil
        }
    }

    /// Takes the conventions' Data off `properties` (as read) and puts back what they carry:
    /// null properties, the geometry type, foreign and geometry members. A value that is not
    /// what the writer writes stays an ordinary property.
    static func restore(_ feature: inout Feature, shape: inout Shape?, properties: inout KMLPropertyBuilder) {
        // One pass, names kept in sets: a hostile file with 100,000 such Data stays linear.
        var consumed: Set<String> = []
        var foreignNames = Set(feature.foreignMembers.keys)
        for member in properties.object.members where member.key.hasPrefix("overlaykit:") {
            let key = member.key
            let isForeign = key.hasPrefix(KMLConventions.foreignMemberPrefix)
            guard isForeign || key.hasPrefix(KMLConventions.geometryMemberPrefix) else { continue }
            let prefix = isForeign ? KMLConventions.foreignMemberPrefix : KMLConventions.geometryMemberPrefix
            guard key.count > prefix.count, let text = member.value.stringValue, let value = json(text) else { continue }
            let name = String(key.dropFirst(prefix.count))
            if isForeign {
                guard foreignNames.insert(name).inserted else { continue }
                feature.foreignMembers.append(name, value)
            } else {
                feature.geometryMembers.append(name, value)
            }
            consumed.insert(key)
        }
        if case .string(let type)? = properties[KMLConventions.geometryTypeKey] {
            if shape == nil, let empty = emptyShape(ofType: type) {
                shape = empty
                consumed.insert(KMLConventions.geometryTypeKey)
            } else if multiGeometryTypes(in: type) != nil, case .collection(let collection)? = shape,
                      collection.origin == .geometryCollection {
                consumed.insert(KMLConventions.geometryTypeKey)
            }
        }
        if properties[KMLConventions.nullPropertiesKey] == .string("null") { consumed.insert(KMLConventions.nullPropertiesKey) }
        properties.remove(consumed)
    }

    /// Whether `properties` came from a feature whose properties were null (call before `restore`).
    static func hadNullProperties(_ properties: KMLPropertyBuilder) -> Bool {
        properties[KMLConventions.nullPropertiesKey] == .string("null")
    }

    static func json(_ text: String) -> JSONValue? {
        let scanner = JSONScanner(input: ByteInput(string: text))
        guard let value = try? scanner.readValue(), (try? scanner.peekSignificant()) == nil else { return nil }
        return value
    }

    /// The members of a one-kind MultiGeometry as a GeometryCollection's (the reader's shape
    /// when `geometryTypeKey` says GeometryCollection): one member per polygon, line or point.
    static func collection(of members: [Shape]) -> Shape? {
        guard !members.isEmpty else { return nil }
        return .collection(ShapeCollection(members: members, origin: .geometryCollection))
    }
}

extension KMLGeoJSONFidelity {
    /// The Document's `Data` for a FeatureCollection's members (besides a `name` written as
    /// `Document/name`): `overlaykit:member:NAME` = the value as JSON text.
    static func documentData(_ members: JSONObject) -> JSONObject {
        var data = JSONObject()
        for member in members {
            data.append(KMLConventions.foreignMemberPrefix + member.key, .string(member.value.kmlJSONText))
        }
        return data
    }

    /// A collection member from one Document `Data`, or nil when the Data is not one of ours.
    static func documentMember(name: String?, value: String?) -> JSONObject.Member? {
        guard let name, name.hasPrefix(KMLConventions.foreignMemberPrefix), name.count > KMLConventions.foreignMemberPrefix.count,
              let value, let json = json(value) else { return nil }
        return JSONObject.Member(key: String(name.dropFirst(KMLConventions.foreignMemberPrefix.count)), value: json)
    }
}

extension KMLParserCore {
    /// The outermost Document's ExtendedData: the collection members the writer put there
    /// (`overlaykit:member:` Data) become ``KMLReader/documentMembers``; anything else in it
    /// describes no feature and is reported as not kept.
    func parseDocumentExtendedData() throws {
        let line = xml.line
        var others: [String] = []
        try xml.forEachChild { child in
            guard child == "Data" else {
                others.append(xml.qualifiedName)
                try xml.skipElement()
                return
            }
            let name = xml.attribute("name")
            var value: String?
            try xml.forEachChild { part in
                if part == "value" { value = try xml.readText() } else { try xml.skipElement() }
            }
            if let member = KMLGeoJSONFidelity.documentMember(name: name, value: value) {
                if documentMembers[member.key] == nil { documentMembers.append(member.key, member.value) }
            } else {
                others.append("Data" + (name.map { " '\($0.prefix(60))'" } ?? ""))
            }
        }
        if !others.isEmpty {
            warnings.append(Diagnostic(.warning, code: .kmlIgnoredElement,
                                       message: "<ExtendedData> of the Document describes no feature; \(others.joined(separator: ", ")) not kept",
                                       location: xml.location(line: line, needle: "<ExtendedData")))
        }
    }
}

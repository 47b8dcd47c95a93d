/// Which KML 2.2 elements (with Google's `gx:` extensions) may appear inside which, and which
/// children some of them need: a compact reading of the OGC KML 2.2 schema, enough to name
/// unknown and misplaced elements with their line. `--schema` runs the full XSD.
///
/// Names are local names; `gx:` names carry their prefix, whatever prefix the file used.
/// Elements whose content is free-form (Metadata, Update, xAL) are not looked into.
enum KMLElementRules {
    static let featureMembers: Set<String> = [
        "name", "visibility", "open", "atom:author", "atom:link", "address", "xal:AddressDetails", "phoneNumber",
        "Snippet", "snippet", "description", "Camera", "LookAt", "TimeStamp", "TimeSpan", "gx:TimeStamp", "gx:TimeSpan",
        "styleUrl", "Style", "StyleMap", "Region", "Metadata", "ExtendedData", "gx:balloonVisibility",
    ]
    static let features: Set<String> = [
        "Document", "Folder", "Placemark", "NetworkLink", "GroundOverlay", "ScreenOverlay", "PhotoOverlay", "gx:Tour",
    ]
    static let geometries: Set<String> = [
        "Point", "LineString", "LinearRing", "Polygon", "MultiGeometry", "Model", "gx:Track", "gx:MultiTrack",
    ]
    static let overlayMembers: Set<String> = featureMembers.union(["color", "drawOrder", "Icon"])
    static let linkMembers: Set<String> = [
        "href", "refreshMode", "refreshInterval", "viewRefreshMode", "viewRefreshTime", "viewBoundScale", "viewFormat",
        "httpQuery", "gx:x", "gx:y", "gx:w", "gx:h",
    ]
    static let colorMembers: Set<String> = ["color", "colorMode"]
    static let viewMembers: Set<String> = [
        "longitude", "latitude", "altitude", "heading", "tilt", "range", "roll", "altitudeMode", "gx:altitudeMode",
        "gx:TimeStamp", "gx:TimeSpan", "gx:ViewerOptions", "gx:horizFov", "gx:fovy",
    ]

    /// Allowed children by parent.
    static let children: [String: Set<String>] = [
        "kml": features.union(["NetworkLinkControl"]),
        "Document": featureMembers.union(features).union(["Schema", "gx:CascadingStyle"]),
        "Folder": featureMembers.union(features),
        "Placemark": featureMembers.union(geometries),
        "NetworkLink": featureMembers.union(["refreshVisibility", "flyToView", "Link", "Url"]),
        "GroundOverlay": overlayMembers.union(["altitude", "altitudeMode", "gx:altitudeMode", "LatLonBox", "gx:LatLonQuad"]),
        "ScreenOverlay": overlayMembers.union(["overlayXY", "screenXY", "rotationXY", "size", "rotation"]),
        "PhotoOverlay": overlayMembers.union(["rotation", "ViewVolume", "ImagePyramid", "Point", "shape"]),
        "Point": ["extrude", "altitudeMode", "gx:altitudeMode", "coordinates"],
        "LineString": ["extrude", "tessellate", "altitudeMode", "gx:altitudeMode", "coordinates", "gx:altitudeOffset", "gx:drawOrder"],
        "LinearRing": ["extrude", "tessellate", "altitudeMode", "gx:altitudeMode", "coordinates", "gx:altitudeOffset"],
        "Polygon": ["extrude", "tessellate", "altitudeMode", "gx:altitudeMode", "outerBoundaryIs", "innerBoundaryIs"],
        "outerBoundaryIs": ["LinearRing"],
        "innerBoundaryIs": ["LinearRing"],
        "MultiGeometry": geometries,
        "Model": ["altitudeMode", "gx:altitudeMode", "Location", "Orientation", "Scale", "Link", "ResourceMap"],
        "Location": ["longitude", "latitude", "altitude"],
        "Orientation": ["heading", "tilt", "roll"],
        "Scale": ["x", "y", "z"],
        "ResourceMap": ["Alias"],
        "Alias": ["targetHref", "sourceHref"],
        "gx:Track": ["altitudeMode", "gx:altitudeMode", "when", "gx:coord", "gx:angles", "Model", "ExtendedData", "extrude", "tessellate"],
        "gx:MultiTrack": ["altitudeMode", "gx:altitudeMode", "gx:interpolate", "gx:Track"],
        "Style": ["IconStyle", "LabelStyle", "LineStyle", "PolyStyle", "BalloonStyle", "ListStyle"],
        "StyleMap": ["Pair"],
        "Pair": ["key", "styleUrl", "Style", "StyleMap"],
        "IconStyle": colorMembers.union(["scale", "heading", "Icon", "hotSpot"]),
        "LabelStyle": colorMembers.union(["scale"]),
        "LineStyle": colorMembers.union(["width", "gx:outerColor", "gx:outerWidth", "gx:physicalWidth", "gx:labelVisibility"]),
        "PolyStyle": colorMembers.union(["fill", "outline"]),
        "BalloonStyle": ["bgColor", "textColor", "text", "displayMode", "color"],
        "ListStyle": ["listItemType", "bgColor", "ItemIcon", "maxSnippetLines"],
        "ItemIcon": ["state", "href"],
        "Icon": linkMembers,
        "Link": linkMembers,
        "Url": linkMembers,
        "TimeStamp": ["when"],
        "TimeSpan": ["begin", "end"],
        "gx:TimeStamp": ["when"],
        "gx:TimeSpan": ["begin", "end"],
        "ExtendedData": ["Data", "SchemaData"],
        "Data": ["displayName", "value"],
        "SchemaData": ["SimpleData", "gx:SimpleArrayData"],
        "gx:SimpleArrayData": ["gx:value", "value"],  // KML 2.3 names it kml:value
        "Schema": ["SimpleField", "gx:SimpleArrayField"],
        "SimpleField": ["displayName"],
        "gx:SimpleArrayField": ["displayName"],
        "LookAt": viewMembers,
        "Camera": viewMembers,
        "Region": ["LatLonAltBox", "Lod"],
        "LatLonAltBox": ["north", "south", "east", "west", "minAltitude", "maxAltitude", "altitudeMode", "gx:altitudeMode"],
        "Lod": ["minLodPixels", "maxLodPixels", "minFadeExtent", "maxFadeExtent"],
        "LatLonBox": ["north", "south", "east", "west", "rotation"],
        "gx:LatLonQuad": ["coordinates"],
        "ViewVolume": ["leftFov", "rightFov", "bottomFov", "topFov", "near"],
        "ImagePyramid": ["tileSize", "maxWidth", "maxHeight", "gridOrigin"],
        "NetworkLinkControl": ["minRefreshPeriod", "maxSessionLength", "cookie", "message", "linkName", "linkDescription",
                               "linkSnippet", "expires", "Update", "Camera", "LookAt"],
        "gx:ViewerOptions": ["gx:option"],
        // Tours (Google's gx: extension; KML 2.3 adopted them into its own namespace).
        "gx:Tour": featureMembers.union(["gx:Playlist"]),
        "gx:Playlist": ["gx:FlyTo", "gx:Wait", "gx:TourControl", "gx:AnimatedUpdate", "gx:SoundCue"],
        "gx:FlyTo": ["gx:duration", "gx:flyToMode", "Camera", "LookAt"],
        "gx:Wait": ["gx:duration"],
        "gx:TourControl": ["gx:playMode"],
        "gx:AnimatedUpdate": ["gx:duration", "Update", "gx:delayedStart"],
        "gx:SoundCue": ["href", "gx:delayedStart"],
        // Google Earth's shared styles: a Style whose id lives on the wrapper (kml:id).
        "gx:CascadingStyle": ["Style", "styleUrl"],
    ]

    /// Elements whose content is not checked (free-form or outside this table's reach).
    static let opaque: Set<String> = [
        "Metadata", "Update", "xal:AddressDetails", "atom:author", "atom:link", "description", "text",
        "Snippet", "snippet", "linkSnippet", "linkDescription", "message", "value", "displayName", "gx:value",
    ]

    /// Every element name this table knows.
    static let known: Set<String> = Set(children.keys).union(children.values.flatMap { $0 }).union(opaque)

    /// Children an element must have (at least one of each).
    static let required: [String: [String]] = [
        "Polygon": ["outerBoundaryIs"],
        "outerBoundaryIs": ["LinearRing"],
        "innerBoundaryIs": ["LinearRing"],
        "Point": ["coordinates"],
        "LineString": ["coordinates"],
        "LinearRing": ["coordinates"],
        "gx:LatLonQuad": ["coordinates"],
        "Pair": ["key"],
    ]

    /// KML's namespaces (2.2, OGC 2.3, and the Google Earth 2.0/2.1 ones older files use).
    static let kmlNamespaces: Set<String> = [
        "http://www.opengis.net/kml/2.2", "http://www.opengis.net/kml/2.3", "http://earth.google.com/kml/2.2",
        "http://earth.google.com/kml/2.1",
        "http://earth.google.com/kml/2.0",
    ]
    static let gxNamespace = "http://www.google.com/kml/ext/2.2"
    static let atomNamespace = "http://www.w3.org/2005/Atom"
    static let xalNamespace = "urn:oasis:names:tc:ciq:xsdschema:xAL:2.0"

    /// The name an element goes by in these tables, or nil for a namespace KML does not own
    /// (extensions, which are left alone).
    static func name(local: String, namespace: String?) -> String? {
        guard let namespace, !namespace.isEmpty else { return local }
        if kmlNamespaces.contains(namespace) { return local }
        switch namespace {
        case gxNamespace: return "gx:" + local
        case atomNamespace: return "atom:" + local
        case xalNamespace: return "xal:" + local
        default: return nil
        }
    }
}

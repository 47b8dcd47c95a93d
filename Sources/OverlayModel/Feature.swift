/// A feature's identifier: GeoJSON allows a string or a number; KML ids are strings.
public enum FeatureID: Hashable, Sendable, CustomStringConvertible {
    /// A string id.
    case string(String)
    /// An integer id, kept exact.
    case integer(Int64)
    /// A number id that is not an integer.
    case number(Double)

    public var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        }
    }
}

/// One thing on the map with everything the source said about it.
///
/// Parsers fill every field they can and keep what they do not interpret (`foreignMembers`,
/// ordered `properties`), so writers can give it all back.
public struct Feature: Hashable, Sendable {
    /// The feature's id (GeoJSON `id`, KML `id` attribute), if any.
    public var id: FeatureID?
    /// Ordered properties; nil when the source had `"properties": null`.
    public var properties: JSONObject?
    /// The overlay, annotation or collection; nil for a null geometry.
    public var shape: Shape?
    /// The resolved style (KML Style/StyleMap normal, or GeoJSON simplestyle properties).
    public var style: Style?
    /// The StyleMap's highlight style, when the source had one.
    public var highlightStyle: Style?
    /// Where MapKit would draw it: above roads (default) or above labels.
    public var level: OverlayLevel
    /// The KML folders (outermost first) that held the feature.
    public var folderPath: [String]
    /// Members of the source object that are not part of the format (GeoJSON foreign members,
    /// including a feature-level `bbox`), in order.
    public var foreignMembers: JSONObject
    /// Foreign members of the geometry object (including its `bbox`), in order.
    public var geometryMembers: JSONObject
    /// Where the feature starts in its source.
    public var location: SourceLocation?

    /// A feature; everything but the shape is optional.
    public init(id: FeatureID? = nil, properties: JSONObject? = JSONObject(), shape: Shape?,
                style: Style? = nil, highlightStyle: Style? = nil, level: OverlayLevel = .aboveRoads,
                folderPath: [String] = [], foreignMembers: JSONObject = JSONObject(),
                geometryMembers: JSONObject = JSONObject(), location: SourceLocation? = nil) {
        self.id = id
        self.properties = properties
        self.shape = shape
        self.style = style
        self.highlightStyle = highlightStyle
        self.level = level
        self.folderPath = folderPath
        self.foreignMembers = foreignMembers
        self.geometryMembers = geometryMembers
        self.location = location
    }

    /// The shape's bounding rect, or `MapRect.null` without a shape.
    public var boundingMapRect: MapRect { shape?.boundingMapRect ?? .null }
}

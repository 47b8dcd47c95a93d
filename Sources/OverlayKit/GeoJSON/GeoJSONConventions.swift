import OverlayModel

/// Names the GeoJSON reader and writer agree on for things RFC 7946 has no member for.
public enum GeoJSONConventions {
    /// The foreign member on a Feature holding `Feature.folderPath` (the KML `Folder`s around
    /// it, outermost first) as an array of strings: `"folders": ["Trips", "2024"]`. A foreign
    /// member rather than a property, so attribute tables (GDAL, QGIS, `--where`) see only the
    /// user's properties and KML's `ExtendedData` gets no invented field; docs/kml.md "Folders".
    public static let foldersMember = "folders"

    /// Applies a feature's properties to its shape as the GeoJSON reader does (and the GeoParquet
    /// reader, whose files follow the same conventions): a Point with a positive `radius`
    /// becomes a circle; annotations take their title (`name`, else `title`) and subtitle
    /// (`description`).
    static func decorate(_ shape: Shape, properties: JSONObject?) -> Shape {
        guard let properties else { return shape }
        let title = properties["name"]?.stringValue ?? properties["title"]?.stringValue
        let subtitle = properties["description"]?.stringValue
        switch shape {
        case .annotation(let annotation):
            if let radius = properties["radius"]?.doubleValue, radius > 0, radius.isFinite {
                return .circle(Circle(center: annotation.coordinate, radius: radius))
            }
            return shape.titlingPoints(title: title, subtitle: subtitle)
        case .collection(let collection) where collection.origin == .multiPoint:
            return shape.titlingPoints(title: title, subtitle: subtitle)
        default:
            return shape
        }
    }
}

/// Names the GeoJSON reader and writer agree on for things RFC 7946 has no member for.
public enum GeoJSONConventions {
    /// The foreign member on a Feature holding `Feature.folderPath` (the KML `Folder`s around
    /// it, outermost first) as an array of strings: `"folders": ["Trips", "2024"]`. A foreign
    /// member rather than a property, so attribute tables (GDAL, QGIS, `--where`) see only the
    /// user's properties and KML's `ExtendedData` gets no invented field; docs/kml.md "Folders".
    public static let foldersMember = "folders"
}

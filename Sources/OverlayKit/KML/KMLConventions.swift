/// Names the reader and writer agree on for things KML has no element for (more in
/// `KMLGeoJSONFidelity.swift`: what KML cannot say about a GeoJSON feature).
public enum KMLConventions {
    /// ExtendedData `Data` holding a circle's center as `longitude,latitude[,altitude]`.
    public static let circleCenterKey = "overlaykit:circle-center"
    /// ExtendedData `Data` holding a circle's radius in meters.
    public static let circleRadiusKey = "overlaykit:circle-radius"
    /// ExtendedData `Data` holding a feature id that is not an XML name (so cannot be the
    /// `id` attribute), as JSON text: `12`, `"a b"`.
    public static let featureIDKey = "overlaykit:id"
    /// A `SimpleField`'s `displayName` marking values written as JSON text (null, arrays and
    /// objects, which KML types cannot hold).
    public static let jsonFieldDisplayName = "json"
}

import OverlayModel

/// One input of a tile run and the layer its features go to (tippecanoe's `-L NAME:FILE`).
///
/// ```swift
/// var inputs = [TileInput(layer: "roads", reader: try FeatureIO.reader(for: ByteInput(path: "roads.geojsons"))),
///               TileInput(layer: "parks", reader: try FeatureIO.reader(for: ByteInput(path: "parks.kml")))]
/// let report = try Tiler(output: "city.pmtiles", layer: "roads").run(reading: &inputs)
/// ```
public struct TileInput {
    /// The layer the input's features go to, unless a feature's `"tippecanoe": {"layer": …}`
    /// member names another.
    public var layer: String
    /// The input's features.
    public var reader: any FeatureReader

    /// An input whose features go to `layer`.
    public init(layer: String, reader: any FeatureReader) {
        self.layer = layer
        self.reader = reader
    }
}

import OverlayModel

/// What a tile set's metadata says of its input, gathered while the input was read: the options
/// its tiles were cut with, the input's extent, the layers and what each holds (fields, geometry
/// types), what the tile encoding could not hold, and the input's counts. One run's `TileSource`
/// has it; a run split over machines merges it from its shards.
package struct TileSetFacts: Sendable, Codable {
    /// The options the tiles were cut with (a guessed max zoom already settled).
    package var options: TileOptions
    /// The input's extent in map points (`MapRect.null` when empty), before wrapping.
    package var boundingMapRect: MapRect
    /// The vector layers.
    package var layers: TileLayers
    /// By layer index (one more for features left in their input's layer by a reader that named none).
    package var layerSummaries: [TileLayerSummary]
    /// What MVT cannot hold of the tiled features.
    package var losses: TileEncodingLosses
    /// What the input held.
    package var inputCounts: TileInputCounts
}

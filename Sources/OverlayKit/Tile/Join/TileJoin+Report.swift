import OverlayModel

extension TileJoin {
    /// What ``join(_:)`` wrote and left out.
    public struct Report: Sendable {
        /// Tiles written (per zoom, with their bytes and features) and how each was made.
        public var counts: Counts
        /// The metadata stored with the joined tiles.
        public var metadata: TileSetMetadata
        /// The encoding of the joined tiles.
        public var encoding: TileEncoding
        /// The size of the output file (PMTiles, MBTiles); nil for a directory.
        public var fileBytes: Int?
        /// What the options left out.
        public var dropped: Dropped
        /// Warnings and notes: inputs that hold no tiles (`tilejoin.empty-input`), tiles the
        /// layer filters left empty (`tilejoin.empty`).
        public var diagnostics: [Diagnostic]

        /// The layers of the joined set, by their names in the tiles.
        public var layers: [String] { metadata.vectorLayers.map(\.id) }
        /// Tiles written.
        public var tiles: Int { counts.tiles }
    }

    /// What a join's options left out.
    public struct Dropped: Hashable, Sendable {
        /// Layers the inputs' metadata lists that the layer options left out (names before
        /// renaming), in order of first appearance.
        public var layers: [String] = []
        /// Properties (fields of the layers kept) the property options left out, in order.
        public var properties: [String] = []
        /// Distinct tiles of the inputs outside the zoom range: not read.
        public var tilesOutsideZooms = 0
        /// Tiles left without layers by the layer options: not written.
        public var emptyTiles = 0

        /// Nothing left out.
        public init() {}
    }
}

import OverlayModel

extension TileSetMetadata {
    /// The data's attribution as HTML or text (TileJSON's and MBTiles' `attribution`,
    /// tippecanoe's `-A`); nil when none. Stored with the other top-level keys, so PMTiles JSON
    /// metadata, the MBTiles `metadata` row and a directory's metadata.json all carry it and
    /// read it back.
    public var attribution: String? {
        get { other[Self.attributionKey]?.stringValue }
        set { other[Self.attributionKey] = newValue.map(JSONValue.string) }
    }

    /// The key ``attribution`` is stored under in every format.
    public static let attributionKey = "attribution"
}

import OverlayModel

/// A feature's id and properties, kept once per input feature and shared by its tiles.
public struct TileAttributes: Hashable, Sendable {
    /// The feature's id, if it has one.
    public var id: JSONValue?
    /// The feature's properties.
    public var properties: JSONObject?

    /// The attributes of one input feature.
    public init(id: JSONValue?, properties: JSONObject?) {
        self.id = id
        self.properties = properties
    }
}

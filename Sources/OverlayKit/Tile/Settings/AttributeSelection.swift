import OverlayModel

/// Which feature properties reach the tiles: tippecanoe's `-y`/`--include`, `-x`/`--exclude`
/// and `-X`/`--exclude-all`, applied once per feature when the source is projected, so tiles,
/// `vector_layers` fields and tilestats all see the same properties.
///
/// A property is kept when ``included`` is nil or names it, and ``excluded`` does not name it
/// (tippecanoe ignores `-x` once `-y` is given; here both apply). Ids are taken before the
/// selection, so `promoteID` may name a property that is then left out.
public struct AttributeSelection: Hashable, Sendable, Codable {
    /// The only properties kept (`-y`); nil keeps every property, empty keeps none (`-X`).
    public var included: Set<String>?
    /// Properties left out (`-x`).
    public var excluded: Set<String>

    /// Keeps every property.
    public init(included: Set<String>? = nil, excluded: Set<String> = []) {
        self.included = included
        self.excluded = excluded
    }

    /// True when every property is kept (the default): ``applied(to:)`` then costs nothing.
    @inlinable
    public var keepsEverything: Bool { included == nil && excluded.isEmpty }

    /// Every property name the selection names (``included`` and ``excluded``).
    public var namedProperties: Set<String> { (included ?? []).union(excluded) }

    /// Whether a property named `name` is kept.
    @inlinable
    public func keeps(_ name: String) -> Bool {
        (included?.contains(name) ?? true) && !excluded.contains(name)
    }

    /// `properties` with only the kept members, in their order; nil stays nil. O(members).
    public func applied(to properties: JSONObject?) -> JSONObject? {
        guard !keepsEverything, var properties else { return properties }
        properties.members.removeAll { !keeps($0.key) }
        return properties
    }
}

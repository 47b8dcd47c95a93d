import OverlayModel

/// Names given to ``TileOptions/attributes`` or ``TileOptions/attributeTypes`` that no tiled
/// feature has, usually a typing mistake: the property the user meant is then kept, or dropped,
/// against their wish.
enum UnmatchedPropertyNames {
    /// One warning naming them all; nil when every name matched.
    static func warning(_ names: [String]) -> Diagnostic? {
        guard !names.isEmpty else { return nil }
        return Diagnostic(.warning, code: .tileAttributeNotFound,
                          message: "no tiled feature has a property named " + names.map { "\"\($0)\"" }.joined(separator: ", ")
                              + " (given to --include, --exclude or --attribute-type)")
    }
}

extension TileOptions {
    /// The property names ``attributes`` and ``attributeTypes`` name, which `tile` checks were
    /// found in the input.
    var namedProperties: Set<String> { attributes.namedProperties.union(attributeTypes.types.keys) }

    /// A feature's properties as the tiles carry them: ``attributes`` selection first (a value
    /// left out is never counted as uncoercible), then ``attributeTypes`` coercion.
    func tileProperties(_ properties: JSONObject?, uncoercible: inout [String: Int]) -> JSONObject? {
        attributeTypes.applied(to: attributes.applied(to: properties), uncoercible: &uncoercible)
    }
}

extension TileOptions {
    /// The only properties a run reads from a feature, for ``FeatureReadHints/properties``: nil
    /// (all of them) unless ``AttributeSelection/included`` lists the kept ones (`-y`, `-X`) and
    /// no ``featureFilter`` may look at any property. Then the kept ones, and every name
    /// `namedProperties` checks was found, and ``promoteID``: the tiles, their metadata and
    /// warnings are what reading every property gives.
    public var propertiesRead: Set<String>? {
        guard let included = attributes.included, featureFilter == nil else { return nil }
        var names = included.union(namedProperties)
        if let promoteID { names.insert(promoteID) }
        return names
    }
}

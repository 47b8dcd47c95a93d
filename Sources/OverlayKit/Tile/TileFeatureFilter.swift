import OverlayModel

/// Which input features are tiled at all: a `--where` expression (the language of
/// `overlaykit filter`, see ``WhereExpression``) evaluated once per feature as the source is
/// projected, on its properties as read (before ``TileOptions/attributes`` leaves any out) —
/// the job of tippecanoe's `-j` feature filter.
///
/// Besides properties the expression may name `$type` (`"Point"`, `"LineString"`, `"Polygon"`,
/// `"GeometryCollection"` for mixed kinds, null without geometry; a circle is a `"Polygon"`)
/// and `$id` (the id the tiles get, after `promoteID`/`generateID`; null when none); they stand
/// before properties of the same name. `$zoom` is refused: the filter runs once per feature,
/// not per zoom.
public struct TileFeatureFilter: Hashable, Sendable {
    /// The expression features must satisfy.
    public let expression: WhereExpression
    /// Whether the expression names `$type` or `$id` (otherwise the properties are used as they are).
    private let usesFeatureKeys: Bool

    /// A filter from a parsed expression.
    /// - Throws: `Diagnostic` `tile.bad-option` when the expression names `$zoom`.
    public init(_ expression: WhereExpression) throws {
        let keys = Self.firstKeys(of: expression)
        guard !keys.contains("$zoom") else {
            throw Diagnostic(.error, code: .tileBadOption,
                             message: "$zoom is not supported in a tile filter yet: it is evaluated once per feature, not per zoom")
        }
        self.expression = expression
        usesFeatureKeys = keys.contains("$type") || keys.contains("$id")
    }

    /// Parses `source` as a `--where` expression.
    /// - Throws: `WhereSyntaxError` with the column; `Diagnostic` `tile.bad-option` for `$zoom`.
    public init(parsing source: String) throws {
        try self.init(WhereExpression(parsing: source))
    }

    /// Whether `feature`, whose tile id is `id`, is tiled. O(size of the expression) plus, when
    /// it names `$type` or `$id`, one copy of the properties.
    public func matches(_ feature: Feature, id: JSONValue?) -> Bool {
        guard usesFeatureKeys else { return WhereEvaluator.evaluate(expression, feature.properties) }
        var members: [JSONObject.Member] = [
            .init(key: "$type", value: feature.shape.flatMap(Self.geometryType).map(JSONValue.string) ?? .null),
            .init(key: "$id", value: id ?? .null),
        ]
        members += feature.properties?.members ?? []
        return WhereEvaluator.evaluate(expression, JSONObject(members))
    }

    /// The GeoJSON geometry type tippecanoe's `$type` gives a shape.
    static func geometryType(_ shape: Shape) -> String? {
        switch shape {
        case .annotation: return "Point"
        case .polyline, .multiPolyline: return "LineString"
        case .circle, .polygon, .multiPolygon: return "Polygon"
        case .collection(let collection):
            // Members are walked one level at a time, iteratively: nesting depth is the input's.
            var kinds = Set<String>()
            var pending = collection.members
            while let member = pending.popLast() {
                if case .collection(let inner) = member {
                    pending += inner.members
                } else if let kind = geometryType(member) {
                    kinds.insert(kind)
                }
            }
            return kinds.count == 1 ? kinds.first : kinds.isEmpty ? nil : "GeometryCollection"
        }
    }

    /// The first key of every path the expression reads. The parser bounds the nesting.
    private static func firstKeys(of expression: WhereExpression) -> Set<String> {
        switch expression {
        case .and(let a, let b), .or(let a, let b): return firstKeys(of: a).union(firstKeys(of: b))
        case .not(let inner): return firstKeys(of: inner)
        case .compare(let path, _, _), .oneOf(let path, _), .exists(let path), .matches(let path, _):
            return Set(path.prefix(1))
        }
    }
}

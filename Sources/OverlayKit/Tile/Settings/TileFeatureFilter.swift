import OverlayModel

/// Which input features are tiled at all: a `--where` expression (the language of
/// `overlaykit filter`, see ``WhereExpression``) evaluated once per feature as the source is
/// projected, on its properties as read (before ``TileOptions/attributes`` leaves any out) —
/// the job of tippecanoe's `-j` feature filter.
///
/// Besides properties the expression may name `$type` (`"Point"`, `"LineString"`, `"Polygon"`,
/// `"GeometryCollection"` for mixed kinds, null without geometry; a circle is a `"Polygon"`)
/// and `$id` (the id the tiles get, after `promoteID`/`generateID`; null when none), and `$zoom`
/// (the zoom of the tile: an expression naming it is evaluated once per zoom, and the feature
/// is drawn only at the zooms where it holds, as tippecanoe's `-j` with `$zoom`); they stand
/// before properties of the same name.
public struct TileFeatureFilter: Hashable, Sendable, Codable {
    /// The expression features must satisfy.
    public let expression: WhereExpression
    /// The text it was parsed from, when it was (what a saved run's settings keep).
    public private(set) var source: String?
    /// Whether the expression names `$type` or `$id` (otherwise the properties are used as they are).
    private let usesFeatureKeys: Bool
    /// Whether the expression names `$zoom`: then it is evaluated per zoom (``zooms(_:id:maxZoom:)``).
    public let usesZoom: Bool

    /// A filter from a parsed expression.
    public init(_ expression: WhereExpression) {
        let keys = Self.firstKeys(of: expression)
        self.expression = expression
        usesZoom = keys.contains("$zoom")
        usesFeatureKeys = usesZoom || keys.contains("$type") || keys.contains("$id")
    }

    /// The names starting with `$` a tile filter knows.
    public static let variables: Set<String> = ["$id", "$type", "$zoom"]

    /// Parses `source` as a `--where` expression naming ``variables`` (another `$name` is refused).
    /// - Throws: `WhereSyntaxError` with the column.
    public init(parsing source: String) throws {
        self.init(try WhereExpression(parsing: source, variables: Self.variables))
        self.source = source
    }

    /// Saved as the text it was parsed from.
    /// - Throws: `EncodingError` for a filter made from an expression rather than text.
    public func encode(to encoder: any Encoder) throws {
        guard let source else {
            throw EncodingError.invalidValue(expression, .init(codingPath: encoder.codingPath,
                                                               debugDescription: "a filter made from an expression has no text to save"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(source)
    }

    /// Parses the saved text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    /// Whether `feature`, whose tile id is `id`, is tiled (at zoom 0 when the expression names
    /// `$zoom`). O(size of the expression) plus, when it names `$type`, `$id` or `$zoom`, one copy
    /// of the properties.
    /// - Throws: `Diagnostic` `filter.where-too-costly` at the feature when a regex test would
    ///   cost more than its bound on one of its values (`WhereRegex.maximumWork`).
    public func matches(_ feature: Feature, id: JSONValue?) throws -> Bool {
        try located(feature) { () throws(WhereEvaluationError) -> Bool in
            guard usesFeatureKeys else { return try WhereEvaluator.evaluate(expression, feature.properties) }
            return try WhereEvaluator.evaluate(expression, members(feature, id: id, zoom: 0))
        }
    }

    /// `body`'s answer, its over-budget regex test as a `Diagnostic` at the feature.
    private func located<Result>(_ feature: Feature, _ body: () throws(WhereEvaluationError) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw Diagnostic(.error, code: .filterWhereTooCostly, message: "--where: \(error)", location: feature.location)
        }
    }

    /// The zooms 0…`maxZoom` (at most 31) at which `feature` is tiled, bit z for zoom z; 0 when
    /// at none. One evaluation per zoom when the expression names `$zoom`, else one in all.
    /// - Throws: as ``matches(_:id:)``.
    public func zooms(_ feature: Feature, id: JSONValue?, maxZoom: Int) throws -> UInt32 {
        let top = min(max(maxZoom, 0), 31)
        let every = top == 31 ? UInt32.max : (UInt32(1) << (top + 1)) - 1
        guard usesZoom else { return try matches(feature, id: id) ? every : 0 }
        var object = members(feature, id: id, zoom: 0)
        return try located(feature) { () throws(WhereEvaluationError) -> UInt32 in
            var mask: UInt32 = 0
            for zoom in 0...top {
                object["$zoom"] = .integer(Int64(zoom))
                if try WhereEvaluator.evaluate(expression, object) { mask |= 1 << zoom }
            }
            return mask
        }
    }

    /// The properties with `$type`, `$id` and `$zoom` before them.
    private func members(_ feature: Feature, id: JSONValue?, zoom: Int) -> JSONObject {
        var members: [JSONObject.Member] = [
            .init(key: "$type", value: feature.shape.flatMap(Self.geometryType).map(JSONValue.string) ?? .null),
            .init(key: "$id", value: id ?? .null),
        ]
        if usesZoom { members.append(.init(key: "$zoom", value: .integer(Int64(zoom)))) }
        members += feature.properties?.members ?? []
        return JSONObject(members)
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

import OverlayModel

/// The predicates of `overlaykit filter`, combined: a feature passes when every one that is set
/// holds. Cheap tests (id, properties, kind) run before geometric ones.
public struct FeatureFilter: Sendable {
    /// `--bbox`: the shape meets the box.
    public var intersecting: GeographicBox?
    /// `--within`: the shape lies in the box.
    public var within: GeographicBox?
    /// `--near`: the shape comes within the region's radius of its center.
    public var near: CircularRegion?
    /// `--type`: the shape is one of these kinds.
    public var kinds: ShapeKindSet?
    /// `--where`: the properties satisfy the expression.
    public var expression: WhereExpression?
    /// `--visible-at`: the shape is at least one screen point across at this zoom.
    public var visibleAtZoom: Double?
    /// `--id`: the feature's id is one of these (numbers compare by value).
    public var ids: FeatureIDSet?

    /// A filter with no predicates: every feature passes.
    public init() {}

    /// True when some predicate looks at geometry; otherwise a reader may skip parsing it.
    public var needsGeometry: Bool {
        intersecting != nil || within != nil || near != nil || kinds != nil || visibleAtZoom != nil
    }

    /// True when the feature passes every predicate that is set. A feature without geometry
    /// fails every geometric predicate except `--type null`.
    /// - Throws: `Diagnostic` `filter.where-too-costly` at the feature when a `--where` regex
    ///   would cost more than its bound on one of its values (`WhereRegex.maximumWork`).
    public func matches(_ feature: Feature) throws -> Bool {
        if let ids, !ids.contains(feature.id) { return false }
        if let expression {
            do {
                guard try WhereEvaluator.evaluate(expression, feature.properties) else { return false }
            } catch {
                throw Diagnostic(.error, code: .filterWhereTooCostly, message: "--where: \(error)", location: feature.location)
            }
        }
        if let kinds, !kinds.contains(feature.shape) { return false }
        let spatial = intersecting != nil || within != nil || near != nil || visibleAtZoom != nil
        guard spatial else { return true }
        guard let shape = feature.shape else { return false }
        if let visibleAtZoom, !Visibility.isVisible(shape, atZoom: visibleAtZoom) { return false }
        if let intersecting, !intersecting.intersects(shape) { return false }
        if let within, !within.contains(shape) { return false }
        if let near, !near.intersects(shape) { return false }
        return true
    }

    /// The feature with only the named top-level properties, in their original order
    /// (`--select`). Properties that were null stay null.
    public static func selecting(_ keys: [String], from feature: Feature) -> Feature {
        guard let properties = feature.properties else { return feature }
        var copy = feature
        copy.properties = JSONObject(properties.members.filter { keys.contains($0.key) })
        return copy
    }
}

/// The shape kinds `--type` accepts: `ShapeKind` names, a few GeoJSON synonyms, and `null`
/// for features without geometry.
public struct ShapeKindSet: Hashable, Sendable {
    /// The shape kinds kept.
    public var kinds: Set<ShapeKind>
    /// True when features without geometry are kept too (`null` in the list).
    public var includesNull: Bool

    /// Names besides `ShapeKind`'s own.
    static let synonyms: [String: ShapeKind] = [
        "point": .annotation, "linestring": .polyline, "line": .polyline,
        "multilinestring": .multiPolyline, "geometrycollection": .collection,
    ]

    /// Parses a comma-separated list such as `polygon,polyline`.
    /// - Throws: `Diagnostic` `filter.invalid-argument` naming the unknown kind and the known ones.
    public init(parsing text: String) throws {
        kinds = []
        includesNull = false
        for part in text.split(separator: ",") {
            let name = part.trimmingCharacters(in: " ").lowercased()
            if name == "null" {
                includesNull = true
            } else if let kind = ShapeKind(rawValue: name) ?? ShapeKindSet.synonyms[name] {
                kinds.insert(kind)
            } else {
                let known = ShapeKind.allCases.map(\.rawValue) + ["null"]
                throw Diagnostic(.error, code: .filterInvalidArgument,
                                 message: "unknown type '\(name)'; use \(known.joined(separator: ", "))")
            }
        }
        guard !kinds.isEmpty || includesNull else {
            throw Diagnostic(.error, code: .filterInvalidArgument, message: "--type needs at least one kind")
        }
    }

    /// True when the shape is of a kept kind, or is absent and `null` was asked for.
    public func contains(_ shape: Shape?) -> Bool {
        guard let shape else { return includesNull }
        return kinds.contains(shape.kind)
    }
}

/// Feature ids for `--id`: strings match exactly, numbers by value (`7` matches 7 and 7.0).
public struct FeatureIDSet: Hashable, Sendable {
    /// The ids as written, trimmed of spaces.
    public var texts: Set<String>
    private var numbers: Set<Double>

    /// Parses a comma-separated list.
    public init(parsing text: String) {
        texts = Set(text.split(separator: ",", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: " ") })
        numbers = Set(texts.compactMap { Double($0) }.filter(\.isFinite))
    }

    /// True when the id is one of the set (numbers compare by value, so `7` matches `7.0`); a missing id never matches.
    public func contains(_ id: FeatureID?) -> Bool {
        switch id {
        case nil: return false
        case .string(let text)?: return texts.contains(text)
        case .integer(let value)?: return numbers.contains(Double(value)) || texts.contains(String(value))
        case .number(let value)?: return numbers.contains(value)
        }
    }
}

/// Whether a shape shows at a zoom (`--visible-at`).
public enum Visibility {
    /// True when the shape's bounding rect is at least one screen point wide or tall at the
    /// zoom (`Zoom.mapPointsPerScreenPoint`). Annotations always show: they are drawn as
    /// markers of fixed screen size; a collection of only annotations likewise.
    public static func isVisible(_ shape: Shape, atZoom zoom: Double) -> Bool {
        switch shape {
        case .annotation: return true
        case .collection(let collection) where collection.members.allSatisfy({ if case .annotation = $0 { true } else { false } }):
            return !collection.members.isEmpty
        default:
            let bounds = shape.boundingMapRect
            guard !bounds.isNull else { return false }
            return max(bounds.width, bounds.height) >= Zoom.mapPointsPerScreenPoint(atZoom: zoom)
        }
    }
}

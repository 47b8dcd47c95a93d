import OverlayModel

/// What of a feature `diff` compares, each part in the form in which writing it another way
/// changes nothing: the identity, the canonical geometry, the properties (keys sorted, every
/// number a double, simplestyle members left to the style), the style as simplestyle expresses
/// it (so a KML `Style` and the same simplestyle properties are equal) and the folder path.
struct ComparableFeature {
    /// How the feature is matched across the versions.
    let identity: DiffIdentity
    /// The geometry, rounded and normalised.
    let geometry: CanonicalGeometry
    /// The properties without the simplestyle members, keys sorted, numbers as doubles.
    let properties: JSONObject
    /// The style as simplestyle properties (empty when none).
    let style: JSONObject
    /// The KML folders that held it, outermost first.
    let folders: [String]

    /// The comparable parts of `feature` under `options`.
    init(_ feature: Feature, options: DiffOptions) {
        geometry = CanonicalGeometry(feature.shape, decimals: options.precision)
        // A circle's `radius` property is its geometry, compared there.
        let isCircle = if case .circle? = feature.shape { true } else { false }
        properties = Self.normalized(feature.properties.map { object in
            JSONObject(object.members.filter {
                !SimpleStyle.keys.contains($0.key) && $0.key != SimpleStyle.outlineKey && !(isCircle && $0.key == "radius")
            })
        } ?? JSONObject())
        style = Self.normalized(feature.style.map(SimpleStyle.properties(for:)) ?? JSONObject())
        folders = feature.folderPath
        if let key = options.key, let value = feature.properties?[key], value != .null {
            identity = .key(Self.normalized(value))
        } else if let id = feature.id {
            identity = .id(Self.normalized(id))
        } else {
            identity = .content(Self.contentDigest(geometry: geometry, properties: properties, style: style))
        }
    }

    /// The digest that stands for the whole feature in the old version's index.
    var digest: Digest {
        Digest(geometry: Self.hash(geometry), properties: Self.hash(properties), style: Self.hash(style), folders: Self.hash(folders))
    }

    /// One hash of the properties and style together.
    var attributesDigest: Int {
        var hasher = Hasher()
        hasher.combine(properties)
        hasher.combine(style)
        return hasher.finalize()
    }

    /// The four parts' hashes: what the index of the old version keeps per feature.
    struct Digest: Hashable {
        /// The canonical geometry's hash.
        var geometry: Int
        /// The normalised properties' hash.
        var properties: Int
        /// The style's hash.
        var style: Int
        /// The folder path's hash.
        var folders: Int
    }

    private static func hash<T: Hashable>(_ value: T) -> Int {
        var hasher = Hasher()
        hasher.combine(value)
        return hasher.finalize()
    }

    /// A 128-bit digest of the whole content: what matches a feature without id or key.
    private static func contentDigest(geometry: CanonicalGeometry, properties: JSONObject, style: JSONObject) -> Digest128 {
        Digest128 { hasher in
            hasher.combine(geometry)
            hasher.combine(properties)
            hasher.combine(style)
        }
    }

    /// An id as text: `2`, `2.0` and `"2"` name the same feature (KML ids are text).
    private static func normalized(_ id: FeatureID) -> String {
        switch id {
        case .string(let text): text
        case .integer(let value): String(value)
        case .number(let value): value.rounded() == value && abs(value) < 9e15 ? String(Int64(value)) : String(value)
        }
    }

    /// Members sorted by key, values normalised: key order and number spelling are no change.
    static func normalized(_ object: JSONObject) -> JSONObject {
        JSONObject(object.members.map { JSONObject.Member(key: $0.key, value: normalized($0.value)) }
            .sorted { $0.key < $1.key })
    }

    /// `1`, `1.0` and `1e0` as one double (integers beyond 2^53 stay exact integers).
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .integer(let integer) where abs(integer) <= 1 << 53: .number(Double(integer))
        case .number(let number) where number == 0: .number(0)  // -0 is 0
        case .array(let values): .array(values.map(normalized))
        case .object(let object): .object(normalized(object))
        default: value
        }
    }
}

/// How a feature is matched across two versions: by `--key` value, by id, else by content.
enum DiffIdentity: Hashable {
    /// The `--key` property's value.
    case key(JSONValue)
    /// The GeoJSON `id` or KML `id` attribute, as text.
    case id(String)
    /// The content digest of a feature with neither.
    case content(Digest128)

    /// How a report names the feature: its key value or id; nil when matched by content.
    var label: String? {
        switch self {
        case .key(let value): value.stringValue ?? value.doubleValue.map { $0.rounded() == $0 && abs($0) < 9e15 ? String(Int64($0)) : String($0) } ?? "\(value)"
        case .id(let id): id
        case .content: nil
        }
    }
}

extension DiffIdentity {
    /// The 128 bits the old version's index keeps for this identity instead of its text.
    var digest: Digest128 {
        if case .content(let digest) = self { return digest }
        return Digest128 { $0.combine(self) }
    }
}

/// Two 64-bit hashes of one value made with different seeds: 128 bits, so a million features
/// collide with a probability near 10⁻²⁷.
struct Digest128: Hashable {
    /// The first hash.
    let high: Int
    /// The second hash.
    let low: Int

    /// The digest of what `feed` gives a hasher.
    init(_ feed: (inout Hasher) -> Void) {
        var first = Hasher(), second = Hasher()
        first.combine(0x5eed_0001 as UInt64)
        second.combine(0x5eed_0002 as UInt64)
        feed(&first)
        feed(&second)
        high = first.finalize()
        low = second.finalize()
    }
}

/// A JSON value with object members kept in source order, so properties survive conversion
/// exactly: nothing reordered, nothing dropped. Integer literals that fit in 64 bits stay exact.
public indirect enum JSONValue: Hashable, Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer literal (no fraction or exponent) that fits in Int64.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in source order.
    case object(JSONObject)

    /// The numeric value of `.integer` or `.number`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The JSON type name, for messages and schemas ("string", "number", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON object whose members keep their order. Lookup is linear, which is fastest for the
/// small objects GeoJSON properties are; duplicate keys are kept as the source had them.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
    /// One member: a key and its value.
    public struct Member: Hashable, Sendable {
        /// The member name.
        public var key: String
        /// The member value.
        public var value: JSONValue

        /// A member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in source order (duplicates kept).
    public var members: [Member]

    /// An object of these members.
    public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    /// True when there are no members.
    public var isEmpty: Bool { members.isEmpty }
    /// The number of members.
    public var count: Int { members.count }
    /// The member names in order.
    public var keys: [String] { members.map(\.key) }

    /// The value of the first member named `key`; setting replaces it in place, or appends.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Keeps one member per key — the first one's place with the last one's value, as
    /// JavaScript's `JSON.parse` does — and returns the keys that repeated, or nil when none did
    /// (so a writer never emits a key twice). Checking is O(n²) up to 16 members, O(n) beyond,
    /// and allocates nothing when every key is unique.
    public mutating func removingDuplicateKeys() -> [String]? {
        var hasDuplicate = false
        if members.count <= 16 {
            outer: for index in members.indices.dropFirst() {
                for earlier in 0..<index where members[earlier].key == members[index].key {
                    hasDuplicate = true
                    break outer
                }
            }
        } else {
            var seen = Set<String>(minimumCapacity: members.count)
            hasDuplicate = !members.allSatisfy { seen.insert($0.key).inserted }
        }
        guard hasDuplicate else { return nil }
        var unique: [Member] = []
        var position: [String: Int] = [:]
        var repeated: [String] = []
        for member in members {
            if let index = position[member.key] {
                unique[index].value = member.value
                if !repeated.contains(member.key) { repeated.append(member.key) }
            } else {
                position[member.key] = unique.count
                unique.append(member)
            }
        }
        members = unique
        return repeated
    }

    /// Appends a member at the end.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

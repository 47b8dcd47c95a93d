import OverlayModel

/// The value types tippecanoe's `-T NAME:TYPE` coerces a property to.
public enum AttributeType: String, CaseIterable, Hashable, Sendable, Codable {
    /// Text: numbers in their shortest round-tripping form, `true`/`false`, arrays and objects as JSON.
    case string
    /// A whole number: numbers rounded to the nearest (halves away from zero), numeric text read,
    /// `true` 1 and `false` 0.
    case int
    /// A number: numeric text read, `true` 1 and `false` 0.
    case float
    /// `false` for `false`, 0, the empty string and null; `true` for everything else (tippecanoe's rule).
    case bool
}

/// Coerces named feature properties to one type each (tippecanoe's `-T NAME:TYPE`), once per
/// feature when the source is projected, so every tile and the `vector_layers` fields see one type.
///
/// A value that has no such reading — text that is not a decimal number, an array or object,
/// or a number beyond a 64-bit integer for `int` — is left out of that feature, and counted per
/// property in ``TileSource/uncoercibleValues`` (tippecanoe writes 0 instead, which a
/// map then draws as a real 0). Null stays null for `string`, `int` and `float`.
public struct AttributeCoercion: Hashable, Sendable, Codable {
    /// The type each named property is coerced to; other properties are left as they are.
    public var types: [String: AttributeType]

    /// Coerces the properties named in `types`.
    public init(_ types: [String: AttributeType] = [:]) {
        self.types = types
    }

    /// `properties` with the named members coerced, and those without a reading removed and
    /// counted in `uncoercible` by name. O(members).
    public func applied(to properties: JSONObject?, uncoercible: inout [String: Int]) -> JSONObject? {
        guard !types.isEmpty, var properties else { return properties }
        var index = 0
        while index < properties.members.count {
            let member = properties.members[index]
            guard let type = types[member.key] else {
                index += 1
                continue
            }
            if let value = Self.coerce(member.value, to: type) {
                properties.members[index].value = value
                index += 1
            } else {
                properties.members.remove(at: index)
                uncoercible[member.key, default: 0] += 1
            }
        }
        return properties
    }

    /// `value` read as `type`; nil when it has no such reading.
    public static func coerce(_ value: JSONValue, to type: AttributeType) -> JSONValue? {
        switch type {
        case .string: return stringValue(value)
        case .int: return integerValue(value)
        case .float: return floatValue(value)
        case .bool: return .bool(truth(value))
        }
    }

    private static func stringValue(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .string: return value
        default:
            var out = JSONBytes()
            out.appendValue(value)
            return .string(String(decoding: out.bytes, as: UTF8.self))
        }
    }

    private static func integerValue(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .null, .integer: return value
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .number(let number): return rounded(number)
        case .string(let text):
            guard let number = decimalNumber(text) else { return nil }
            if case .integer = number { return number }
            return number.doubleValue.flatMap(rounded)
        case .array, .object: return nil
        }
    }

    private static func floatValue(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .null, .number: return value
        case .integer(let whole): return .number(Double(whole))
        case .bool(let flag): return .number(flag ? 1 : 0)
        case .string(let text): return decimalNumber(text)?.doubleValue.map(JSONValue.number)
        case .array, .object: return nil
        }
    }

    private static func truth(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .integer(let whole): return whole != 0
        case .number(let number): return number != 0
        case .string(let text): return !text.isEmpty
        case .array, .object: return true
        }
    }

    /// The nearest whole number, when it fits in Int64 (checked: the input is anyone's data).
    private static func rounded(_ number: Double) -> JSONValue? {
        Int64(exactly: number.rounded(.toNearestOrAwayFromZero)).map(JSONValue.integer)
    }

    /// Text that is a decimal number as JSON writes one (surrounding spaces and a leading `+`
    /// allowed): an `.integer` when it has no fraction or exponent and fits, else a finite
    /// `.number`. `Double(_:)` alone would also take "nan", "inf" and hexadecimal.
    static func decimalNumber(_ text: String) -> JSONValue? {
        var bytes = Substring(text).utf8.drop { $0 == 0x20 || $0 == 0x09 }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var rest = bytes.dropFirst(bytes.first == UInt8(ascii: "-") ? 1 : 0)
        let whole = rest.prefix(while: isDigit)
        rest = rest.dropFirst(whole.count)
        var fraction = rest.prefix(0)
        if rest.first == UInt8(ascii: ".") {
            fraction = rest.dropFirst().prefix(while: isDigit)
            rest = rest.dropFirst(1 + fraction.count)
            guard !fraction.isEmpty else { return nil }
        }
        guard !whole.isEmpty else { return nil }
        var hasExponent = false
        if let letter = rest.first, letter == UInt8(ascii: "e") || letter == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
            let digits = rest.prefix(while: isDigit)
            guard !digits.isEmpty else { return nil }
            rest = rest.dropFirst(digits.count)
            hasExponent = true
        }
        guard rest.isEmpty else { return nil }
        let literal = String(decoding: bytes, as: UTF8.self)
        if fraction.isEmpty && !hasExponent, let integer = Int64(literal) { return .integer(integer) }
        guard let number = Double(literal), number.isFinite else { return nil }
        return .number(number)
    }

    /// One warning for a whole run naming how many values of which properties had no reading
    /// and were left out; nil when all had one.
    public static func warning(_ uncoercible: [String: Int], types: [String: AttributeType]) -> Diagnostic? {
        guard !uncoercible.isEmpty else { return nil }
        let total = uncoercible.values.reduce(0, +)
        let parts = uncoercible.keys.sorted().map { name in
            "\(uncoercible[name] ?? 0) of \"\(name)\" (not \(types[name]?.rawValue ?? "?"))"
        }
        return Diagnostic(.warning, code: .tileAttributeType,
                          message: "\(total) property values could not be read as their --attribute-type and were left out "
                              + "of their features: " + parts.joined(separator: ", "))
    }
}

import OverlayModel

/// Evaluates a `WhereExpression` against properties.
///
/// Meaning, close to jq's so pipelines agree:
/// - a path walks objects by key and arrays by index (`tags.0`); a missing member reads as
///   `null`, so `a == null` holds for a missing or null `a`, and `a != 1` holds when `a` is missing;
/// - `exists` holds when every step of the path is present (even when the value is null);
/// - numbers compare by value (`1 == 1.0`); `<`, `<=`, `>`, `>=` compare two numbers or two
///   strings (by Unicode scalar values) and are false for anything else;
/// - `in [...]` holds when the value equals one of the list;
/// - `~ /re/` holds when the value is a string the regex matches somewhere in.
package enum WhereEvaluator {
    /// True when the properties satisfy the expression (`nil` properties: nothing exists).
    /// - Throws: `WhereEvaluationError` when a regex test would cost more than its bound on
    ///   the value (`WhereRegex.maximumWork`): the value is refused, never guessed.
    package static func evaluate(_ expression: WhereExpression, _ properties: JSONObject?) throws(WhereEvaluationError) -> Bool {
        switch expression {
        case .and(let a, let b):
            guard try evaluate(a, properties) else { return false }
            return try evaluate(b, properties)
        case .or(let a, let b):
            if try evaluate(a, properties) { return true }
            return try evaluate(b, properties)
        case .not(let inner):
            return try !evaluate(inner, properties)
        case .exists(let path):
            return lookup(path, properties) != nil
        case .compare(let path, let comparison, let literal):
            let value = lookup(path, properties) ?? .null
            switch comparison {
            case .equal: return equal(value, literal)
            case .notEqual: return !equal(value, literal)
            case .less: return order(value, literal).map { $0 < 0 } ?? false
            case .lessOrEqual: return order(value, literal).map { $0 <= 0 } ?? false
            case .greater: return order(value, literal).map { $0 > 0 } ?? false
            case .greaterOrEqual: return order(value, literal).map { $0 >= 0 } ?? false
            }
        case .oneOf(let path, let literals):
            let value = lookup(path, properties) ?? .null
            return literals.contains { equal(value, $0) }
        case .matches(let path, let regex):
            guard case .string(let text)? = lookup(path, properties) else { return false }
            do {
                return try regex.matches(text)
            } catch {
                var named = error
                named.path = path
                throw named
            }
        }
    }

    /// The value at a path, or nil when a step is missing.
    static func lookup(_ path: [String], _ properties: JSONObject?) -> JSONValue? {
        guard let properties, let first = path.first, var value = properties[first] else { return nil }
        for step in path.dropFirst() {
            switch value {
            case .object(let object):
                guard let member = object[step] else { return nil }
                value = member
            case .array(let array):
                guard let index = Int(step), array.indices.contains(index) else { return nil }
                value = array[index]
            default:
                return nil
            }
        }
        return value
    }

    /// Equality with numbers by value.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x == y
        case (.integer, .number), (.number, .integer), (.number, .number): return a.doubleValue == b.doubleValue
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        default: return a == b
        }
    }

    /// −1, 0 or 1 for two numbers or two strings; nil for anything else.
    static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)):
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.string(let x), .string(let y)):
            let xs = x.unicodeScalars, ys = y.unicodeScalars
            if xs.elementsEqual(ys) { return 0 }
            return xs.lexicographicallyPrecedes(ys) { $0.value < $1.value } ? -1 : 1
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
            return x < y ? -1 : (x == y ? 0 : 1)
        }
    }
}

import OverlayModel

/// A `--where` predicate over a feature's properties, parsed once and evaluated per feature.
///
/// Grammar (lowest precedence first):
///
///     expression := and ('or' and)*
///     and        := not ('and' not)*
///     not        := 'not' not | '(' expression ')' | test
///     test       := path ('==' | '!=' | '<' | '<=' | '>' | '>=') literal
///                 | path 'in' '[' literal (',' literal)* ']'
///                 | path 'exists'
///                 | path '~' '/regex/flags'
///     path       := name ('.' name)*        names in `backquotes` may hold any character
///     literal    := number | 'string' | "string" | true | false | null
///
/// See `WhereEvaluator` for what each test means.
public indirect enum WhereExpression: Hashable, Sendable {
    /// A comparison operator of `--where`, spelled as in the expression.
    public enum Comparison: String, Hashable, Sendable {
        /// `==`: equal (numbers by value, strings exactly).
        case equal = "=="
        /// `!=`: not equal.
        case notEqual = "!="
        /// `<`: less (numbers with numbers, strings with strings).
        case less = "<"
        /// `<=`: less or equal.
        case lessOrEqual = "<="
        /// `>`: greater.
        case greater = ">"
        /// `>=`: greater or equal.
        case greaterOrEqual = ">="
    }

    /// Both sides hold.
    case and(WhereExpression, WhereExpression)
    /// Either side holds.
    case or(WhereExpression, WhereExpression)
    /// The expression does not hold.
    case not(WhereExpression)
    /// The property at the key path compares with the literal (a missing property compares false).
    case compare([String], Comparison, JSONValue)
    /// The property at the key path equals one of the literals (`in [..]`).
    case oneOf([String], [JSONValue])
    /// The key path names a property, even a null one (`exists`).
    case exists([String])
    /// The string property at the key path matches the regular expression (`~ /re/i`).
    case matches([String], WhereRegex)

    /// Parses an expression in which the names starting with `$` are `variables` (`tile`
    /// knows `$type`, `$id` and `$zoom`; `filter` none): any other unquoted `$name` is a typo
    /// (`$zom`) that would read as a missing property and match nothing, so it is refused with
    /// the names this command knows. A property whose name starts with `$` is read in
    /// backquotes (the property `$ref` is written between two backquote characters).
    /// - Throws: `WhereSyntaxError` with the column where it went wrong.
    public init(parsing source: String, variables: Set<String> = []) throws(WhereSyntaxError) {
        var lexer = WhereLexer(source)
        var parser = WhereParser(source: source, tokens: try lexer.tokens(), variables: variables)
        self = try parser.parseAll()
    }
}

/// A compiled `/pattern/flags`, matched in linear time (`LinearRegex`: RE2 syntax, without
/// backreferences or lookaround). Compared by its text.
public final class WhereRegex: Hashable, Sendable {
    /// The pattern between the slashes.
    public let pattern: String
    /// The flags after the closing slash (`i` for case-insensitive).
    public let flags: String
    let regex: LinearRegex

    init(pattern: String, flags: String) throws {
        self.pattern = pattern
        self.flags = flags
        regex = try LinearRegex(pattern: pattern, flags: flags)
    }

    /// True when the pattern matches somewhere in the text, in time linear in its length.
    /// - Throws: `WhereEvaluationError` when the text would cost more than
    ///   ``maximumWork`` steps (its length times the threads the pattern keeps alive).
    public func matches(_ text: String) throws(WhereEvaluationError) -> Bool {
        do {
            return try regex.matches(text)
        } catch {
            throw WhereEvaluationError(path: [], pattern: pattern, flags: flags, length: error.length, budget: error.budget)
        }
    }

    /// The most steps one value may cost a regex test (threads alive summed over its characters).
    public static var maximumWork: Int { LinearRegex.maximumWork }

    public static func == (a: WhereRegex, b: WhereRegex) -> Bool { a.pattern == b.pattern && a.flags == b.flags }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(flags)
    }
}

/// A `--where` test that would cost more than its bound on one value: a regular expression
/// whose threads summed over the value's characters pass ``WhereRegex/maximumWork``.
public struct WhereEvaluationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The property path tested.
    public var path: [String]
    /// The regular expression.
    public var pattern: String
    /// Its flags.
    public var flags: String
    /// The value's length in Unicode scalars.
    public var length: Int
    /// The steps allowed.
    public var budget: Int

    /// A test over budget.
    public init(path: [String], pattern: String, flags: String, length: Int, budget: Int) {
        self.path = path
        self.pattern = pattern
        self.flags = flags
        self.length = length
        self.budget = budget
    }

    /// What happened, naming the property and the bound.
    public var description: String {
        "/\(pattern)/\(flags) on '\(path.joined(separator: "."))' (\(length) characters) would take more than "
            + "\(budget) steps (the characters times the states the pattern keeps alive); a shorter or simpler "
            + "pattern decides it"
    }
}

/// Recursive descent over the tokens; every error names the column of the token at fault.
///
/// Parsing, evaluating and even releasing an expression recurse once per level of its tree, so
/// the tree's height is bounded (`maximumDepth`): 30,000 nested parentheses once overflowed the
/// stack. Chains of `and`/`or` count too; a long list of alternatives belongs in `in [...]`.
struct WhereParser {
    /// The deepest expression tree accepted: nested parentheses, `not`s and `and`/`or` chains.
    static let maximumDepth = 1_000

    let source: String
    let tokens: [WhereToken]
    private var index = 0
    /// Levels entered on the current path (an upper bound on the tree height built so far).
    private var depth = 0

    /// The `$` names this expression may use (see `WhereExpression.init(parsing:variables:)`).
    let variables: Set<String>

    init(source: String, tokens: [WhereToken], variables: Set<String> = []) {
        self.source = source
        self.tokens = tokens
        self.variables = variables
    }

    /// Refuses an unquoted first name starting with `$` that is not one of `variables`.
    private func checkVariable(_ path: [String], _ token: WhereToken) throws(WhereSyntaxError) {
        guard let name = path.first, name.hasPrefix("$"), !token.text.hasPrefix("`"), !variables.contains(name) else { return }
        let known = variables.isEmpty
            ? "no names start with '$' here"
            : "the names starting with '$' here are " + variables.sorted().joined(separator: ", ")
        let zoomHint = name == "$zoom" ? "; only a tile has a zoom (tile --where): filter --visible-at ZOOM keeps what shows at a zoom" : ""
        throw failure("unknown name '\(name)': \(known)\(zoomHint) (a property named so is written `\(name)`)", at: token)
    }

    private var current: WhereToken { tokens[index] }

    private func failure(_ message: String, at token: WhereToken? = nil) -> WhereSyntaxError {
        WhereSyntaxError(expression: source, column: (token ?? current).column, message: message)
    }

    private func found(_ token: WhereToken) -> String {
        token.kind == .end ? "the end of the expression" : "'\(token.text)'"
    }

    mutating func parseAll() throws(WhereSyntaxError) -> WhereExpression {
        if current.kind == .end { throw failure("the expression is empty") }
        let expression = try parseOr()
        guard current.kind == .end else {
            throw failure("expected 'and', 'or' or the end of the expression but found \(found(current))")
        }
        return expression
    }

    /// Enters one level of the tree; fails past `maximumDepth`, naming the token that went too deep.
    private mutating func descend() throws(WhereSyntaxError) {
        depth += 1
        if depth > WhereParser.maximumDepth {
            throw failure("the expression nests deeper than \(WhereParser.maximumDepth) levels (parentheses, 'not' and "
                + "'and'/'or' chains); list alternatives with 'in [...]' instead")
        }
    }

    private mutating func parseOr() throws(WhereSyntaxError) -> WhereExpression {
        let entry = depth
        defer { depth = entry }
        var left = try parseAnd()
        while current.kind == .keyword("or") {
            index += 1
            try descend()
            left = .or(left, try parseAnd())
        }
        return left
    }

    private mutating func parseAnd() throws(WhereSyntaxError) -> WhereExpression {
        let entry = depth
        defer { depth = entry }
        var left = try parseNot()
        while current.kind == .keyword("and") {
            index += 1
            try descend()
            left = .and(left, try parseNot())
        }
        return left
    }

    private mutating func parseNot() throws(WhereSyntaxError) -> WhereExpression {
        let entry = depth
        defer { depth = entry }
        switch current.kind {
        case .keyword("not"):
            index += 1
            try descend()
            return .not(try parseNot())
        case .symbol("("):
            let open = current
            index += 1
            try descend()
            let inner = try parseOr()
            guard current.kind == .symbol(")") else {
                throw failure("expected ')' to close the '(' at column \(open.column) but found \(found(current))")
            }
            index += 1
            return inner
        case .path(let path):
            try checkVariable(path, current)
            index += 1
            return try parseTest(path)
        default:
            throw failure("expected a property name, 'not' or '(' but found \(found(current))")
        }
    }

    private mutating func parseTest(_ path: [String]) throws(WhereSyntaxError) -> WhereExpression {
        let operatorToken = current
        switch operatorToken.kind {
        case .symbol(let symbol) where WhereExpression.Comparison(rawValue: symbol) != nil:
            index += 1
            return .compare(path, WhereExpression.Comparison(rawValue: symbol)!, try parseLiteral(after: operatorToken))
        case .keyword("in"):
            index += 1
            guard current.kind == .symbol("[") else { throw failure("expected '[' after 'in' but found \(found(current))") }
            index += 1
            var values: [JSONValue] = []
            repeat {
                if current.kind == .symbol("]") && values.isEmpty { break }
                values.append(try parseLiteral(after: nil))
                guard current.kind == .symbol(",") || current.kind == .symbol("]") else {
                    throw failure("expected ',' or ']' in the list but found \(found(current))")
                }
                if current.kind == .symbol(",") { index += 1 } else { break }
            } while true
            index += 1  // ']'
            return .oneOf(path, values)
        case .keyword("exists"):
            index += 1
            return .exists(path)
        case .symbol("~"):
            index += 1
            guard case .regex(let pattern, let flags) = current.kind else {
                throw failure("expected a regular expression '/…/' after '~'")
            }
            let regexToken = current
            index += 1
            do {
                return .matches(path, try WhereRegex(pattern: pattern, flags: flags))
            } catch {
                throw failure("invalid regular expression: \(error)", at: regexToken)
            }
        default:
            throw failure("expected an operator (==, !=, <, <=, >, >=, in, exists, ~) after '\(path.joined(separator: "."))' but found \(found(operatorToken))")
        }
    }

    private mutating func parseLiteral(after operatorToken: WhereToken?) throws(WhereSyntaxError) -> JSONValue {
        let token = current
        let value: JSONValue
        switch token.kind {
        case .number(let number): value = number
        case .string(let text): value = .string(text)
        case .keyword("true"): value = .bool(true)
        case .keyword("false"): value = .bool(false)
        case .keyword("null"): value = .null
        case .path(let path):
            throw failure("expected a value (number, 'string', true, false or null) but found '\(path.joined(separator: "."))'; quote text values")
        default:
            let after = operatorToken.map { " after '\($0.text)'" } ?? ""
            throw failure("expected a value (number, 'string', true, false or null)\(after) but found \(found(token))")
        }
        index += 1
        return value
    }
}

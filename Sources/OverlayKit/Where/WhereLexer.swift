import OverlayModel

/// A mistake in a `--where` expression, with the 1-based column (in characters) where it is.
public struct WhereSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The expression as given.
    public var expression: String
    /// 1-based column of the problem in the expression.
    public var column: Int
    /// What is wrong there.
    public var message: String

    /// An error at `column` of `expression`.
    public init(expression: String, column: Int, message: String) {
        self.expression = expression
        self.column = column
        self.message = message
    }

    /// The message, then the expression with a caret under the column.
    public var description: String {
        "column \(column): \(message)\n  \(expression)\n  \(String(repeating: " ", count: max(0, column - 1)))^"
    }
}

/// One token of a `--where` expression.
struct WhereToken: Hashable {
    enum Kind: Hashable {
        /// A property path: `name`, `a.b`, `` `odd key`.b ``, `tags.0`.
        case path([String])
        case number(JSONValue)
        case string(String)
        /// `/pattern/flags`, only lexed right after `~`.
        case regex(pattern: String, flags: String)
        case keyword(String)  // and or not in exists true false null
        case symbol(String)   // == != < <= > >= ~ ( ) [ ] ,
        case end
    }

    var kind: Kind
    /// 1-based column of the first character.
    var column: Int
    /// The text as written, for messages.
    var text: String
}

/// Splits a `--where` expression into tokens, reporting the column of anything it cannot read.
struct WhereLexer {
    static let keywords: Set<String> = ["and", "or", "not", "in", "exists", "true", "false", "null"]

    private let source: String
    private let characters: [Character]
    private var index = 0

    init(_ source: String) {
        self.source = source
        characters = Array(source)
    }

    private func failure(_ message: String, at index: Int) -> WhereSyntaxError {
        WhereSyntaxError(expression: source, column: index + 1, message: message)
    }

    /// Every token, ending with `.end`.
    mutating func tokens() throws(WhereSyntaxError) -> [WhereToken] {
        var result: [WhereToken] = []
        while true {
            let token = try next(afterTilde: result.last?.kind == .symbol("~"))
            result.append(token)
            if token.kind == .end { return result }
        }
    }

    private static func isPathStart(_ c: Character) -> Bool {
        c.isLetter || c == "_" || c == "$" || c == "@"
    }

    private static func isPathCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "$" || c == "@" || c == "-" || c == ":"
    }

    private mutating func next(afterTilde: Bool) throws(WhereSyntaxError) -> WhereToken {
        while index < characters.count && characters[index].isWhitespace { index += 1 }
        let start = index
        guard index < characters.count else { return WhereToken(kind: .end, column: start + 1, text: "end of expression") }
        let c = characters[index]
        func token(_ kind: WhereToken.Kind) -> WhereToken {
            WhereToken(kind: kind, column: start + 1, text: String(characters[start..<index]))
        }
        if afterTilde {
            guard c == "/" else { throw failure("expected a regular expression '/…/' after '~'", at: start) }
            return try regex(start: start)
        }
        switch c {
        case "(", ")", "[", "]", ",":
            index += 1
            return token(.symbol(String(c)))
        case "=", "!", "<", ">":
            index += 1
            if index < characters.count && characters[index] == "=" {
                index += 1
                return token(.symbol(String(c) + "="))
            }
            if c == "=" { throw failure("use '==' to compare", at: start) }
            if c == "!" { throw failure("use 'not' to negate, or '!=' to compare", at: start) }
            return token(.symbol(String(c)))
        case "~":
            index += 1
            return token(.symbol("~"))
        case "\"", "'":
            return try string(quote: c, start: start)
        case "-", "0"..."9":
            return try number(start: start)
        case "`":
            return try path(start: start)
        default:
            if WhereLexer.isPathStart(c) { return try path(start: start) }
            throw failure("unexpected character '\(c)'", at: start)
        }
    }

    private mutating func number(start: Int) throws(WhereSyntaxError) -> WhereToken {
        while index < characters.count, characters[index].isNumber || "+-.eE".contains(characters[index]) {
            index += 1
        }
        let text = String(characters[start..<index])
        let bytes = Array(text.utf8)
        let valid = bytes.withUnsafeBufferPointer { JSONScanner.isNumber($0.baseAddress!, count: $0.count) }
        guard valid, let value = Double(text) else { throw failure("'\(text)' is not a number", at: start) }
        let kind: JSONValue = !text.contains(where: { ".eE".contains($0) }) ? Int64(text).map(JSONValue.integer) ?? .number(value) : .number(value)
        return WhereToken(kind: .number(kind), column: start + 1, text: text)
    }

    private mutating func string(quote: Character, start: Int) throws(WhereSyntaxError) -> WhereToken {
        index += 1
        var text = ""
        while index < characters.count {
            let c = characters[index]
            index += 1
            if c == quote {
                return WhereToken(kind: .string(text), column: start + 1, text: String(characters[start..<index]))
            }
            if c == "\\" {
                guard index < characters.count else { break }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "\\", "\"", "'": text.append(escaped)
                default: throw failure("unknown escape '\\\(escaped)' in a string", at: index - 2)
                }
            } else {
                text.append(c)
            }
        }
        throw failure("string is not closed: add \(quote)", at: start)
    }

    private mutating func path(start: Int) throws(WhereSyntaxError) -> WhereToken {
        var segments: [String] = []
        while true {
            let segmentStart = index
            if index < characters.count && characters[index] == "`" {
                index += 1
                guard let close = characters[index...].firstIndex(of: "`") else {
                    throw failure("quoted property name is not closed: add `", at: segmentStart)
                }
                segments.append(String(characters[index..<close]))
                index = close + 1
            } else {
                while index < characters.count && WhereLexer.isPathCharacter(characters[index]) { index += 1 }
                guard index > segmentStart else {
                    throw failure("expected a property name after '.'", at: segmentStart)
                }
                segments.append(String(characters[segmentStart..<index]))
            }
            guard index < characters.count && characters[index] == "." else { break }
            index += 1
        }
        let text = String(characters[start..<index])
        if segments.count == 1, characters[start] != "`", WhereLexer.keywords.contains(segments[0]) {
            return WhereToken(kind: .keyword(segments[0]), column: start + 1, text: text)
        }
        return WhereToken(kind: .path(segments), column: start + 1, text: text)
    }

    private mutating func regex(start: Int) throws(WhereSyntaxError) -> WhereToken {
        index += 1
        var pattern = ""
        while index < characters.count {
            let c = characters[index]
            index += 1
            if c == "/" {
                let flagsStart = index
                while index < characters.count && characters[index].isLetter { index += 1 }
                let flags = String(characters[flagsStart..<index])
                if let bad = flags.first(where: { !"imsx".contains($0) }) {
                    throw failure("unknown regular expression flag '\(bad)' (use i, m, s or x)",
                                  at: flagsStart + flags.distance(from: flags.startIndex, to: flags.firstIndex(of: bad)!))
                }
                return WhereToken(kind: .regex(pattern: pattern, flags: flags), column: start + 1,
                                  text: String(characters[start..<index]))
            }
            if c == "\\" && index < characters.count && characters[index] == "/" {
                pattern.append("/")
                index += 1
            } else {
                pattern.append(c)
                if c == "\\" && index < characters.count {
                    pattern.append(characters[index])
                    index += 1
                }
            }
        }
        throw failure("regular expression is not closed: add /", at: start)
    }
}

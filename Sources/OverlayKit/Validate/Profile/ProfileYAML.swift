import OverlayModel

/// The subset of YAML 1.2 a profile file needs, read into the same `JSONValue` a JSON profile
/// gives (so one reader checks both): block mappings and block sequences nested by
/// indentation (spaces only), `- key: value` items, plain, `'single'` and `"double"`-quoted
/// scalars (`\"`, `\\`, `\n`, `\t`, `\uXXXX` escapes), flow sequences of scalars
/// (`[kml, kmz]`), `{}` and `[]`, `#` comments, and a leading `---`. Plain scalars become
/// integers, numbers, `true`/`false` or null (`null`, `~`) as YAML's core schema says, else
/// strings.
///
/// Anything else (anchors `&`, aliases `*`, tags `!`, block scalars `|` `>`, multi-line plain
/// scalars, flow mappings with content, several documents) is refused with its line and column,
/// never read as something else. Each value's place is kept by JSON Pointer, so a profile error
/// found later names its line too. O(n) in the text; collections nest at most `maximumDepth` deep.
struct ProfileYAML {
    /// One significant line: its indentation, its text without the comment, its number.
    private struct Line {
        var indent: Int
        var text: Substring
        var number: Int
        /// The column (1-based) where `text` starts.
        var column: Int { indent + 1 }
    }

    private var lines: [Line] = []
    /// Collections open around the node being read.
    private var depth = 0
    /// The deepest nesting read: a profile needs four levels; a hostile file of 10,000 `- `
    /// would otherwise recurse until the stack overflows.
    static let maximumDepth = 64
    private let file: String?
    /// Where each value starts, by JSON Pointer.
    private(set) var places: [String: SourceLocation] = [:]

    /// Reads `text`; `file` names it in diagnostics.
    init(_ text: String, file: String?) throws {
        self.file = file
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let indent = line.prefix { $0 == " " }.count
            if line.dropFirst(indent).first == "\t" { throw failure("tabs cannot indent YAML; use spaces", line: number, column: indent + 1) }
            line = Self.withoutComment(line.dropFirst(indent))
            while line.last == " " || line.last == "\t" { line.removeLast() }
            if line.isEmpty { continue }
            if line == "---", lines.isEmpty { continue }  // the document's start marker
            if line == "---" || line == "..." {
                throw failure("one YAML document only (found '\(line)')", line: number, column: indent + 1)
            }
            lines.append(Line(indent: indent, text: line, number: number))
        }
    }

    /// The document's value (an empty document is null).
    mutating func value() throws -> JSONValue {
        guard !lines.isEmpty else { return .null }
        var index = 0
        let value = try node(&index, indent: lines[0].indent, pointer: "")
        if index < lines.count {
            throw failure("this line does not fit the structure above it (check its indentation)", line: lines[index].number,
                          column: lines[index].column)
        }
        return value
    }

    /// The value that starts at `lines[index]`, indented by `indent`.
    private mutating func node(_ index: inout Int, indent: Int, pointer: String) throws -> JSONValue {
        let line = lines[index]
        guard depth < Self.maximumDepth else {
            throw failure("collections nest more than \(Self.maximumDepth) deep", line: line.number, column: line.column)
        }
        depth += 1
        defer { depth -= 1 }
        places[pointer] = SourceLocation(file: file, line: line.number, column: line.column)
        if line.text == "-" || line.text.hasPrefix("- ") { return try sequence(&index, indent: indent, pointer: pointer) }
        if Self.keySplit(line.text) != nil { return try mapping(&index, indent: indent, pointer: pointer) }
        index += 1
        return try scalar(line.text, line: line.number, column: line.column)
    }

    /// A block sequence: `- item` lines at `indent`.
    private mutating func sequence(_ index: inout Int, indent: Int, pointer: String) throws -> JSONValue {
        var items: [JSONValue] = []
        while index < lines.count, lines[index].indent == indent, lines[index].text == "-" || lines[index].text.hasPrefix("- ") {
            let line = lines[index]
            let itemPointer = pointer + "/\(items.count)"
            let rest = line.text.dropFirst().drop { $0 == " " }
            if rest.isEmpty {
                index += 1
                guard index < lines.count, lines[index].indent > indent else {
                    places[itemPointer] = SourceLocation(file: file, line: line.number, column: line.column)
                    items.append(.null)
                    continue
                }
                items.append(try node(&index, indent: lines[index].indent, pointer: itemPointer))
            } else {
                // `- key: value` opens a mapping whose keys line up with `key`.
                let itemIndent = indent + (line.text.count - rest.count)
                lines[index] = Line(indent: itemIndent, text: rest, number: line.number)
                items.append(try node(&index, indent: itemIndent, pointer: itemPointer))
            }
        }
        return .array(items)
    }

    /// A block mapping: `key: value` lines at `indent`.
    private mutating func mapping(_ index: inout Int, indent: Int, pointer: String) throws -> JSONValue {
        var object = JSONObject()
        while index < lines.count, lines[index].indent == indent, !(lines[index].text == "-" || lines[index].text.hasPrefix("- ")) {
            let line = lines[index]
            guard let (rawKey, rawValue) = Self.keySplit(line.text) else {
                throw failure("expected 'key: value'", line: line.number, column: line.column)
            }
            guard case .string(let key) = try scalar(rawKey, line: line.number, column: line.column, plainOnly: true) else {
                throw failure("a key is text", line: line.number, column: line.column)
            }
            if object[key] != nil { throw failure("key '\(key)' appears twice", line: line.number, column: line.column) }
            let valuePointer = pointer + "/" + JSONPointer.escape(key)
            index += 1
            if !rawValue.isEmpty {
                let column = line.column + (line.text.count - rawValue.count)
                places[valuePointer] = SourceLocation(file: file, line: line.number, column: column)
                object.append(key, try scalar(rawValue, line: line.number, column: column))
            } else if index < lines.count, lines[index].indent > indent
                        || (lines[index].indent == indent && (lines[index].text == "-" || lines[index].text.hasPrefix("- "))) {
                object.append(key, try node(&index, indent: lines[index].indent, pointer: valuePointer))
            } else {
                places[valuePointer] = SourceLocation(file: file, line: line.number, column: line.column)
                object.append(key, .null)
            }
        }
        return .object(object)
    }

    /// A scalar or flow collection on one line.
    private func scalar(_ text: Substring, line: Int, column: Int, plainOnly: Bool = false) throws -> JSONValue {
        guard let first = text.first else { return .null }
        switch first {
        case "\"":
            return .string(try doubleQuoted(text, line: line, column: column))
        case "'":
            guard text.count >= 2, text.last == "'" else { throw failure("a quoted string is not closed on its line", line: line, column: column) }
            let body = text.dropFirst().dropLast()
            if body.replacingOccurrences(of: "''", with: "").contains("'") {
                throw failure("a single quote inside '…' is written ''", line: line, column: column)
            }
            return .string(body.replacingOccurrences(of: "''", with: "'"))
        case "[" where !plainOnly:
            guard text.last == "]" else { throw failure("a flow sequence is closed on its line: [a, b]", line: line, column: column) }
            let body = text.dropFirst().dropLast()
            if body.allSatisfy({ $0 == " " }) { return .array([]) }
            return .array(try Self.splitFlow(body).map { item in
                let trimmed = item.drop { $0 == " " }
                let itemText = trimmed.prefix(trimmed.count - trimmed.reversed().prefix { $0 == " " }.count)
                if itemText.first == "[" || itemText.first == "{" {
                    throw failure("nested flow collections are not supported", line: line, column: column)
                }
                return try scalar(itemText, line: line, column: column)
            })
        case "{" where !plainOnly:
            guard text.dropFirst().dropLast().allSatisfy({ $0 == " " }), text.last == "}" else {
                throw failure("flow mappings are not supported beyond {}: write the keys on their own lines", line: line, column: column)
            }
            return .object([:])
        case "&", "*", "!", "|", ">", "%", "@", "`":
            throw failure("YAML '\(first)' (anchors, aliases, tags, block scalars, directives) is not supported in a profile",
                          line: line, column: column)
        default:
            break
        }
        let plain = String(text)
        if plainOnly { return .string(plain) }
        switch plain {
        case "null", "Null", "NULL", "~": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if plain.first.map({ $0.isNumber || $0 == "-" || $0 == "+" }) ?? false {
            if let integer = Int64(plain.hasPrefix("+") ? String(plain.dropFirst()) : plain) { return .integer(integer) }
            if plain.allSatisfy({ "0123456789+-.eE".contains($0) }), let number = Double(plain) { return .number(number) }
        }
        return .string(plain)
    }

    /// A `"…"` scalar's text, its escapes resolved.
    private func doubleQuoted(_ text: Substring, line: Int, column: Int) throws -> String {
        var result = ""
        var iterator = text.dropFirst().makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\"":
                guard iterator.next() == nil else { throw failure("text follows a closed string", line: line, column: column) }
                return result
            case "\\":
                switch iterator.next() {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "/": result.append("/")
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "u":
                    var hex = ""
                    for _ in 0..<4 { if let digit = iterator.next() { hex.append(digit) } }
                    guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw failure("\\u takes four hexadecimal digits", line: line, column: column)
                    }
                    result.unicodeScalars.append(scalar)
                default:
                    throw failure("unknown escape in a \"…\" string", line: line, column: column)
                }
            default:
                result.append(character)
            }
        }
        throw failure("a quoted string is not closed on its line", line: line, column: column)
    }

    /// `key: value` split at the first `: ` (or a final `:`) outside quotes; nil when the
    /// line is no mapping entry.
    private static func keySplit(_ text: Substring) -> (Substring, Substring)? {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                if index == text.startIndex { quote = character }
            } else if character == ":" {
                let next = text.index(after: index)
                if next == text.endIndex || text[next] == " " {
                    let value = text[next...].drop { $0 == " " }
                    return (text[..<index], value)
                }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The line without a `#` comment (one that starts the line or follows a space, outside
    /// quotes; a quote opens a string only where a scalar starts, so `viewer's` is plain text).
    private static func withoutComment(_ text: Substring) -> Substring {
        var quote: Character?
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if (character == "\"" || character == "'") && " [,-".contains(previous) {
                quote = character
            } else if character == "#" && (previous == " " || previous == "\t") {
                return text[..<index]
            }
            previous = character
        }
        return text
    }

    /// The items of a flow sequence's body, split at commas outside quotes.
    private static func splitFlow(_ body: Substring) throws -> [Substring] {
        var items: [Substring] = []
        var quote: Character?
        var start = body.startIndex
        for index in body.indices {
            let character = body[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "," {
                items.append(body[start..<index])
                start = body.index(after: index)
            }
        }
        items.append(body[start...])
        return items
    }

    private func failure(_ message: String, line: Int, column: Int) -> Diagnostic {
        Diagnostic(.error, code: .profileInvalid, message: "not a profile YAML: " + message,
                   location: SourceLocation(file: file, line: line, column: column))
    }
}

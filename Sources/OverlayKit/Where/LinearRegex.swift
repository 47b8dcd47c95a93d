/// A regular expression matched in time linear in the text: a Thompson NFA run as a Pike VM,
/// as RE2 and Rust's regex crate do.
///
/// Swift's `Regex` backtracks, so `/^(a+)+$/` against a long run of `a` ending in `b` took
/// exponential time and `filter --where` never finished. Here every text scalar is looked at
/// once per NFA state: O(text × pattern), whatever the pattern.
///
/// Syntax (RE2's, without what needs backtracking): literals and `\`-escaped punctuation, `.`,
/// classes `[a-z]`, `[^…]`, `\d \D \w \W \s \S` (ASCII, as RE2), `\t \n \r \f \v \xHH \u{H…}`,
/// anchors `^ $` (lines with the `m` flag), `\b \B`, groups `( )`, `(?: )`, `(?<name> )`,
/// alternation `|`, quantifiers `* + ? {n} {n,} {n,m}` (a lazy `?` after them changes nothing
/// for a yes/no match). Flags: `i` (case-insensitive), `m`, `s` (`.` matches a newline), `x`
/// (whitespace and `#` comments ignored). Backreferences and lookaround are refused with an
/// error that says why. Programs are bounded (`maximumProgramSize`), as is nesting.
struct LinearRegex: Sendable {
    /// Why a pattern was refused.
    struct SyntaxError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// The most NFA instructions a pattern may compile to (counted repetition multiplies).
    static let maximumProgramSize = 20_000
    /// The largest count in `{n,m}`.
    static let maximumRepetition = 1_000
    /// The deepest group nesting accepted (the parser recurses once per level).
    static let maximumNesting = 200

    private let program: [Instruction]
    private let caseInsensitive: Bool

    /// Compiles `pattern` with flags from `imsx`.
    init(pattern: String, flags: String) throws(SyntaxError) {
        var parser = Parser(Array(pattern.unicodeScalars), extended: flags.contains("x"))
        let tree = try parser.parseAll()
        var compiler = Compiler(multiline: flags.contains("m"), dotMatchesNewline: flags.contains("s"))
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
        caseInsensitive = flags.contains("i")
    }

    /// The most work one text may cost beyond two steps per character: threads alive summed
    /// over its positions (each is one instruction stepped and at most a few followed). O(text × pattern) is linear but not
    /// small: `(a{1000}){20}` compiles to 20,000 instructions, and on a 1 MB value of `a` runs
    /// broken by `b` it kept ~1,000 threads alive per character, 10^9 steps (33 s). 2·10^7
    /// steps take ~0.5 s in a release build on a 2-core machine (a debug build is ~20× slower;
    /// docs/filter.md); past them the text is refused (`TooCostly`), never guessed.
    static let maximumWork = 20_000_000

    /// A text that would cost more than the work allowed, with what was counted so far.
    struct TooCostly: Error {
        /// The text's length in Unicode scalars.
        let length: Int
        /// The work allowed.
        let budget: Int
    }

    /// True when the pattern matches somewhere in `text`.
    /// - Throws: `TooCostly` when deciding would take more than `budget` steps (threads alive
    ///   summed over positions): O(min(text × pattern, budget)) whatever the input.
    func matches(_ text: String, budget: Int = LinearRegex.maximumWork) throws(TooCostly) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var current = ThreadList(capacity: program.count), next = ThreadList(capacity: program.count)
        var stack: [Int] = []
        // Two threads per character are every text's due (the one started there and one more),
        // so only patterns that keep many states alive meet the bound.
        let allowed = budget.addingReportingOverflow(2 * scalars.count).partialValue
        var work = 0
        for position in 0...scalars.count {
            // Unanchored search: a new thread starts at every position.
            if add(0, at: position, of: scalars, to: &current, stack: &stack) { return true }
            guard position < scalars.count else { break }
            work &+= current.members.count
            if work > allowed { throw TooCostly(length: scalars.count, budget: allowed) }
            let scalar = scalars[position]
            next.removeAll()
            for pc in current.members where step(program[pc], on: scalar) {
                if add(pc + 1, at: position + 1, of: scalars, to: &next, stack: &stack) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Follows jumps, splits and assertions from `pc` at `position`; true when `match` is reached.
    private func add(_ start: Int, at position: Int, of scalars: [Unicode.Scalar], to list: inout ThreadList,
                     stack: inout [Int]) -> Bool {
        stack.removeAll(keepingCapacity: true)
        stack.append(start)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert(let assertion):
                if holds(assertion, at: position, of: scalars) { stack.append(pc + 1) }
            case .scalar, .set, .any:
                break
            }
        }
        return false
    }

    private func step(_ instruction: Instruction, on scalar: Unicode.Scalar) -> Bool {
        switch instruction {
        case .scalar(let expected):
            return expected == scalar || (caseInsensitive && LinearRegex.fold(expected) == LinearRegex.fold(scalar))
        case .set(let set):
            guard caseInsensitive else { return set.contains(scalar) }
            // A scalar is in the class when it or a case variant is listed; negation comes after.
            let listed = set.lists(scalar) || LinearRegex.caseVariants(of: scalar).contains { set.lists($0) }
            return listed != set.negated
        case .any(let newline):
            return newline || scalar != "\n"
        default:
            return false
        }
    }

    private func holds(_ assertion: Assertion, at position: Int, of scalars: [Unicode.Scalar]) -> Bool {
        switch assertion {
        case .textStart: return position == 0
        case .textEnd: return position == scalars.count
        case .lineStart: return position == 0 || scalars[position - 1] == "\n"
        case .lineEnd: return position == scalars.count || scalars[position] == "\n"
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && ScalarSet.word.contains(scalars[position - 1])
            let after = position < scalars.count && ScalarSet.word.contains(scalars[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    /// Simple case folding: the lowercase mapping when it is one scalar.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    private static func caseVariants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping].compactMap {
            $0.unicodeScalars.count == 1 ? $0.unicodeScalars.first : nil
        }
    }
}

// MARK: - Program

private enum Assertion: Sendable, Equatable {
    case textStart, textEnd, lineStart, lineEnd, wordBoundary, notWordBoundary
}

private enum Instruction: Sendable {
    case scalar(Unicode.Scalar)
    case set(ScalarSet)
    /// Any scalar; a newline only when the flag says so.
    case any(matchesNewline: Bool)
    case split(Int, Int)
    case jump(Int)
    case assert(Assertion)
    case match
}

/// Closed ranges of scalars, possibly negated.
private struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>]
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        lists(scalar) != negated
    }

    /// Whether a range lists the scalar, before negation.
    func lists(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar.value) }
    }

    static let digit = ScalarSet(ranges: [0x30...0x39])
    static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let space = ScalarSet(ranges: [0x09...0x0D, 0x20...0x20])
}

/// The set of active NFA states: a sparse set, so clearing is O(1) and each state enters once
/// per text position (which is what makes the run linear).
private struct ThreadList {
    private(set) var members: [Int] = []
    private var index: [Int]

    init(capacity: Int) { index = Array(repeating: -1, count: capacity) }

    mutating func insert(_ pc: Int) -> Bool {
        let slot = index[pc]
        if slot >= 0 && slot < members.count && members[slot] == pc { return false }
        index[pc] = members.count
        members.append(pc)
        return true
    }

    mutating func removeAll() { members.removeAll(keepingCapacity: true) }
}

// MARK: - Parsing

private indirect enum Node {
    case empty
    case scalar(Unicode.Scalar)
    case set(ScalarSet)
    case any
    case assert(Assertion)
    case concat([Node])
    case alternate([Node])
    case repeated(Node, min: Int, max: Int?)
}

private struct Parser {
    let scalars: [Unicode.Scalar]
    let extended: Bool
    var index = 0
    var depth = 0

    init(_ scalars: [Unicode.Scalar], extended: Bool) {
        self.scalars = scalars
        self.extended = extended
    }

    private func fail(_ message: String) -> LinearRegex.SyntaxError {
        LinearRegex.SyntaxError(message: message + " (at character \(index + 1) of the pattern)")
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    mutating func parseAll() throws(LinearRegex.SyntaxError) -> Node {
        let node = try parseAlternation()
        if current == ")" { throw fail("unmatched ')'") }
        return node
    }

    private mutating func parseAlternation() throws(LinearRegex.SyntaxError) -> Node {
        var branches = [try parseConcatenation()]
        while current == "|" {
            index += 1
            branches.append(try parseConcatenation())
        }
        return branches.count == 1 ? branches[0] : .alternate(branches)
    }

    private mutating func skipExtendedWhitespace() {
        guard extended else { return }
        while let scalar = current {
            if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "#" {
                while let next = current, next != "\n" { index += 1 }
            } else {
                return
            }
        }
    }

    private mutating func parseConcatenation() throws(LinearRegex.SyntaxError) -> Node {
        var items: [Node] = []
        while true {
            skipExtendedWhitespace()
            guard let scalar = current, scalar != "|", scalar != ")" else { break }
            var atom = try parseAtom()
            atom = try parseQuantifiers(atom)
            items.append(atom)
        }
        return items.isEmpty ? .empty : (items.count == 1 ? items[0] : .concat(items))
    }

    private mutating func parseQuantifiers(_ atom: Node) throws(LinearRegex.SyntaxError) -> Node {
        var node = atom
        while true {
            skipExtendedWhitespace()
            guard let scalar = current else { return node }
            let bounds: (Int, Int?)
            switch scalar {
            case "*": bounds = (0, nil); index += 1
            case "+": bounds = (1, nil); index += 1
            case "?": bounds = (0, 1); index += 1
            case "{":
                guard let counted = try parseCountedRepetition() else { return node }
                bounds = counted
            default:
                return node
            }
            if case .assert = node { throw fail("a quantifier cannot follow an anchor") }
            if case .empty = node { throw fail("a quantifier has nothing to repeat") }
            if current == "?" { index += 1 }  // lazy: the same yes/no answer
            if current == "+" { throw fail("possessive quantifiers are not supported") }
            node = .repeated(node, min: bounds.0, max: bounds.1)
        }
    }

    /// `{n}`, `{n,}` or `{n,m}`; nil (and nothing consumed) when the brace is a literal.
    private mutating func parseCountedRepetition() throws(LinearRegex.SyntaxError) -> (Int, Int?)? {
        let start = index
        index += 1
        func number() -> Int? {
            var value: Int?
            while let scalar = current, ("0"..."9").contains(scalar) {
                value = min(LinearRegex.maximumRepetition + 1, (value ?? 0) * 10 + Int(scalar.value - 0x30))
                index += 1
            }
            return value
        }
        guard let low = number() else { index = start; return nil }
        var high: Int? = low
        if current == "," {
            index += 1
            high = number()
        }
        guard current == "}" else { index = start; return nil }
        index += 1
        if low > LinearRegex.maximumRepetition || (high ?? 0) > LinearRegex.maximumRepetition {
            throw fail("a repetition count is above \(LinearRegex.maximumRepetition)")
        }
        if let high, high < low { throw fail("{\(low),\(high)} has its bounds reversed") }
        return (low, high)
    }

    private mutating func parseAtom() throws(LinearRegex.SyntaxError) -> Node {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case ".": return .any
        case "^": return .assert(.lineStart)  // resolved to text or line start by the compiler
        case "$": return .assert(.lineEnd)
        case "[": return .set(try parseClass())
        case "\\": return try parseEscape(inClass: false)
        case "(":
            depth += 1
            defer { depth -= 1 }
            if depth > LinearRegex.maximumNesting { throw fail("groups nest deeper than \(LinearRegex.maximumNesting)") }
            if current == "?" {
                index += 1
                switch current {
                case ":": index += 1
                case "<" where index + 1 < scalars.count && scalars[index + 1] != "=" && scalars[index + 1] != "!":
                    while let next = current, next != ">" { index += 1 }
                    guard current == ">" else { throw fail("a group name is not closed with '>'") }
                    index += 1
                case "P" where index + 1 < scalars.count && scalars[index + 1] == "<":
                    while let next = current, next != ">" { index += 1 }
                    guard current == ">" else { throw fail("a group name is not closed with '>'") }
                    index += 1
                case "=", "!", "<":
                    throw fail("lookaround is not supported: --where regexes run in linear time, which rules it out")
                default:
                    throw fail("inline flags and other (?…) groups are not supported; put flags after the closing / (/…/i)")
                }
            }
            let inner = try parseAlternation()
            guard current == ")" else { throw fail("missing ')'") }
            index += 1
            return inner
        case ")": throw fail("unmatched ')'")
        case "*", "+", "?": throw fail("a quantifier has nothing to repeat")
        default: return .scalar(scalar)
        }
    }

    private mutating func parseEscape(inClass: Bool) throws(LinearRegex.SyntaxError) -> Node {
        guard let scalar = current else { throw fail("the pattern ends with a lone '\\'") }
        index += 1
        switch scalar {
        case "d": return .set(.digit)
        case "D": return .set(ScalarSet(ranges: ScalarSet.digit.ranges, negated: true))
        case "w": return .set(.word)
        case "W": return .set(ScalarSet(ranges: ScalarSet.word.ranges, negated: true))
        case "s": return .set(.space)
        case "S": return .set(ScalarSet(ranges: ScalarSet.space.ranges, negated: true))
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "b" where !inClass: return .assert(.wordBoundary)
        case "B" where !inClass: return .assert(.notWordBoundary)
        case "A" where !inClass: return .assert(.textStart)
        case "z" where !inClass: return .assert(.textEnd)
        case "x":
            if current == "{" { return .scalar(try parseHexBraces()) }
            var value: UInt32 = 0
            for _ in 0..<2 {
                guard let digit = current, let nibble = hexValue(digit) else { throw fail("\\x needs two hex digits") }
                value = value * 16 + nibble
                index += 1
            }
            return .scalar(Unicode.Scalar(value)!)
        case "u":
            guard current == "{" else { throw fail("write \\u{…} with braces") }
            return .scalar(try parseHexBraces())
        case "1"..."9":
            throw fail("backreferences are not supported: --where regexes run in linear time, which rules them out")
        default:
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                throw fail("unknown escape '\\\(scalar)'")
            }
            return .scalar(scalar)
        }
    }

    private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }

    private mutating func parseHexBraces() throws(LinearRegex.SyntaxError) -> Unicode.Scalar {
        index += 1
        var value: UInt32 = 0
        var digits = 0
        while let scalar = current, let nibble = hexValue(scalar), digits < 8 {
            value = value &* 16 &+ nibble
            digits += 1
            index += 1
        }
        guard current == "}", digits > 0, let result = Unicode.Scalar(value) else { throw fail("invalid \\u{…} or \\x{…} escape") }
        index += 1
        return result
    }

    private mutating func parseClass() throws(LinearRegex.SyntaxError) -> ScalarSet {
        var set = ScalarSet(ranges: [])
        if current == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = current else { throw fail("missing ']' to close the class") }
            if scalar == "]" && !first { index += 1; return set }
            first = false
            index += 1
            var low: UInt32
            if scalar == "\\" {
                switch try parseEscape(inClass: true) {
                case .scalar(let value): low = value.value
                case .set(let inner) where !inner.negated:
                    set.ranges += inner.ranges
                    continue
                default:
                    throw fail("a negated class escape (\\D, \\W, \\S) cannot sit inside [...]")
                }
            } else {
                low = scalar.value
            }
            if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                var high = scalars[index].value
                index += 1
                if high == 0x5C {  // backslash
                    guard case .scalar(let value) = try parseEscape(inClass: true) else { throw fail("a class range must end in one character") }
                    high = value.value
                }
                guard low <= high else { throw fail("the class range is reversed") }
                set.ranges.append(low...high)
            } else {
                set.ranges.append(low...low)
            }
        }
    }
}

// MARK: - Compiling

private struct Compiler {
    let multiline: Bool
    let dotMatchesNewline: Bool
    var program: [Instruction] = []

    init(multiline: Bool, dotMatchesNewline: Bool) {
        self.multiline = multiline
        self.dotMatchesNewline = dotMatchesNewline
    }

    private mutating func append(_ instruction: Instruction) throws(LinearRegex.SyntaxError) {
        guard program.count < LinearRegex.maximumProgramSize else {
            throw LinearRegex.SyntaxError(message: "the pattern is too large once its repetitions are expanded "
                + "(more than \(LinearRegex.maximumProgramSize) steps)")
        }
        program.append(instruction)
    }

    mutating func emit(_ node: Node) throws(LinearRegex.SyntaxError) {
        switch node {
        case .empty:
            break
        case .scalar(let scalar):
            try append(.scalar(scalar))
        case .set(let set):
            try append(.set(set))
        case .any:
            try append(.any(matchesNewline: dotMatchesNewline))
        case .assert(let assertion):
            switch assertion {
            case .lineStart: try append(.assert(multiline ? .lineStart : .textStart))
            case .lineEnd: try append(.assert(multiline ? .lineEnd : .textEnd))
            default: try append(.assert(assertion))
            }
        case .concat(let items):
            for item in items { try emit(item) }
        case .alternate(let branches):
            var jumps: [Int] = []
            for (number, branch) in branches.enumerated() {
                if number < branches.count - 1 {
                    let split = program.count
                    try append(.split(split + 1, -1))
                    try emit(branch)
                    jumps.append(program.count)
                    try append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let low, let high):
            for _ in 0..<low { try emit(inner) }
            if let high {
                // Each optional copy may be skipped to the end.
                var splits: [Int] = []
                for _ in low..<high {
                    splits.append(program.count)
                    try append(.split(program.count + 1, -1))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                try append(.split(loop + 1, -1))
                try emit(inner)
                try append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}

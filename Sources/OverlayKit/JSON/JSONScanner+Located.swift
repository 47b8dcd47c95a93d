import OverlayModel

/// A JSON value read with where every part of it is, for validators that must point at the
/// exact line of a problem and see what the streaming reader normalizes away: duplicate
/// member names, member order, the literal text of numbers.
///
/// Nodes live in flat arrays (an arena), children as index ranges, so a feature with a million
/// positions is a few contiguous buffers rather than a million objects. Clear and reuse one
/// arena per feature to keep memory bounded by the largest feature.
///
/// Below a `coordinates` member, an array of positions (arrays of numbers only) is one node of
/// kind `positions`, a run: its numbers in `coordinates` as flat Doubles and each position's
/// place in `runPositions` (where it starts, its line and column), no node per number or per
/// position. Callers that need the general shape call `expandRuns`.
struct LocatedJSON {
    enum Kind: UInt8 {
        case object, array, string, number, bool, null
        /// An array of positions held as a run (`first` indexes `runPositions`, `count` is
        /// the number of positions). Its type name is "array".
        case positions
    }

    /// One position of a run.
    struct RunPosition {
        /// The index of its first number in `coordinates`.
        var start: Int32
        /// How many numbers it holds (1 or more).
        var count: Int32
        /// Line and column of its '['.
        var line: Int32
        var column: Int32
        /// The larger number of digits after the decimal point of its first two numbers (the
        /// only ones the excess-precision advice reads).
        var decimals: Int32
    }

    struct Node {
        var kind: Kind
        /// 1-based line and column of the value's first byte. Numbers inherit their container's
        /// line (nobody reports a single number on its own line), which keeps the hot loop lean.
        var line: Int32
        var column: Int32
        /// Objects and arrays: the first index into `children` (and `keys` for objects).
        var first: Int32 = 0
        /// Objects and arrays: the number of children. Numbers: digits after the decimal point.
        /// Bools: 1 for true.
        var count: Int32 = 0
        /// Numbers: the value. Strings: the index into `strings`.
        var number: Double = 0
    }

    var nodes: [Node] = []
    /// Child node indices of objects and arrays, each container's run contiguous.
    var children: [Int32] = []
    /// For object members, parallel to `children`: the index into `strings` of the key (−1 for
    /// array elements).
    var keys: [Int32] = []
    var strings: [String] = []
    /// Children of containers still open, before they are copied into `children`.
    private var pendingChildren: [Int32] = []
    private var pendingKeys: [Int32] = []
    /// The numbers of all runs, position after position.
    var coordinates: [Double] = []
    /// The positions of all runs, each run's contiguous.
    var runPositions: [RunPosition] = []

    mutating func removeAll() {
        nodes.removeAll(keepingCapacity: true)
        children.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        strings.removeAll(keepingCapacity: true)
        pendingChildren.removeAll(keepingCapacity: true)
        pendingKeys.removeAll(keepingCapacity: true)
        coordinates.removeAll(keepingCapacity: true)
        runPositions.removeAll(keepingCapacity: true)
    }

    /// The positions of a run, as a range of `runPositions`.
    @inline(__always)
    func run(_ index: Int) -> Range<Int> {
        let node = nodes[index]
        return Int(node.first)..<Int(node.first + node.count)
    }

    /// The `element`-th number of a run's position.
    @inline(__always)
    func coordinate(_ position: RunPosition, _ element: Int) -> Double {
        coordinates[Int(position.start) + element]
    }

    /// Turns every run at or below `index` into ordinary array and number nodes, exactly as if
    /// it had been read without runs (numbers take their position's line, the position's
    /// decimals go to its first two numbers), and returns the node that now stands for `index`.
    /// For the rare shapes the coordinate checks do not read from runs. Recursion is bounded
    /// by the reader's 512 levels.
    mutating func expandRuns(_ index: Int) -> Int {
        let node = nodes[index]
        switch node.kind {
        case .positions:
            var positionNodes: [Int32] = []
            positionNodes.reserveCapacity(Int(node.count))
            for slot in run(index) {
                let position = runPositions[slot]
                let first = Int32(children.count)
                for element in 0..<Int(position.count) {
                    let number = Node(kind: .number, line: position.line, column: position.column,
                                      count: element < 2 ? position.decimals : 0, number: coordinate(position, element))
                    children.append(add(number))
                    keys.append(-1)
                }
                positionNodes.append(add(Node(kind: .array, line: position.line, column: position.column,
                                              first: first, count: position.count)))
            }
            let first = Int32(children.count)
            children.append(contentsOf: positionNodes)
            keys.append(contentsOf: repeatElement(-1, count: positionNodes.count))
            return Int(add(Node(kind: .array, line: node.line, column: node.column, first: first, count: node.count)))
        case .array:
            for slot in Int(node.first)..<Int(node.first + node.count) {
                children[slot] = Int32(expandRuns(Int(children[slot])))
            }
            return index
        default:
            return index
        }
    }

    /// Whether a run lies at or below `index`.
    func containsRun(_ index: Int) -> Bool {
        let node = nodes[index]
        switch node.kind {
        case .positions: return true
        case .array: return (Int(node.first)..<Int(node.first + node.count)).contains { containsRun(Int(children[$0])) }
        default: return false
        }
    }

    subscript(index: Int) -> Node { nodes[index] }

    func kind(_ index: Int) -> Kind { nodes[index].kind }

    /// The children of an object or array, in document order.
    func elements(_ index: Int) -> [Int] {
        let node = nodes[index]
        guard node.kind == .object || node.kind == .array else { return [] }
        return (Int(node.first)..<Int(node.first + node.count)).map { Int(children[$0]) }
    }

    /// The number of children of an object or array (0 for other values). O(1).
    @inline(__always)
    func childCount(_ index: Int) -> Int {
        let node = nodes[index]
        return node.kind == .object || node.kind == .array ? Int(node.count) : 0
    }

    /// The `position`-th child of an object or array. O(1), no allocation.
    @inline(__always)
    func child(_ index: Int, _ position: Int) -> Int {
        Int(children[Int(nodes[index].first) + position])
    }

    var stringCount: Int { strings.count }

    /// The members of an object as (key, node), in document order, duplicates included.
    func members(_ index: Int) -> [(key: String, value: Int)] {
        let node = nodes[index]
        guard node.kind == .object else { return [] }
        return (Int(node.first)..<Int(node.first + node.count)).map { (strings[Int(keys[$0])], Int(children[$0])) }
    }

    /// The value of the last member named `key` (JSON parsers keep the last duplicate).
    func member(_ index: Int, _ key: String) -> Int? {
        let node = nodes[index]
        guard node.kind == .object else { return nil }
        var found: Int?
        for slot in Int(node.first)..<Int(node.first + node.count) where strings[Int(keys[slot])] == key {
            found = Int(children[slot])
        }
        return found
    }

    func string(_ index: Int) -> String? {
        nodes[index].kind == .string ? strings[Int(nodes[index].number)] : nil
    }

    func number(_ index: Int) -> Double? {
        nodes[index].kind == .number ? nodes[index].number : nil
    }

    /// A readable type name: object, array, string, number, boolean, null.
    func typeName(_ index: Int) -> String {
        switch nodes[index].kind {
        case .object: "object"
        case .array, .positions: "array"
        case .null: "null"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        }
    }

    /// Adds an object or array whose children were read separately (a streaming caller that
    /// reads members one at a time); returns its index.
    mutating func appendContainer(_ kind: Kind, line: Int, column: Int, members: [(key: String?, node: Int)]) -> Int {
        var node = Node(kind: kind, line: Int32(line), column: Int32(column))
        node.first = Int32(children.count)
        node.count = Int32(members.count)
        for member in members {
            children.append(Int32(member.node))
            if let key = member.key {
                strings.append(key)
                keys.append(Int32(strings.count - 1))
            } else {
                keys.append(-1)
            }
        }
        nodes.append(node)
        return nodes.count - 1
    }

    fileprivate mutating func add(_ node: Node) -> Int32 {
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    @inline(__always)
    fileprivate mutating func push(child: Int32, key: Int32) {
        pendingChildren.append(child)
        pendingKeys.append(key)
    }

    fileprivate var pendingCount: Int { pendingChildren.count }

    /// Turns children already placed from `first` on back into pending ones (an array that
    /// turned out to hold more than numbers).
    fileprivate mutating func movePending(from first: Int) {
        pendingChildren.append(contentsOf: children[first...])
        pendingKeys.append(contentsOf: keys[first...])
        children.removeSubrange(first...)
        keys.removeSubrange(first...)
    }

    /// Moves the pending children from `mark` on into the container `index`.
    fileprivate mutating func close(_ index: Int32, from mark: Int) {
        nodes[Int(index)].first = Int32(children.count)
        nodes[Int(index)].count = Int32(pendingChildren.count - mark)
        // Block copies: this runs once per array, and coordinates are mostly arrays.
        children.append(contentsOf: pendingChildren[mark...])
        keys.append(contentsOf: pendingKeys[mark...])
        pendingChildren.removeSubrange(mark...)
        pendingKeys.removeSubrange(mark...)
    }
}

extension JSONScanner {
    /// Reads one JSON value into `arena` with the line and column of every string, object and
    /// array, and returns its node index. Syntax errors throw a `Diagnostic` placed where the
    /// fix belongs: a missing ',' is reported right after the value it should follow.
    /// O(bytes); the reader's own hot path (`readValue`, `readCoordinates`) is not involved.
    ///
    /// With `runs` (set below every `coordinates` member), arrays of positions become runs
    /// (`LocatedJSON.Kind.positions`); anything else in them is read as without.
    func readLocatedValue(into arena: inout LocatedJSON, depth: Int = 0, runs: Bool = false) throws -> Int {
        guard depth < 512 else { throw error(.jsonTooDeep, "values nest more than 512 levels deep") }
        guard let byte = try peekSignificant() else {
            throw error(.jsonUnexpectedEnd, "input ended where a value was expected")
        }
        let (line, column) = lineColumn(at: absolutePosition)
        var node = LocatedJSON.Node(kind: .null, line: Int32(line), column: Int32(column))
        switch byte {
        case UInt8(ascii: "\""):
            node.kind = .string
            node.number = Double(arena.stringCount)
            arena.strings.append(try readString())
            return Int(arena.add(node))
        case UInt8(ascii: "{"):
            position += 1
            node.kind = .object
            let index = arena.add(node)
            let mark = arena.pendingCount
            if try peekSignificant() == UInt8(ascii: "}") {
                position += 1
            } else {
                repeat {
                    let key = try readKey()
                    arena.strings.append(key)
                    let keyIndex = Int32(arena.strings.count - 1)
                    path.append(.key(key))
                    let child = try readLocatedValue(into: &arena, depth: depth + 1, runs: readsPositionRuns && key == "coordinates")
                    path.removeLast()
                    arena.push(child: Int32(child), key: keyIndex)
                } while try commaOrCloseAfterValue(UInt8(ascii: "}"))
            }
            arena.close(index, from: mark)
            return Int(index)
        case UInt8(ascii: "["):
            position += 1
            node.kind = .array
            // Positions three levels below the deepest value allowed would fail on depth: read
            // those without a run so that error stays the reader's.
            if runs, depth < 509, let run = try readPositionRun(into: &arena, line: line, column: column) {
                return run
            }
            let index = arena.add(node)
            let mark = arena.pendingCount
            // While the array holds only numbers (positions, the bulk of GeoJSON), no container
            // can close inside it, so its children go straight to their final place.
            var direct = true
            let firstChild = arena.children.count
            if try peekSignificant() == UInt8(ascii: "]") {
                position += 1
            } else {
                repeat {
                    // No per-element path bookkeeping here (the hot loop for coordinates): a
                    // syntax error inside an array names the array's member.
                    let child: Int
                    if let next = try peekSignificant(), next == UInt8(ascii: "-") || (next >= 0x30 && next <= 0x39) {
                        child = Int(arena.add(try readLocatedNumber(line: line, column: column)))
                    } else {
                        if direct {
                            arena.movePending(from: firstChild)
                            direct = false
                        }
                        child = try readLocatedValue(into: &arena, depth: depth + 1, runs: runs)
                    }
                    if direct {
                        arena.children.append(Int32(child))
                        arena.keys.append(-1)
                    } else {
                        arena.push(child: Int32(child), key: -1)
                    }
                } while try commaOrCloseAfterValue(UInt8(ascii: "]"))
            }
            if direct {
                arena.nodes[Int(index)].first = Int32(firstChild)
                arena.nodes[Int(index)].count = Int32(arena.children.count - firstChild)
            } else {
                arena.close(index, from: mark)
            }
            return Int(index)
        case UInt8(ascii: "t"):
            try readLiteral("true")
            node.kind = .bool
            node.count = 1
            return Int(arena.add(node))
        case UInt8(ascii: "f"):
            try readLiteral("false")
            node.kind = .bool
            return Int(arena.add(node))
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return Int(arena.add(node))
        default:
            return Int(arena.add(try readLocatedNumber(line: line, column: column)))
        }
    }

    /// Reads the rest of an array (its '[' at `line`, `column`, the byte just consumed) as a run of
    /// positions, each '[' number (',' number)* ']', with the line and column of every
    /// position counted here as whitespace is skipped. Returns nil, with the position back after
    /// the '[' and the arena as it was, at the first thing that is not such a position or any
    /// byte the general reader should judge (syntax errors included), which then reads the
    /// array as usual. O(bytes of the array); the bytes from the '[' on stay in the window
    /// until it returns, so it can step back.
    ///
    /// The loop reads the window through a local cursor (`RunCursor`: no store to the scanner
    /// per byte) and gathers numbers and positions in `RunScratch`, moved to the arena a block
    /// at a time (no uniqueness check and no growth per append).
    private func readPositionRun(into arena: inout LocatedJSON, line: Int, column: Int) throws -> Int? {
        let start = absolutePosition
        let retained = retainFrom
        retainFrom = min(retained ?? start, start)
        defer { retainFrom = retained }
        let positionMark = arena.runPositions.count, coordinateMark = arena.coordinates.count
        let scratch = runScratch ?? RunScratch()
        runScratch = scratch
        let numbers = scratch.numbers, entries = scratch.positions
        var numberCount = 0, entryCount = 0
        // The '[' is at start − 1, in column `column`.
        var c = RunCursor(window: bytes, cursor: position, limit: end, origin: start - position,
                          line: line, lineStart: start - column)
        var accepted = false
        run: while true {
            guard try significant(&c) == UInt8(ascii: "["), arena.coordinates.count + numberCount < Int(Int32.max) - 1 << 20,
                  c.line < Int(Int32.max), c.origin + c.cursor - c.lineStart < Int(Int32.max) else { break run }
            var entry = LocatedJSON.RunPosition(start: Int32(arena.coordinates.count + numberCount), count: 0,
                                                line: Int32(c.line), column: Int32(c.origin + c.cursor - c.lineStart + 1),
                                                decimals: 0)
            // The common layout in one go: '[' ' '? number ',' ' '? number ' '? ']' on one line,
            // both numbers of the short-decimal form (`JSONNumberParser.parseShortDecimal`, which
            // is what `parsePrefix` returns for them, and always finite). 96 bytes cover its reads
            // (at most 2 + 22 + 2 + 22 + 2 bytes and the 32 each number may look at). Anything
            // else is read from the '[' again by the general loop below.
            if c.limit - c.cursor >= 96 {
                var p = c.window + c.cursor + 1
                if p.pointee == 0x20 { p += 1 }
                if let x = JSONNumberParser.parseShortDecimal(p), p[x.length] == UInt8(ascii: ",") {
                    var q = p + x.length + 1
                    if q.pointee == 0x20 { q += 1 }
                    if let y = JSONNumberParser.parseShortDecimal(q) {
                        var r = q + y.length
                        if r.pointee == 0x20 { r += 1 }
                        if r.pointee == UInt8(ascii: "]") {
                            if numberCount > RunScratch.capacity - 2 {
                                arena.coordinates.append(contentsOf: UnsafeBufferPointer(start: numbers, count: numberCount))
                                numberCount = 0
                            }
                            numbers[numberCount] = x.value
                            numbers[numberCount + 1] = y.value
                            numberCount += 2
                            entry.count = 2
                            entry.decimals = Int32(truncatingIfNeeded: max(x.fractionDigits, y.fractionDigits))
                            c.cursor = r + 1 - c.window
                            entries[entryCount] = entry
                            entryCount += 1
                            if entryCount == RunScratch.capacity {
                                arena.runPositions.append(contentsOf: UnsafeBufferPointer(start: entries, count: entryCount))
                                entryCount = 0
                            }
                            let next = try significant(&c)
                            if next == UInt8(ascii: ",") { c.cursor += 1; continue }
                            guard next == UInt8(ascii: "]") else { break run }
                            c.cursor += 1
                            accepted = true
                            break
                        }
                    }
                }
            }
            c.cursor += 1
            // Each number is followed by ',' or ']', so a position ends within its bytes.
            while true {
                guard let byte = try significant(&c), byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39) else {
                    break run
                }
                if c.limit - c.cursor < 64 {
                    position = c.cursor
                    try ensure(ahead: 64)
                    c.reload(self)
                }
                guard let found = JSONNumberParser.parsePrefix(c.window + c.cursor, end: c.window + c.limit),
                      found.value.isFinite, entry.count < Int32.max else {
                    break run
                }
                c.cursor += found.length
                // The block may be full (the one-step path fills it to the last slot): move it first.
                if numberCount == RunScratch.capacity {
                    arena.coordinates.append(contentsOf: UnsafeBufferPointer(start: numbers, count: numberCount))
                    numberCount = 0
                }
                numbers[numberCount] = found.value
                numberCount += 1
                if entry.count < 2 { entry.decimals = max(entry.decimals, Int32(truncatingIfNeeded: min(found.fractionDigits, 1 << 20))) }
                entry.count += 1
                let next = try significant(&c)
                if next == UInt8(ascii: ",") { c.cursor += 1; continue }
                guard next == UInt8(ascii: "]") else { break run }
                c.cursor += 1
                break
            }
            entries[entryCount] = entry
            entryCount += 1
            if entryCount == RunScratch.capacity {
                arena.runPositions.append(contentsOf: UnsafeBufferPointer(start: entries, count: entryCount))
                entryCount = 0
            }
            let next = try significant(&c)
            if next == UInt8(ascii: ",") { c.cursor += 1; continue }
            guard next == UInt8(ascii: "]") else { break run }
            c.cursor += 1
            accepted = true
            break
        }
        position = c.cursor
        arena.coordinates.append(contentsOf: UnsafeBufferPointer(start: numbers, count: numberCount))
        arena.runPositions.append(contentsOf: UnsafeBufferPointer(start: entries, count: entryCount))
        guard accepted, arena.runPositions.count - positionMark < Int(Int32.max) else {
            position -= absolutePosition - start
            arena.runPositions.removeSubrange(positionMark...)
            arena.coordinates.removeSubrange(coordinateMark...)
            return nil
        }
        return Int(arena.add(LocatedJSON.Node(kind: .positions, line: Int32(line), column: Int32(column),
                                              first: Int32(positionMark), count: Int32(arena.runPositions.count - positionMark))))
    }

    /// The next significant byte at `c`'s cursor, newlines counted into its line; nil at the end of
    /// the input. A refill moves the window, so `c` is reloaded from the scanner after one.
    @inline(__always)
    private func significant(_ c: inout RunCursor) throws -> UInt8? {
        while true {
            while c.cursor < c.limit {
                let byte = c.window[c.cursor]
                if byte > 0x20 { return byte }
                if byte == 0x20 {
                    c.cursor += 1
                } else if byte == 0x0D || byte == 0x09 {
                    c.cursor += 1
                } else if byte == 0x0A {
                    c.cursor += 1
                    c.line += 1
                    c.lineStart = c.origin + c.cursor
                } else {
                    return byte
                }
            }
            position = c.cursor
            guard try ensure() else { return nil }
            c.reload(self)
        }
    }

    /// A number node: the value plus how many digits follow the decimal point (for the
    /// excess-precision advice), located at the given line.
    @inline(__always)
    private func readLocatedNumber(line: Int, column: Int) throws -> LocatedJSON.Node {
        // The common case: scanned, parsed and its decimals counted in one pass. Anything
        // unusual (the window's end, a malformed or out-of-range number) takes the tokenizing
        // path below.
        if let found = JSONNumberParser.parsePrefix(bytes + position, end: bytes + end), found.value.isFinite {
            position += found.length
            return LocatedJSON.Node(kind: .number, line: Int32(line), column: Int32(column), count: Int32(found.fractionDigits),
                                    number: found.value)
        }
        let token = try numberToken()
        guard token.count > 0, let value = JSONNumberParser.parse(bytes + token.start, count: token.count) else {
            throw invalidNumber(token)
        }
        // The readers' verdict, so `validate` agrees with every other command on 1e400
        // (a property, a coordinate, a foreign member alike).
        guard value.isFinite else { throw numberOutOfRange(token) }
        var decimals = 0
        var index = token.start
        let stop = token.start + token.count
        while index < stop && bytes[index] != UInt8(ascii: ".") { index += 1 }
        if index < stop {
            index += 1
            while index < stop && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1; decimals += 1 }
        }
        return LocatedJSON.Node(kind: .number, line: Int32(line), column: Int32(column), count: Int32(decimals), number: value)
    }

    /// `commaOrClose`, but a syntax error names the end of the value just read, where the
    /// missing separator belongs, when that spot can still be located.
    @inline(__always)
    func commaOrCloseAfterValue(_ close: UInt8) throws -> Bool {
        let valueEnd = absolutePosition
        if let next = try peekSignificant() {
            if next == UInt8(ascii: ",") { position += 1; return true }
            if next == close { position += 1; return false }
        }
        // Locate the end of the value before the error locates the current position.
        let known = lineColumnIfKnown(at: valueEnd)
        do {
            return try commaOrClose(close)
        } catch var diagnostic as Diagnostic where diagnostic.code == .jsonSyntax {
            if let known {
                diagnostic.location?.line = known.line
                diagnostic.location?.column = known.column
                diagnostic.message += " after the value ending here"
            }
            throw diagnostic
        }
    }
}

/// Where `readPositionRun` reads: a copy of the scanner's window and position in locals (the
/// compiler keeps them in registers), with the line count of the run.
private struct RunCursor {
    var window: UnsafeMutablePointer<UInt8>
    var cursor: Int
    var limit: Int
    /// The absolute offset of `window[0]`.
    var origin: Int
    var line: Int
    /// The absolute offset where `line` starts.
    var lineStart: Int

    /// Takes the window and position again after the scanner refilled (its bytes may have moved).
    @inline(__always)
    mutating func reload(_ scanner: JSONScanner) {
        window = scanner.bytes
        cursor = scanner.position
        limit = scanner.end
        origin = scanner.absolutePosition - scanner.position
    }
}

/// A run's numbers and positions on their way to the arena: gathered here, moved a block of
/// `capacity` at a time. One per scanner, allocated at its first run.
final class RunScratch {
    /// Numbers (and positions) per block; a computed constant, so no lazy global per use.
    static var capacity: Int { 2048 }
    let numbers = UnsafeMutablePointer<Double>.allocate(capacity: RunScratch.capacity)
    let positions = UnsafeMutablePointer<LocatedJSON.RunPosition>.allocate(capacity: RunScratch.capacity)

    deinit {
        numbers.deallocate()
        positions.deallocate()
    }
}

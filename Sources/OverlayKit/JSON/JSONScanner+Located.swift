import OverlayModel

/// A JSON value read with where every part of it is, for validators that must point at the
/// exact line of a problem and see what the streaming reader normalizes away: duplicate
/// member names, member order, the literal text of numbers.
///
/// Nodes live in flat arrays (an arena), children as index ranges, so a feature with a million
/// positions is a few contiguous buffers rather than a million objects. Clear and reuse one
/// arena per feature to keep memory bounded by the largest feature.
struct LocatedJSON {
    enum Kind: UInt8 {
        case object, array, string, number, bool, null
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

    mutating func removeAll() {
        nodes.removeAll(keepingCapacity: true)
        children.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        strings.removeAll(keepingCapacity: true)
        pendingChildren.removeAll(keepingCapacity: true)
        pendingKeys.removeAll(keepingCapacity: true)
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
        case .array: "array"
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
    func readLocatedValue(into arena: inout LocatedJSON, depth: Int = 0) throws -> Int {
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
                    let child = try readLocatedValue(into: &arena, depth: depth + 1)
                    path.removeLast()
                    arena.push(child: Int32(child), key: keyIndex)
                } while try commaOrCloseAfterValue(UInt8(ascii: "}"))
            }
            arena.close(index, from: mark)
            return Int(index)
        case UInt8(ascii: "["):
            position += 1
            node.kind = .array
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
                        child = try readLocatedValue(into: &arena, depth: depth + 1)
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

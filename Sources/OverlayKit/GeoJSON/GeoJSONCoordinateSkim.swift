extension JSONScanner {
    /// What ``skimCoordinates(checking:)`` must make sure of in each run of positions (an array
    /// whose members are positions), so that a skimmed geometry never needs ``ShapeRepair``.
    enum SkimRunCheck {
        /// Nothing (Point, MultiPoint).
        case none
        /// No run of exactly one position (LineString, MultiLineString).
        case lines
        /// Every run a closed ring of four or more positions, its last position written byte
        /// for byte as its first (Polygon, MultiPolygon, or a type not yet known).
        case rings
    }

    /// Checks a `coordinates` value without building it: arrays nest regularly, every position
    /// holds two or three numbers in JSON's grammar, and each run of positions passes `check`.
    /// Returns the depth of the arrays that hold numbers (`CoordinateTree.leafDepth`; 0 when
    /// there are none), or nil when anything is unusual — then the caller is back at the start
    /// and reads it with `readCoordinates`, which says exactly what is wrong (or warns about
    /// what it drops or repairs). Numbers with an exponent or of more than 24 characters are
    /// unusual too: the full read decides whether they are in range (`json.number-out-of-range`).
    ///
    /// One pass, no allocation: for readers that pass geometry through unparsed.
    func skimCoordinates(checking check: SkimRunCheck = .rings) throws -> Int? {
        let start = absolutePosition
        let saved = retainFrom
        if saved == nil || saved! > start { retainFrom = start }
        defer { retainFrom = saved }
        if let depth = try skimCoordinateArrays(check) { return depth }
        seek(to: start)
        return nil
    }

    private func skimCoordinateArrays(_ check: SkimRunCheck) throws -> Int? {
        guard try peekSignificant() == UInt8(ascii: "[") else { return nil }
        var depth = 0, leafDepth = 0
        var numbers = 0             // numbers so far in the innermost open array
        var arrayChildren = false   // the innermost open array holds arrays
        var afterValue = false, afterComma = false
        // The run of positions being read: how many, and where its first and last positions are
        // (absolute offsets, kept in the window by `retainFrom`).
        var runCount = 0, openedAt = 0
        var runFirst = 0..<0, runLast = 0..<0
        while let byte = try peekSignificant() {
            switch byte {
            case UInt8(ascii: "["):
                guard !afterValue, numbers == 0, depth < 64, leafDepth == 0 || depth < leafDepth else { return nil }
                openedAt = absolutePosition
                position += 1
                depth += 1
                arrayChildren = false
                afterComma = false
            case UInt8(ascii: "]"):
                guard !afterComma else { return nil }
                if numbers > 0 {
                    guard numbers <= 3, numbers >= 2, leafDepth == 0 || leafDepth == depth else { return nil }
                    leafDepth = depth
                    let span = openedAt..<(absolutePosition + 1)
                    runCount += 1
                    if runCount == 1 { runFirst = span }
                    runLast = span
                } else if !arrayChildren, leafDepth != 0, depth == leafDepth {
                    return nil  // an empty position
                } else if !arrayChildren, depth >= 2, check == .rings {
                    return nil  // an empty ring (or an empty array where one might be)
                } else if arrayChildren, leafDepth != 0, depth == leafDepth - 1 {
                    // A run of positions ends.
                    switch check {
                    case .none: break
                    case .lines: guard runCount != 1 else { return nil }
                    case .rings:
                        guard runCount >= 4, runFirst.count == runLast.count,
                              windowBytes(from: runFirst.lowerBound, to: runFirst.upperBound)
                                .elementsEqual(windowBytes(from: runLast.lowerBound, to: runLast.upperBound)) else { return nil }
                    }
                    runCount = 0
                }
                position += 1
                depth -= 1
                if depth == 0 { return leafDepth }
                numbers = 0
                arrayChildren = true
                afterValue = true
            case UInt8(ascii: ","):
                guard afterValue else { return nil }
                position += 1
                afterValue = false
                afterComma = true
            default:
                guard !afterValue, !arrayChildren, leafDepth == 0 || leafDepth == depth else { return nil }
                // Rare forms (an exponent, more than 24 characters) go to the full read, which
                // checks the range: 1e400 is an error there. scanNumber refuses exponents itself.
                if end - position >= 64, let after = JSONScanner.scanNumber(bytes + position, end: bytes + end) {
                    guard after - (bytes + position) <= 24 else { return nil }
                    position = after - bytes
                } else {
                    let token = try numberToken()
                    guard token.count > 0, token.count <= 24, JSONScanner.isNumber(bytes + token.start, count: token.count) else { return nil }
                    var index = token.start
                    while index < token.start + token.count {
                        if bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
                        index += 1
                    }
                }
                numbers += 1
                afterValue = true
                afterComma = false
            }
        }
        return nil
    }

    /// Scans one number in JSON's grammar from `start`; returns where it ends, or nil when it
    /// is not one, has an exponent, reaches `end`, or runs on into more number characters
    /// (then the caller's slower path decides).
    @inline(__always)
    static func scanNumber(_ start: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>? {
        var p = start
        @inline(__always) func isDigit(_ q: UnsafeMutablePointer<UInt8>) -> Bool { q < end && q.pointee &- 0x30 < 10 }
        if p.pointee == UInt8(ascii: "-") { p += 1 }
        guard isDigit(p) else { return nil }
        if p.pointee == 0x30 { p += 1 } else { repeat { p += 1 } while isDigit(p) }
        if p < end && p.pointee == UInt8(ascii: ".") {
            p += 1
            guard isDigit(p) else { return nil }
            repeat { p += 1 } while isDigit(p)
        }
        // An exponent is left to the caller's slower path (and from there to the full read).
        if p < end && p.pointee | 0x20 == UInt8(ascii: "e") { return nil }
        guard p < end else { return nil }
        let next = p.pointee
        if next &- 0x30 < 10 || next == UInt8(ascii: ".") || next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        return p
    }
}

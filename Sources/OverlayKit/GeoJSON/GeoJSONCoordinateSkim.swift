extension JSONScanner {
    /// Checks a `coordinates` value without building it: arrays nest regularly, every position
    /// holds two or three numbers in JSON's grammar. Returns the depth of the arrays that hold
    /// numbers (`CoordinateTree.leafDepth`; 0 when there are none), or nil when anything is
    /// unusual — then the caller is back at the start and reads it with `readCoordinates`,
    /// which says exactly what is wrong (or warns about what it drops).
    ///
    /// One pass, no allocation: for readers that pass geometry through unparsed.
    func skimCoordinates() throws -> Int? {
        let start = absolutePosition
        let saved = retainFrom
        if saved == nil || saved! > start { retainFrom = start }
        defer { retainFrom = saved }
        if let depth = try skimCoordinateArrays() { return depth }
        seek(to: start)
        return nil
    }

    private func skimCoordinateArrays() throws -> Int? {
        guard try peekSignificant() == UInt8(ascii: "[") else { return nil }
        var depth = 0, leafDepth = 0
        var numbers = 0             // numbers so far in the innermost open array
        var arrayChildren = false   // the innermost open array holds arrays
        var afterValue = false, afterComma = false
        while let byte = try peekSignificant() {
            switch byte {
            case UInt8(ascii: "["):
                guard !afterValue, numbers == 0, depth < 64, leafDepth == 0 || depth < leafDepth else { return nil }
                position += 1
                depth += 1
                arrayChildren = false
                afterComma = false
            case UInt8(ascii: "]"):
                guard !afterComma else { return nil }
                if numbers > 0 {
                    guard numbers <= 3, numbers >= 2, leafDepth == 0 || leafDepth == depth else { return nil }
                    leafDepth = depth
                } else if !arrayChildren, leafDepth != 0, depth == leafDepth {
                    return nil  // an empty position
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
                if end - position >= 64, let after = JSONScanner.scanNumber(bytes + position, end: bytes + end) {
                    position = after - bytes
                } else {
                    let token = try numberToken()
                    guard token.count > 0, JSONScanner.isNumber(bytes + token.start, count: token.count) else { return nil }
                }
                numbers += 1
                afterValue = true
                afterComma = false
            }
        }
        return nil
    }

    /// Scans one number in JSON's grammar from `start`; returns where it ends, or nil when it
    /// is not one, reaches `end`, or runs on into more number characters (then the caller's
    /// slower path decides).
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
        if p < end && p.pointee | 0x20 == UInt8(ascii: "e") {
            p += 1
            if p < end && (p.pointee == UInt8(ascii: "+") || p.pointee == UInt8(ascii: "-")) { p += 1 }
            guard isDigit(p) else { return nil }
            repeat { p += 1 } while isDigit(p)
        }
        guard p < end else { return nil }
        let next = p.pointee
        if next &- 0x30 < 10 || next == UInt8(ascii: ".") || next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        return p
    }
}

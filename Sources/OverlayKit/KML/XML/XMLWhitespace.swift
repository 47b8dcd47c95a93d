import OverlayModel

/// XML's whitespace bytes (XML 1.0 §2.3 `S`: space, LF, CR, tab): what separates KML's
/// coordinate tuples and surrounds its values. Shared by the reader and the style parser.
enum XMLWhitespace {
    @inline(__always)
    static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

extension String {
    /// The text without leading and trailing whitespace.
    var kmlTrimmed: String {
        // Fast path: most values have no surrounding whitespace.
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        if !XMLWhitespace.contains(first) && !XMLWhitespace.contains(last) && first < 0x80 && last < 0x80 { return self }
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}

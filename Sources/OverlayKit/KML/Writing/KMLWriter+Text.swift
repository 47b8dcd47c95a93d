import OverlayModel

// Text: XML escaping, XML names and KML dates.
extension KMLWriter {
    /// XML text (or attribute value) with `&`, `<`, `>` (and `"`) escaped; characters XML 1.0
    /// cannot hold (controls other than tab, newline, return) become U+FFFD, with a warning.
    mutating func appendText(_ text: String, attribute: Bool = false) {
        if KMLWriter.appendEscaped(text, into: &scratch, attribute: attribute) {
            report("control-characters", "control characters cannot appear in XML 1.0; written as U+FFFD")
        }
    }

    /// Returns true when a character had to be replaced.
    @discardableResult
    static func appendEscaped(_ text: String, into out: inout JSONBytes, attribute: Bool = false) -> Bool {
        var replaced = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append("&amp;")
            case UInt8(ascii: "<"): out.append("&lt;")
            case UInt8(ascii: ">"): out.append("&gt;")
            case UInt8(ascii: "\"") where attribute: out.append("&quot;")
            case 0x09, 0x0A, 0x0D:
                if attribute { out.appendRaw("&#\(byte);") } else { out.append(byte) }
            case 0..<0x20:
                out.append("\u{FFFD}")
                replaced = true
            default: out.append(byte)
            }
        }
        return replaced
    }

    /// True for an XML NCName (what the schema's `id` attribute allows).
    static func isXMLName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || $0 == "." || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// True for the forms KML's dateTimeType allows: YYYY, YYYY-MM, YYYY-MM-DD, or an
    /// xsd:dateTime (YYYY-MM-DDThh:mm:ss with optional fraction and zone).
    static func isKMLDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        func at(_ index: Int, _ char: Character) -> Bool { index < bytes.count && bytes[index] == char.asciiValue! }
        guard digits(0..<4) else { return false }
        if bytes.count == 4 { return true }
        guard at(4, "-"), digits(5..<7) else { return false }
        if bytes.count == 7 { return true }
        guard at(7, "-"), digits(8..<10) else { return false }
        if bytes.count == 10 { return true }
        guard at(10, "T"), digits(11..<13), at(13, ":"), digits(14..<16), at(16, ":"), digits(17..<19) else { return false }
        var index = 19
        if at(index, ".") {
            index += 1
            let start = index
            while digits(index..<index + 1) { index += 1 }
            guard index > start else { return false }
        }
        if index == bytes.count { return true }
        if at(index, "Z") { return index + 1 == bytes.count }
        guard at(index, "+") || at(index, "-"), digits(index + 1..<index + 3), at(index + 3, ":"), digits(index + 4..<index + 6) else { return false }
        return index + 6 == bytes.count
    }
}

extension JSONValue {
    /// Compact JSON text of the value.
    var kmlJSONText: String {
        var bytes = JSONBytes(capacity: 64)
        bytes.appendValue(self)
        return String(decoding: bytes.bytes, as: UTF8.self)
    }
}

/// Text from a client made safe for a terminal and a log: control characters (C0, DEL, C1 and
/// the line and paragraph separators) written as `\xNN` or `\u{NNNN}`, and the length capped, so
/// a request can neither move the cursor, recolour the terminal nor forge a line of its own.
public enum LogText {
    /// `text` with control characters escaped and at most `limit` characters (then `…`).
    public static func escaped(_ text: Substring, limit: Int = 300) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                result += "…"
                break
            }
            count += 1
            switch scalar.value {
            case 0..<0x20, 0x7F:
                let digits = String(scalar.value, radix: 16)
                result += "\\x" + (digits.count < 2 ? "0" : "") + digits
            case 0x80..<0xA0, 0x2028, 0x2029:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            case 0x5C:
                result += "\\\\"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` escaped as the `Substring` form escapes it.
    public static func escaped(_ text: String, limit: Int = 300) -> String {
        escaped(text[...], limit: limit)
    }
}

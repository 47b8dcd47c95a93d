import OverlayModel

/// A JSON column's text parsed with the project's scanner (nil when it is not one JSON value).
enum ParquetJSONText {
    static func parse(_ text: String) -> JSONValue? {
        let scanner = JSONScanner(input: ByteInput(string: text))
        guard let value = try? scanner.readValue(), (try? scanner.peekSignificant()) == nil else { return nil }
        return value
    }
}

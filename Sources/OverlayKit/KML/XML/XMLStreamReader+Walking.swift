import OverlayModel

// MARK: Walking elements (no C here: built on read())

extension XMLStreamReader {
    /// Calls `body` for each child element of the current element, positioned on the child's
    /// start tag; `body` must leave the reader at the child's end (use `readText`,
    /// `skipElement`, or `forEachChild` again). Text between children is ignored.
    func forEachChild(_ body: (String) throws -> Void) throws {
        guard kind == .element, !isEmptyElement else { return }
        let parentDepth = depth
        while try read() {
            if kind == .endElement && depth == parentDepth { return }
            if kind == .element && depth == parentDepth + 1 { try body(localName) }
        }
        throw Diagnostic(.error, code: .kmlXmlSyntax, message: "document ended inside an element",
                         location: location(line: line))
    }

    /// Skips the current element and everything in it; leaves the reader on its end tag.
    func skipElement() throws {
        guard kind == .element, !isEmptyElement else { return }
        let startDepth = depth
        while try read() {
            if kind == .endElement && depth == startDepth { return }
        }
    }

    /// The text inside the current element (all descendant text and CDATA), leaving the
    /// reader on its end tag. When the element holds CDATA, whitespace-only text around it is
    /// layout, not content, and is left out (`<description>\n  <![CDATA[…]]>\n</description>`).
    func readText() throws -> String {
        guard kind == .element, !isEmptyElement else { return "" }
        let startDepth = depth
        guard try read() else { return "" }
        if kind == .endElement && depth == startDepth { return "" }
        // Usually one text node then the end tag: no array for that case.
        var first: (text: String, cdata: Bool)?
        var pieces: [(text: String, cdata: Bool)] = []
        repeat {
            if kind == .endElement && depth == startDepth { break }
            if kind == .text {
                let cdata = isCDATA
                withValueBytes { bytes in
                    let decoded = String(decoding: bytes, as: UTF8.self)
                    let piece = (cdata ? Self.normalizedLineEnds(decoded) : decoded, cdata)
                    if first == nil && pieces.isEmpty { first = piece } else {
                        if let pending = first { pieces.append(pending); first = nil }
                        pieces.append(piece)
                    }
                }
            }
        } while try read()
        if let first { return first.text }
        if pieces.isEmpty { return "" }
        let hasCDATA = pieces.contains { $0.cdata }
        return pieces.filter { !hasCDATA || $0.cdata || !$0.text.allSatisfy(\.isWhitespace) }.map(\.text).joined()
    }

    /// `readText()`'s text appended to `buffer` as UTF-8 bytes, with no String made on the
    /// way (SimpleData values are read this way: one String per value, made by the caller
    /// once it knows the value's type). Same rules: CDATA line ends normalized, and when the
    /// element holds CDATA, its whitespace-only text pieces left out. Leaves the reader on
    /// the element's end tag.
    func readText(into buffer: inout [UInt8]) throws {
        guard kind == .element, !isEmptyElement else { return }
        let startDepth = depth
        let base = buffer.count
        var sawCDATA = false
        // Each piece's range in `buffer`, kept only once a second piece comes (rare).
        var pieces: [(start: Int, end: Int, cdata: Bool)] = []
        var firstPiece: (start: Int, end: Int, cdata: Bool)?
        while try read() {
            if kind == .endElement && depth == startDepth { break }
            guard kind == .text else { continue }
            let start = buffer.count
            let cdata = isCDATA
            withValueBytes { buffer.append(contentsOf: $0) }
            if cdata {
                sawCDATA = true
                Self.normalizeLineEnds(&buffer, from: start)
            }
            let piece = (start: start, end: buffer.count, cdata: cdata)
            if firstPiece == nil && pieces.isEmpty { firstPiece = piece } else {
                if let pending = firstPiece { pieces.append(pending); firstPiece = nil }
                pieces.append(piece)
            }
        }
        guard sawCDATA, pieces.count > 1 else { return }
        // Whitespace as `readText` judges it (Character.isWhitespace, on the decoded piece).
        var write = base
        for piece in pieces {
            if !piece.cdata && String(decoding: buffer[piece.start..<piece.end], as: UTF8.self).allSatisfy(\.isWhitespace) { continue }
            for index in piece.start..<piece.end {
                buffer[write] = buffer[index]
                write += 1
            }
        }
        buffer.removeSubrange(write...)
    }

    /// `normalizedLineEnds` in place on `buffer[from...]`.
    private static func normalizeLineEnds(_ buffer: inout [UInt8], from start: Int) {
        guard buffer[start...].contains(0x0D) else { return }
        var write = start
        var previousWasCR = false
        for index in start..<buffer.count {
            let byte = buffer[index]
            if byte == 0x0A && previousWasCR { previousWasCR = false; continue }
            previousWasCR = byte == 0x0D
            buffer[write] = previousWasCR ? 0x0A : byte
            write += 1
        }
        buffer.removeSubrange(write...)
    }

    /// The content of the current element as the XML the user wrote when it holds elements
    /// (`Some<br/>HTML` in a `description` not in CDATA, as GDAL keeps it), else its text as
    /// `readText` gives it; leaves the reader on its end tag. Text is re-escaped (`&amp;`,
    /// `&lt;`, `&gt;`), CDATA inside markup is written as text; nesting is bounded by the parser.
    func readInnerXML() throws -> String {
        guard kind == .element, !isEmptyElement else { return "" }
        let startDepth = depth
        var xml = ""
        var sawElement = false
        var plain: [(text: String, cdata: Bool)] = []
        while try read() {
            if kind == .endElement && depth == startDepth { break }
            switch kind {
            case .element:
                sawElement = true
                xml += "<" + qualifiedName + attributesAsXML() + (isEmptyElement ? "/>" : ">")
            case .endElement:
                xml += "</" + qualifiedName + ">"
            case .text:
                let cdata = isCDATA
                withValueBytes { bytes in
                    let text = String(decoding: bytes, as: UTF8.self)
                    let normalized = cdata ? Self.normalizedLineEnds(text) : text
                    plain.append((normalized, cdata))
                    xml += Self.escaped(normalized, attribute: false)
                }
            default:
                break
            }
        }
        if sawElement { return xml }
        guard plain.count > 1 else { return plain.first?.text ?? "" }
        let hasCDATA = plain.contains { $0.cdata }
        return plain.filter { !hasCDATA || $0.cdata || !$0.text.allSatisfy(\.isWhitespace) }.map(\.text).joined()
    }

    static func escaped(_ text: String, attribute: Bool) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || (attribute && $0 == "\"") }) else { return text }
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// CR LF and lone CR as LF (XML 1.0 §2.11): libxml2's push parser leaves them in CDATA.
    static func normalizedLineEnds(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == 0x0A && previousWasCR { previousWasCR = false; continue }
            previousWasCR = byte == 0x0D
            bytes.append(previousWasCR ? 0x0A : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text inside the current element to `buffer` as bytes (for the coordinates
    /// tokenizer), leaving the reader on its end tag.
    func readTextBytes(into buffer: inout [UInt8]) throws {
        guard kind == .element, !isEmptyElement else { return }
        let startDepth = depth
        while try read() {
            if kind == .endElement && depth == startDepth { return }
            if kind == .text {
                withValueBytes { buffer.append(contentsOf: $0) }
            }
        }
    }
}

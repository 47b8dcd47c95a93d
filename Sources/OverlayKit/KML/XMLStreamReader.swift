#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibXML2
import OverlayModel

/// The one file that talks to libxml2: thin wrappers over its streaming `xmlTextReader`, so
/// no C type leaves this file.
///
/// Bytes are pulled from a `ByteInput` through `xmlReaderForIO`; the reader keeps only the
/// current node and its ancestors, so memory is bounded by the largest text node, not the
/// file. Security: `XML_PARSE_NONET` (never touch the network), no `XML_PARSE_NOENT` (entities
/// are not substituted), no `XML_PARSE_DTDLOAD` (no external DTD), and libxml2's own limits on
/// entity amplification stay on (no `XML_PARSE_HUGE`). Any entity reference left in content is
/// an error here: KML needs none, and an unexpanded one would silently lose text.
final class XMLStreamReader {
    /// The kinds of node the KML reader cares about.
    enum NodeKind {
        case element, endElement, text, entityReference, other
    }

    private var reader: OpaquePointer?
    private let source: Source
    private var sourceBox: Unmanaged<Source>
    /// The file name for diagnostics.
    let fileName: String?
    /// Local names by libxml2's interned pointer: names come from the parser's dictionary, so
    /// the same name is the same pointer and converting it to a String happens once.
    private var nameCache: [UnsafeRawPointer: String] = [:]
    private var namespaceCache: [UnsafeRawPointer: String] = [:]

    /// The current node, after `read()` returned true.
    private(set) var kind = NodeKind.other
    private(set) var localName = ""
    private(set) var depth = 0
    private(set) var isEmptyElement = false
    /// True when the current text node is a CDATA section.
    private(set) var isCDATA = false

    /// Opens a reader over the input.
    init(input: ByteInput, name: String? = nil) throws {
        fileName = name ?? input.name
        source = Source(input: input, name: name ?? input.name)
        sourceBox = Unmanaged.passRetained(source)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue
                            | XML_PARSE_COMPACT.rawValue)
        reader = xmlReaderForIO(xmlStreamRead, nil, sourceBox.toOpaque(), fileName ?? "stdin", nil, options)
        guard reader != nil else {
            sourceBox.release()
            throw Diagnostic(.error, code: "kml.reader-failed", message: "xmlReaderForIO could not start a reader",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        xmlTextReaderSetStructuredErrorHandler(reader, xmlStreamError, sourceBox.toOpaque())
    }

    deinit {
        if let reader { xmlFreeTextReader(reader) }
        sourceBox.release()
    }

    /// Moves to the next node. Returns false at the end of the document.
    /// - Throws: `Diagnostic` `kml.xml-syntax` (with line and column) for malformed XML, a
    ///   rejected entity, or a read error of the input.
    func read() throws -> Bool {
        let status = xmlTextReaderRead(reader)
        if let failure = source.failure { throw failure }
        if let error = source.firstError { throw error }
        guard status == 1 else {
            if status < 0 {
                throw Diagnostic(.error, code: "kml.xml-syntax", message: "the XML parser stopped (xmlTextReaderRead failed)",
                                 location: location(line: xmlTextReaderGetParserLineNumber(reader).asInt,
                                                    column: xmlTextReaderGetParserColumnNumber(reader).asInt))
            }
            return false
        }
        loadNode()
        if kind == .entityReference {
            throw Diagnostic(.error, code: "kml.entity-reference",
                             message: "entity reference &\(localName); is refused: entities are never expanded or fetched (KML needs none)",
                             location: location(line: line, needle: "&\(localName);"))
        }
        return true
    }

    /// Skips the current element's subtree (`xmlTextReaderNext`) and reads the node after it.
    func skipSubtree() throws -> Bool {
        let status = xmlTextReaderNext(reader)
        if let failure = source.failure { throw failure }
        if let error = source.firstError { throw error }
        guard status == 1 else {
            if status < 0 {
                throw Diagnostic(.error, code: "kml.xml-syntax", message: "the XML parser stopped (xmlTextReaderNext failed)",
                                 location: location(line: xmlTextReaderGetParserLineNumber(reader).asInt, column: 1))
            }
            return false
        }
        loadNode()
        return true
    }

    private func loadNode() {
        depth = Int(xmlTextReaderDepth(reader))
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            kind = .element
            isEmptyElement = xmlTextReaderIsEmptyElement(reader) == 1
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            kind = .endElement
            isEmptyElement = false
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue),
             Int32(XML_READER_TYPE_WHITESPACE.rawValue):
            kind = .text
            isEmptyElement = false
            isCDATA = false
        case Int32(XML_READER_TYPE_CDATA.rawValue):
            kind = .text
            isEmptyElement = false
            isCDATA = true
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
            kind = .entityReference
            isEmptyElement = false
        default:
            kind = .other
            isEmptyElement = false
        }
        if kind == .element || kind == .endElement || kind == .entityReference {
            localName = cachedName(xmlTextReaderConstLocalName(reader), in: &nameCache) ?? ""
        } else {
            localName = ""
        }
    }

    private func cachedName(_ pointer: UnsafePointer<xmlChar>?, in cache: inout [UnsafeRawPointer: String]) -> String? {
        guard let pointer else { return nil }
        let key = UnsafeRawPointer(pointer)
        if let name = cache[key] { return name }
        let name = String(cString: pointer)
        cache[key] = name
        return name
    }

    /// The current node's namespace URI, if any.
    var namespaceURI: String? {
        cachedName(xmlTextReaderConstNamespaceUri(reader), in: &namespaceCache)
    }

    /// The qualified name as written (`gx:Track`).
    var qualifiedName: String {
        guard let name = xmlTextReaderConstName(reader) else { return localName }
        return String(cString: name)
    }

    /// An attribute of the current element by its (unprefixed) name.
    func attribute(_ name: String) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { free(value) }  // xmlFree is free unless an allocator was installed; none is
        return String(cString: value)
    }

    /// Calls `body` with the current text node's UTF-8 bytes (valid only during the call).
    func withValueBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let value = xmlTextReaderConstValue(reader) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: value, count: strlen(value)))
    }

    /// The line of the current node (for an element: the line its start tag ends on), 1-based.
    var line: Int {
        guard let node = xmlTextReaderCurrentNode(reader) else { return xmlTextReaderGetParserLineNumber(reader).asInt }
        let line = Int(xmlGetLineNo(node))
        return line > 0 ? line : xmlTextReaderGetParserLineNumber(reader).asInt
    }

    /// A location for diagnostics at `line`; the column is where `needle` first appears on that
    /// line in the recent input (1 when the line has left the window or the needle is absent).
    func location(line: Int, needle: String? = nil, after anchor: String? = nil, offset: Int = 0,
                  kmlPath: String? = nil) -> SourceLocation {
        var column = 1
        if let needle, let found = source.column(onLine: line, of: Array(needle.utf8), after: anchor.map { Array($0.utf8) }) {
            column = found + offset
        }
        return SourceLocation(file: fileName, line: line, column: column, kmlPath: kmlPath)
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: fileName, line: max(line, 1), column: max(column, 1))
    }

    /// Warnings libxml2 reported (e.g. namespace problems), since the last call.
    func takeParserWarnings() -> [Diagnostic] {
        defer { source.warnings.removeAll() }
        return source.warnings
    }
}

/// The input side shared with the C callbacks: pulls bytes from `ByteInput`, keeps a window of
/// recent bytes with its line starts (to find columns for diagnostics), and records the
/// parser's first error.
private final class Source {
    let input: ByteInput
    var failure: Diagnostic?
    var firstError: Diagnostic?
    var warnings: [Diagnostic] = []

    let name: String?

    init(input: ByteInput, name: String?) {
        self.input = input
        self.name = name
    }

    /// The most recent input, as the chunks libxml2 was handed (newest last), `windowStart`
    /// being the absolute offset of the first byte of `chunks[0]`. Whole chunks are dropped
    /// once the rest still covers `windowSize` bytes, so each byte is copied once.
    private var chunks: [[UInt8]] = []
    private var windowStart = 0
    private var windowCount = 0
    /// Absolute offsets of the newlines inside the window.
    private var newlines: [Int] = []
    private var newlinesHead = 0
    private var newlinesBeforeWindow = 0
    private static let windowSize = 4 << 20

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        do {
            let count = try input.read(into: buffer)
            remember(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            return count
        } catch let diagnostic as Diagnostic {
            failure = diagnostic
            return -1
        } catch {
            failure = Diagnostic(.error, code: "io.read-failed", message: "cannot read \(input.name ?? "standard input"): \(error)")
            return -1
        }
    }

    private func remember(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        let base = windowStart + windowCount
        chunks.append(Array(bytes))
        windowCount += bytes.count
        // memchr finds newlines at memory speed.
        var index = 0
        while index < bytes.count, let hit = memchr(bytes.baseAddress! + index, 0x0A, bytes.count - index) {
            let position = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
            newlines.append(base + position)
            index = position + 1
        }
        while let first = chunks.first, windowCount - first.count >= Source.windowSize {
            chunks.removeFirst()
            windowCount -= first.count
            windowStart += first.count
            while newlinesHead < newlines.count && newlines[newlinesHead] < windowStart {
                newlinesHead += 1
                newlinesBeforeWindow += 1
            }
        }
        if newlinesHead > 4096 && newlinesHead * 2 > newlines.count {
            newlines.removeFirst(newlinesHead)
            newlinesHead = 0
        }
    }

    /// The 1-based byte column of the first `needle` on `line` (after `anchor`, when given).
    /// Diagnostics only: a byte-by-byte search of one line.
    func column(onLine line: Int, of needle: [UInt8], after anchor: [UInt8]?) -> Int? {
        let index = newlinesHead + line - 2 - newlinesBeforeWindow  // the newline ending line-1
        let lineStart: Int
        if line == 1 && windowStart == 0 {
            lineStart = 0
        } else if index >= newlinesHead && index < newlines.count {
            lineStart = newlines[index] + 1
        } else {
            return nil
        }
        let lineEnd = index + 1 < newlines.count ? newlines[index + 1] : windowStart + windowCount
        var from = lineStart
        if let anchor {
            guard let found = find(anchor, from: from, to: lineEnd) else { return nil }
            from = found + anchor.count
        }
        guard let found = find(needle, from: from, to: lineEnd) else { return nil }
        return found - lineStart + 1
    }

    /// The absolute offset of the first `needle` in [from, to), walking the chunks once.
    private func find(_ needle: [UInt8], from: Int, to: Int) -> Int? {
        guard !needle.isEmpty, from >= windowStart, to <= windowStart + windowCount, to - from >= needle.count else { return nil }
        // Copy just the searched range out of the chunks (one line: small).
        var range: [UInt8] = []
        range.reserveCapacity(to - from)
        // The line is recent: find its first chunk walking back from the newest (the window
        // holds about a thousand chunks; features ask for their column one by one).
        var chunk = chunks.count - 1
        var chunkStart = windowStart + windowCount - chunks[chunk].count
        while chunkStart > from && chunk > 0 {
            chunk -= 1
            chunkStart -= chunks[chunk].count
        }
        while chunk < chunks.count {
            let chunkEnd = chunkStart + chunks[chunk].count
            if chunkEnd > from && chunkStart < to {
                range.append(contentsOf: chunks[chunk][max(from, chunkStart) - chunkStart..<min(to, chunkEnd) - chunkStart])
            }
            if chunkEnd >= to { break }
            chunkStart = chunkEnd
            chunk += 1
        }
        var index = 0
        while index + needle.count <= range.count {
            if range[index] == needle[0] && range[index..<index + needle.count].elementsEqual(needle) { return from + index }
            index += 1
        }
        return nil
    }

    func record(level: Int, message: String, line: Int, column: Int) {
        let text = message.trimmingTrailingWhitespace
        let location = SourceLocation(file: name, line: max(line, 1), column: max(column, 1))
        if level >= Int(XML_ERR_ERROR.rawValue) {
            guard firstError == nil else { return }
            var explained = text
            if text.contains("entity reference loop") || text.contains("amplification") || text.contains("Maximum entity") {
                explained += " (entity expansion is refused: the file looks like a billion-laughs attack)"
            }
            firstError = Diagnostic(.error, code: "kml.xml-syntax", message: explained, location: location)
        } else if warnings.count < 1000 {
            warnings.append(Diagnostic(.warning, code: "kml.xml-warning", message: text, location: location))
        }
    }
}

private extension String {
    var trimmingTrailingWhitespace: String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}

private extension Int32 {
    var asInt: Int { Int(self) }
}

/// libxml2's read callback: fills `buffer` from the `ByteInput`, -1 on error.
private func xmlStreamRead(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?,
                           _ length: Int32) -> Int32 {
    guard let context, let buffer, length > 0 else { return 0 }
    let source = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
    return Int32(source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
}

/// libxml2's structured error callback: keeps the first error and the warnings.
private func xmlStreamError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    let source = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
    let message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
    source.record(level: Int(error.pointee.level.rawValue), message: message,
                  line: Int(error.pointee.line), column: Int(error.pointee.int2))
}

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
        throw Diagnostic(.error, code: "kml.xml-syntax", message: "document ended inside an element",
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
                    let piece = (String(decoding: bytes, as: UTF8.self), cdata)
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

// MARK: XML Schema validation (for `overlaykit validate --schema`)

extension XMLStreamReader {
    /// Validates a document against an XML Schema (XSD) with libxml2's schema validator
    /// (`xmlSchemaParse`, `xmlSchemaValidateFile` / `xmlSchemaValidateDoc`) and returns every
    /// violation with its line (and column when libxml2 gives one), up to `limit`.
    ///
    /// The document is streamed from `path` when given, else parsed from `bytes`. Neither the
    /// schema nor the document may reach the network (`XML_PARSE_NONET` and the no-network
    /// entity loader); imports must be local files, as in the offline OGC KML 2.2 set.
    /// - Throws: `Diagnostic` `kml.schema-unreadable` when the XSD cannot be loaded.
    static func schemaViolations(path: String?, bytes: [UInt8]?, displayName: String?, schemaPath: String,
                                 limit: Int = 1000) throws -> [Diagnostic] {
        xmlSetExternalEntityLoader(xmlNoNetExternalEntityLoader)
        let collector = SchemaErrorCollector(file: displayName, limit: limit)
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        guard let parserContext = xmlSchemaNewParserCtxt(schemaPath) else {
            throw Diagnostic(.error, code: "kml.schema-unreadable", message: "xmlSchemaNewParserCtxt failed for \(schemaPath)")
        }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        let schemaCollector = SchemaErrorCollector(file: schemaPath, limit: 20)
        let schemaBox = Unmanaged.passRetained(schemaCollector)
        defer { schemaBox.release() }
        xmlSchemaSetParserStructuredErrors(parserContext, xmlSchemaCollect, schemaBox.toOpaque())
        guard let schema = xmlSchemaParse(parserContext) else {
            let reason = schemaCollector.findings.first.map { ": \($0.location.map { "line \($0.line): " } ?? "")\($0.message)" } ?? ""
            throw Diagnostic(.error, code: "kml.schema-unreadable", message: "cannot load the XML Schema \(schemaPath)\(reason)")
        }
        defer { xmlSchemaFree(schema) }
        guard let validContext = xmlSchemaNewValidCtxt(schema) else {
            throw Diagnostic(.error, code: "kml.schema-unreadable", message: "xmlSchemaNewValidCtxt failed for \(schemaPath)")
        }
        defer { xmlSchemaFreeValidCtxt(validContext) }
        xmlSchemaSetValidStructuredErrors(validContext, xmlSchemaCollect, box.toOpaque())
        if let path {
            _ = xmlSchemaValidateFile(validContext, path, Int32(XML_PARSE_NONET.rawValue))
        } else if let bytes {
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
            let document = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(buffer.count), displayName ?? "stdin", nil, options)
                }
            }
            guard let document else { return collector.findings }
            defer { xmlFreeDoc(document) }
            _ = xmlSchemaValidateDoc(validContext, document)
        }
        return collector.findings
    }
}

/// Collects libxml2's schema errors as findings (C callback context).
private final class SchemaErrorCollector {
    let file: String?
    let limit: Int
    var findings: [Diagnostic] = []
    var dropped = 0

    init(file: String?, limit: Int) {
        self.file = file
        self.limit = limit
    }
}

private func xmlSchemaCollect(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    let collector = Unmanaged<SchemaErrorCollector>.fromOpaque(context).takeUnretainedValue()
    guard collector.findings.count < collector.limit else {
        collector.dropped += 1
        return
    }
    var message = error.pointee.message.map { String(cString: $0) } ?? "schema error \(error.pointee.code)"
    while let last = message.last, last.isWhitespace { message.removeLast() }
    let severity: Diagnostic.Severity = error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue ? .error : .warning
    collector.findings.append(Diagnostic(severity, code: "kml.schema", message: message,
                                         location: SourceLocation(file: collector.file, line: max(1, Int(error.pointee.line)),
                                                                  column: max(1, Int(error.pointee.int2)))))
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CLibXML2
import OverlayModel

/// The one file that talks to libxml2: a streaming pull reader built on libxml2's SAX2 push
/// parser, so no C type leaves this file.
///
/// Bytes are read from a `ByteInput` a chunk at a time and pushed into the parser
/// (`xmlParseChunk`); its SAX2 callbacks queue the chunk's events (elements, text runs, …),
/// which `read()` then hands out one by one. Memory is bounded by one chunk's events plus the
/// largest text node, not the file. Security: `XML_PARSE_NONET` (never touch the network), no
/// `XML_PARSE_NOENT` (entities are not substituted), no `XML_PARSE_DTDLOAD` (no external DTD),
/// and libxml2's own limits on entity amplification stay on (no `XML_PARSE_HUGE`). Any entity
/// reference left in content is an error here: KML needs none, and an unexpanded one would
/// silently lose text.
///
/// The nodes are the ones libxml2's `xmlTextReader` would give for the same bytes: adjacent
/// character data is one text node (a CDATA section its own), `<a/>` is one element with
/// `isEmptyElement` and no end tag, an element's line is the line its start tag ends on.
///
/// The per-node state here and in `Source` is `@exclusivity(unchecked)`: it is touched for
/// every node and every SAX callback, and nothing ever holds an access to it across a call
/// that could touch it again (the callbacks run inside `feed()`, between nodes), so the
/// runtime's dynamic exclusivity checks only cost time (~10% of a KML conversion).
final class XMLStreamReader {
    /// The deepest element nesting read (documents deeper than this are refused).
    static let maximumDepth = 1_000

    /// The kinds of node the KML reader cares about.
    enum NodeKind {
        case element, endElement, text, entityReference, other
        /// `%name;` in the DTD (only seen, and refused, by `read()`).
        case parameterEntityReference
    }

    private let source: Source
    private var sourceBox: Unmanaged<Source>
    private let parser: xmlParserCtxtPtr
    /// The file name for diagnostics.
    let fileName: String?
    /// Local names by libxml2's interned pointer: names come from the parser's dictionary, so
    /// the same name is the same pointer and converting it to a String happens once.
    @exclusivity(unchecked) private var nameCache: [UnsafeRawPointer: String] = [:]
    @exclusivity(unchecked) private var namespaceCache: [UnsafeRawPointer: String] = [:]
    @exclusivity(unchecked) private var qualifiedCache: [QualifiedKey: String] = [:]
    /// The input chunk handed to the parser.
    @exclusivity(unchecked) private var chunk: [UInt8]
    private static let chunkSize = 64 << 10
    /// The index of the next event to hand out in `source.events`.
    @exclusivity(unchecked) private var cursor = 0
    /// Element nesting of the nodes handed out so far.
    @exclusivity(unchecked) private var level = 0
    @exclusivity(unchecked) private var parserDone = false

    /// The current node, after `read()` returned true.
    @exclusivity(unchecked) private(set) var kind = NodeKind.other
    @exclusivity(unchecked) private(set) var localName = ""
    @exclusivity(unchecked) private(set) var depth = 0
    @exclusivity(unchecked) private(set) var isEmptyElement = false
    /// True when the current text node is a CDATA section.
    @exclusivity(unchecked) private(set) var isCDATA = false
    @exclusivity(unchecked) private var current = SAXEvent(kind: .other, isEmpty: false, isCDATA: false, line: 1, name: nil, prefix: nil, uri: nil,
                                   start: 0, count: 0)

    /// Opens a reader over the input.
    init(input: ByteInput, name: String? = nil) throws {
        let fileName = name ?? input.name
        self.fileName = fileName
        let source = Source(input: input, name: fileName)
        self.source = source
        sourceBox = Unmanaged.passRetained(source)
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        // The first bytes let libxml2 detect the encoding; the rest of the chunk follows.
        let first = chunk.withUnsafeMutableBytes { source.read(into: $0) }
        let head = max(0, min(first, 4))
        let created = chunk.withUnsafeBytes { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: head) {
                xmlCreatePushParserCtxt(nil, nil, head > 0 ? $0 : nil, Int32(head), fileName ?? "stdin")
            }
        }
        self.chunk = chunk
        guard let created else {
            sourceBox.release()
            throw Diagnostic(.error, code: "kml.reader-failed", message: "xmlCreatePushParserCtxt could not start a parser",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        parser = created
        source.parser = created
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_COMPACT.rawValue)
        xmlCtxtUseOptions(parser, options)
        parser.pointee._private = sourceBox.toOpaque()
        let sax = parser.pointee.sax!
        // Only the document callbacks are ours; the DTD ones stay libxml2's (entity
        // declarations must be known for entity references to be recognized and refused).
        sax.pointee.startElement = nil
        sax.pointee.endElement = nil
        sax.pointee.startElementNs = saxStartElement
        sax.pointee.endElementNs = saxEndElement
        sax.pointee.characters = saxCharacters
        sax.pointee.ignorableWhitespace = saxCharacters
        sax.pointee.cdataBlock = saxCDATA
        sax.pointee.reference = saxReference
        sax.pointee.getParameterEntity = saxGetParameterEntity
        sax.pointee.comment = saxComment
        sax.pointee.processingInstruction = saxProcessingInstruction
        sax.pointee.serror = xmlStreamError
        if first < 0 {
            parserDone = true
        } else if first > head {
            push(from: head, count: first - head, terminate: false)
        } else if first == 0 {
            push(from: 0, count: 0, terminate: true)
        }
    }

    deinit {
        if let document = parser.pointee.myDoc {
            xmlFreeDoc(document)
            parser.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(parser)
        sourceBox.release()
    }

    /// Pushes `count` bytes of `chunk` from `offset` into the parser.
    private func push(from offset: Int, count: Int, terminate: Bool) {
        let status = chunk.withUnsafeBytes { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                xmlParseChunk(parser, count > 0 ? $0 + offset : nil, Int32(count), terminate ? 1 : 0)
            }
        }
        if status != 0 && source.firstError == nil {
            source.firstError = Diagnostic(.error, code: "kml.xml-syntax", message: "the XML parser stopped (xmlParseChunk failed)",
                                           location: location(line: Int(parser.pointee.input?.pointee.line ?? 1),
                                                              column: Int(parser.pointee.input?.pointee.col ?? 1)))
            source.firstErrorEvent = source.eventBase + source.events.count
        }
        if terminate { explainEndOfInput() }
        if terminate || status != 0 || parser.pointee.instate == XML_PARSER_EOF { parserDone = true }
    }

    /// libxml2's push parser says "Extra content at the end of the document" for an empty file
    /// and for one cut short; say which it is, and where the cut left an element open.
    private func explainEndOfInput() {
        guard let error = source.firstError, error.message.hasPrefix("Extra content at the end of the document") else { return }
        var explained = error
        if !source.sawElement {
            explained.code = "kml.empty-document"
            explained.message = "the document has no root element: the file is empty or holds only a prolog (a KML file starts with <kml>)"
        } else if parser.pointee.nameNr > 0, let name = parser.pointee.name {
            explained.code = "kml.truncated"
            explained.message = "the document ends inside <\(String(cString: name))> (\(parser.pointee.nameNr) elements left open): "
                + "the file is cut short or a closing tag is missing"
        } else {
            return
        }
        source.firstError = explained
    }

    /// Reads the next chunk into the parser, keeping only the events not yet handed out.
    private func feed() {
        source.compact(keepingFrom: cursor)
        cursor = 0
        let count = chunk.withUnsafeMutableBytes { source.read(into: $0) }
        if count < 0 {
            parserDone = true
            source.failureEvent = source.eventBase + source.events.count
        } else {
            push(from: 0, count: count, terminate: count == 0)
        }
    }

    /// Moves to the next node. Returns false at the end of the document.
    /// - Throws: `Diagnostic` `kml.xml-syntax` (with line and column) for malformed XML, a
    ///   rejected entity, or a read error of the input.
    func read() throws -> Bool {
        while true {
            let absolute = source.eventBase + cursor
            source.releaseWarnings(upTo: absolute)
            if let failure = source.failure, absolute >= source.failureEvent { throw failure }
            if let error = source.firstError, absolute >= source.firstErrorEvent { throw error }
            if cursor < source.events.count {
                // A text run at the end of the queue may go on in the next chunk.
                if cursor == source.events.count - 1 && source.textRunOpen && !parserDone {
                    feed()
                    continue
                }
                current = source.events[cursor]
                cursor += 1
                load()
                if kind == .element && depth >= XMLStreamReader.maximumDepth {
                    // The KML walk recurses per level (MultiGeometry in MultiGeometry…): 5,000
                    // levels overflowed the stack. libxml2's own depth limit does not apply to
                    // its push parser.
                    throw Diagnostic(.error, code: "kml.too-deep",
                                     message: "elements nest more than \(XMLStreamReader.maximumDepth) levels deep; no KML needs that many",
                                     location: location(line: line, column: 1))
                }
                if kind == .parameterEntityReference {
                    // libxml2 skips an external one silently without DTD loading; the promise is that
                    // every entity reference is refused, so this one is too (nothing was fetched).
                    throw Diagnostic(.error, code: "kml.entity-reference",
                                     message: "parameter entity reference %\(localName); in the DTD is refused: entities are never expanded or fetched (KML needs none)",
                                     location: location(line: line, needle: "%\(localName);"))
                }
                if kind == .entityReference {
                    throw Diagnostic(.error, code: "kml.entity-reference",
                                     message: "entity reference &\(localName); is refused: entities are never expanded or fetched (KML needs none)",
                                     location: location(line: line, needle: "&\(localName);"))
                }
                return true
            }
            if parserDone {
                source.releaseWarnings(upTo: Int.max)
                return false
            }
            feed()
        }
    }

    private func load() {
        kind = current.kind
        isEmptyElement = current.isEmpty
        isCDATA = current.isCDATA
        switch kind {
        case .element:
            depth = level
            if !current.isEmpty { level += 1 }
            localName = internedName(current.name)
        case .endElement:
            level -= 1
            depth = level
            localName = internedName(current.name)
        case .entityReference, .parameterEntityReference:
            depth = level
            localName = current.name.map { String(cString: $0) } ?? ""
        case .text, .other:
            depth = level
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

    /// The local name for an interned pointer: a small direct-mapped table in front of
    /// `nameCache` (a document uses a few dozen names; hashing each node's name costs more).
    private func internedName(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        let key = UnsafeRawPointer(pointer)
        let slot = (Int(bitPattern: key) >> 3) & (Self.slotCount - 1)
        if slotKeys[slot] == key { return slotNames[slot] }
        let name = cachedName(pointer, in: &nameCache) ?? ""
        slotKeys[slot] = key
        slotNames[slot] = name
        return name
    }

    private static let slotCount = 256
    @exclusivity(unchecked) private var slotKeys = [UnsafeRawPointer?](repeating: nil, count: XMLStreamReader.slotCount)
    @exclusivity(unchecked) private var slotNames = [String](repeating: "", count: XMLStreamReader.slotCount)

    /// The current node's namespace URI, if any.
    var namespaceURI: String? {
        guard kind == .element || kind == .endElement else { return nil }
        return cachedName(current.uri, in: &namespaceCache)
    }

    /// The qualified name as written (`gx:Track`).
    var qualifiedName: String {
        guard kind == .element || kind == .endElement, let prefix = current.prefix, let name = current.name else { return localName }
        let key = QualifiedKey(prefix: UnsafeRawPointer(prefix), name: UnsafeRawPointer(name))
        if let qualified = qualifiedCache[key] { return qualified }
        let qualified = String(cString: prefix) + ":" + localName
        qualifiedCache[key] = qualified
        return qualified
    }

    /// An attribute of the current element by its name: unprefixed names match attributes in
    /// no namespace, `prefix:name` matches the attribute written with that prefix.
    func attribute(_ name: String) -> String? {
        guard kind == .element, current.count > 0 else { return nil }
        var name = name
        return name.withUTF8 { wanted -> String? in
            let colon = wanted.firstIndex(of: 0x3A)
            let local = colon.map { UnsafeBufferPointer(rebasing: wanted[($0 + 1)...]) } ?? wanted
            for index in current.start..<current.start + current.count {
                let attribute = source.attributes[index]
                guard let attributeName = attribute.name, Self.equal(attributeName, local) else { continue }
                if let colon {
                    guard let prefix = attribute.prefix, Self.equal(prefix, UnsafeBufferPointer(rebasing: wanted[..<colon])) else { continue }
                } else if attribute.uri != nil {
                    continue
                }
                return source.attributeValue(attribute)
            }
            return nil
        }
    }

    /// True when the NUL-terminated `name` is exactly `bytes`.
    private static func equal(_ name: UnsafePointer<xmlChar>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<bytes.count where name[index] != bytes[index] { return false }
        return name[bytes.count] == 0
    }

    /// Calls `body` with the current text node's UTF-8 bytes (valid only during the call).
    func withValueBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard kind == .text, current.count > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try source.text.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[current.start..<current.start + current.count]))
        }
    }

    /// The line of the current node (for an element and its end tag: the line its start tag
    /// ends on; for text: the line its first characters were read on), 1-based.
    var line: Int { max(current.line, 1) }

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

    /// Warnings libxml2 reported (e.g. namespace problems) up to the current node, since the
    /// last call.
    func takeParserWarnings() -> [Diagnostic] {
        defer { source.warnings.removeAll() }
        return source.warnings
    }
}

private struct QualifiedKey: Hashable {
    let prefix: UnsafeRawPointer
    let name: UnsafeRawPointer
}

/// One node as the SAX callbacks queued it. Names are libxml2 dictionary pointers (valid while
/// the parser lives); text is `Source.text[start..<start+count]`, an element's attributes
/// `Source.attributes[start..<start+count]`.
private struct SAXEvent {
    var kind: XMLStreamReader.NodeKind
    var isEmpty: Bool
    var isCDATA: Bool
    var line: Int
    var name: UnsafePointer<xmlChar>?
    var prefix: UnsafePointer<xmlChar>?
    var uri: UnsafePointer<xmlChar>?
    var start: Int
    var count: Int
}

private struct SAXAttribute {
    var name: UnsafePointer<xmlChar>?
    var prefix: UnsafePointer<xmlChar>?
    var uri: UnsafePointer<xmlChar>?
    var start: Int
    var count: Int
}

/// The input side shared with the C callbacks: pulls bytes from `ByteInput`, keeps a window of
/// recent bytes with its line starts (to find columns for diagnostics), queues the SAX events
/// of the chunks pushed so far, and records the parser's first error and its warnings, each
/// tagged with the event it came before (so they surface in document order).
private final class Source {
    let input: ByteInput
    @exclusivity(unchecked) var failure: Diagnostic?
    /// The event index (counted from the start of the document) before which `failure` is thrown.
    @exclusivity(unchecked) var failureEvent = Int.max
    @exclusivity(unchecked) var firstError: Diagnostic?
    @exclusivity(unchecked) var firstErrorEvent = Int.max
    /// Whether any element started: tells an empty document from a cut one at the end.
    @exclusivity(unchecked) var sawElement = false
    @exclusivity(unchecked) var warnings: [Diagnostic] = []
    @exclusivity(unchecked) private var pendingWarnings: [(event: Int, warning: Diagnostic)] = []
    private var undeclaredPrefixMessages: Set<String> = []

    let name: String?
    /// The parser whose events are the document's (libxml2 also parses entity values in
    /// nested contexts that share these callbacks).
    @exclusivity(unchecked) var parser: xmlParserCtxtPtr?

    /// Events not yet handed out (and the current one); `eventBase` is the document-wide index
    /// of `events[0]`.
    @exclusivity(unchecked) var events: [SAXEvent] = []
    @exclusivity(unchecked) var eventBase = 0
    /// Text of the queued text events, and the values of the queued elements' attributes.
    @exclusivity(unchecked) var text: [UInt8] = []
    @exclusivity(unchecked) var attributes: [SAXAttribute] = []
    /// True while the last event is text that more character data may extend.
    @exclusivity(unchecked) var textRunOpen = false
    /// True right after the start of an element written `<a/>`: its end is not an event.
    @exclusivity(unchecked) private var pendingEmpty = false
    /// The lines of the open elements' start tags (an end tag reports its start's line).
    @exclusivity(unchecked) private var lineStack: [Int] = []

    init(input: ByteInput, name: String?) {
        self.input = input
        self.name = name
        events.reserveCapacity(4096)
        text.reserveCapacity(1 << 16)
    }

    /// Drops the events before `cursor`. Only an open text run is ever kept (the reader asks
    /// for the next chunk when it is the last event).
    func compact(keepingFrom cursor: Int) {
        eventBase += cursor
        attributes.removeAll(keepingCapacity: true)
        guard cursor < events.count else {
            events.removeAll(keepingCapacity: true)
            text.removeAll(keepingCapacity: true)
            return
        }
        var run = events[cursor]
        events.removeAll(keepingCapacity: true)
        if run.start > 0 {
            text.removeSubrange(0..<run.start)
            run.start = 0
        }
        text.removeSubrange(run.count...)
        events.append(run)
    }

    func releaseWarnings(upTo event: Int) {
        guard let first = pendingWarnings.first, first.event <= event else { return }
        var released = 0
        while released < pendingWarnings.count && pendingWarnings[released].event <= event {
            warnings.append(pendingWarnings[released].warning)
            released += 1
        }
        pendingWarnings.removeFirst(released)
    }

    private var currentLine: Int { Int(parser?.pointee.input?.pointee.line ?? 1) }

    func startElement(_ name: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
                      attributeCount: Int, _ values: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        textRunOpen = false
        sawElement = true
        let line = currentLine
        // libxml2 reports the start tag with the input still on "/>" for an empty element
        // (xmlTextReader tells empty elements the same way).
        var empty = false
        if let cur = parser?.pointee.input?.pointee.cur, cur[0] == 0x2F, cur[1] == 0x3E { empty = true }
        let first = attributes.count
        if attributeCount > 0, let values {
            for index in 0..<attributeCount {
                let base = values + 5 * index
                guard let begin = base[3], let end = base[4] else { continue }
                let count = end - begin
                text.append(contentsOf: UnsafeBufferPointer(start: begin, count: count))
                attributes.append(SAXAttribute(name: base[0], prefix: base[1], uri: base[2], start: text.count - count, count: count))
            }
        }
        events.append(SAXEvent(kind: .element, isEmpty: empty, isCDATA: false, line: line, name: name, prefix: prefix, uri: uri,
                               start: first, count: attributes.count - first))
        lineStack.append(line)
        pendingEmpty = empty
    }

    func endElement(_ name: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) {
        let line = lineStack.popLast() ?? currentLine
        if pendingEmpty {
            pendingEmpty = false
            return
        }
        textRunOpen = false
        events.append(SAXEvent(kind: .endElement, isEmpty: false, isCDATA: false, line: line, name: name, prefix: prefix, uri: uri,
                               start: 0, count: 0))
    }

    /// Character data: adjacent pieces of the same kind are one text node.
    func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int, cdata: Bool) {
        pendingEmpty = false
        if let bytes, count > 0 { text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
        let length = max(count, 0)
        if textRunOpen && events[events.count - 1].isCDATA == cdata {
            events[events.count - 1].count += length
            return
        }
        textRunOpen = true
        events.append(SAXEvent(kind: .text, isEmpty: false, isCDATA: cdata, line: currentLine, name: nil, prefix: nil, uri: nil,
                               start: text.count - length, count: length))
    }

    func other(_ kind: XMLStreamReader.NodeKind, name: UnsafePointer<xmlChar>? = nil) {
        pendingEmpty = false
        textRunOpen = false
        events.append(SAXEvent(kind: kind, isEmpty: false, isCDATA: false, line: currentLine, name: name, prefix: nil, uri: nil,
                               start: 0, count: 0))
    }

    /// An attribute's value as the document means it: libxml2 hands a literal `&` over as
    /// `&#38;` when entities are not substituted.
    func attributeValue(_ attribute: SAXAttribute) -> String {
        text.withUnsafeBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(rebasing: buffer[attribute.start..<attribute.start + attribute.count])
            guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
            let escaped: [UInt8] = Array("&#38;".utf8)
            var decoded: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x26 && index + 5 <= bytes.count && bytes[index..<index + 5].elementsEqual(escaped) {
                    decoded.append(0x26)
                    index += 5
                } else {
                    decoded.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: decoded, as: UTF8.self)
        }
    }

    /// The most recent input, as the chunks libxml2 was handed (newest last), `windowStart`
    /// being the absolute offset of the first byte of `chunks[0]`. Whole chunks are dropped
    /// once the rest still covers `windowSize` bytes, so each byte is copied once.
    @exclusivity(unchecked) private var chunks: [[UInt8]] = []
    @exclusivity(unchecked) private var windowStart = 0
    @exclusivity(unchecked) private var windowCount = 0
    /// Absolute offsets of the newlines inside the window.
    @exclusivity(unchecked) private var newlines: [Int] = []
    @exclusivity(unchecked) private var newlinesHead = 0
    @exclusivity(unchecked) private var newlinesBeforeWindow = 0
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

    /// An undeclared namespace prefix: a warning, once per message (prefix and element).
    func recordUndeclaredPrefix(message: String, line: Int, column: Int) {
        let text = message.trimmingTrailingWhitespace
        guard !undeclaredPrefixMessages.contains(text), warnings.count + pendingWarnings.count < 1000 else { return }
        undeclaredPrefixMessages.insert(text)
        let location = SourceLocation(file: name, line: max(line, 1), column: max(column, 1))
        pendingWarnings.append((eventBase + events.count,
                                Diagnostic(.warning, code: "kml.undeclared-prefix",
                                           message: text + "; read as if declared (add its xmlns declaration)", location: location)))
    }

    func record(level: Int, message: String, line: Int, column: Int) {
        let text = message.trimmingTrailingWhitespace
        let location = SourceLocation(file: name, line: max(line, 1), column: max(column, 1))
        if level >= Int(XML_ERR_ERROR.rawValue) {
            guard firstError == nil else { return }
            firstErrorEvent = eventBase + events.count
            var explained = text
            if text.contains("entity reference loop") || text.contains("amplification") || text.contains("Maximum entity") {
                explained += " (entity expansion is refused: the file looks like a billion-laughs attack)"
            }
            firstError = Diagnostic(.error, code: "kml.xml-syntax", message: explained, location: location)
        } else if warnings.count + pendingWarnings.count < 1000 {
            pendingWarnings.append((eventBase + events.count, Diagnostic(.warning, code: "kml.xml-warning", message: text, location: location)))
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

/// The reader behind a parser context's SAX callbacks, for the document's own parser only.
private func saxSource(_ context: UnsafeMutableRawPointer?) -> Source? {
    guard let context else { return nil }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let box = parser.pointee._private else { return nil }
    let source = Unmanaged<Source>.fromOpaque(box).takeUnretainedValue()
    return source.parser == parser ? source : nil
}

private func saxStartElement(_ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?,
                             _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
                             _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int32,
                             _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
    saxSource(context)?.startElement(localName, prefix, uri, attributeCount: Int(attributeCount), attributes)
}

private func saxEndElement(_ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?,
                           _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) {
    saxSource(context)?.endElement(localName, prefix, uri)
}

private func saxCharacters(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
    saxSource(context)?.characters(bytes, Int(count), cdata: false)
}

private func saxCDATA(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
    saxSource(context)?.characters(bytes, Int(count), cdata: true)
}

/// An entity reference libxml2 did not substitute (it never does here): refused by `read()`.
private func saxReference(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
    saxSource(context)?.other(.entityReference, name: name)
}

/// A parameter entity reference (`%name;`) in the DTD: recorded, refused by `read()`; the
/// lookup itself stays libxml2's (which never loads an external one here).
private func saxGetParameterEntity(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    saxSource(context)?.other(.parameterEntityReference, name: name)
    return xmlSAX2GetParameterEntity(context, name)
}

private func saxComment(_ context: UnsafeMutableRawPointer?, _ value: UnsafePointer<xmlChar>?) {
    saxSource(context)?.other(.other)
}

private func saxProcessingInstruction(_ context: UnsafeMutableRawPointer?, _ target: UnsafePointer<xmlChar>?,
                                      _ data: UnsafePointer<xmlChar>?) {
    saxSource(context)?.other(.other)
}

/// libxml2's structured error callback: keeps the first error and the warnings, also those
/// raised while libxml2 checks an entity's value in a nested parser context.
private func xmlStreamError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let box = parser.pointee._private else { return }
    let source = Unmanaged<Source>.fromOpaque(box).takeUnretainedValue()
    let message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
    if error.pointee.domain == Int32(XML_FROM_NAMESPACE.rawValue) && error.pointee.code == Int32(XML_NS_ERR_UNDEFINED_NAMESPACE.rawValue) {
        // libxml2 goes on (the document is well-formed, only not namespace-well-formed) and
        // names stay split at the colon, so `gx:Track` reads as gx:Track (GDAL's LIBKML does too).
        source.recordUndeclaredPrefix(message: message, line: Int(error.pointee.line), column: Int(error.pointee.int2))
        return
    }
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

    /// The current element's attributes as ` name="value"` pairs, escaped.
    private func attributesAsXML() -> String {
        guard kind == .element, current.count > 0 else { return "" }
        var result = ""
        for index in current.start..<current.start + current.count {
            let attribute = source.attributes[index]
            guard let name = attribute.name else { continue }
            result += " "
            if let prefix = attribute.prefix { result += String(cString: prefix) + ":" }
            result += String(cString: name) + "=\"" + Self.escaped(source.attributeValue(attribute), attribute: true) + "\""
        }
        return result
    }

    private static func escaped(_ text: String, attribute: Bool) -> String {
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CLibXML2
import OverlayModel

/// A streaming pull reader built on libxml2's SAX2 push parser. Only `KML/XML/` talks to
/// libxml2 (this file, the SAX side in `XMLSAXSource.swift`, and `XMLSchemaValidation.swift`),
/// so no C type leaves that folder.
///
/// Bytes are read from a `ByteInput` a chunk at a time and pushed into the parser
/// (`xmlParseChunk`); its SAX2 callbacks queue the chunk's events (elements, text runs, …) in a
/// batch, which `read()` then hands out one by one. On an input of more than one chunk, and
/// more than one core, the chunks are pushed on a thread of its own (`SAXReadAhead`) up to two
/// batches ahead; the reader takes the batches in the same order either way. Memory is bounded
/// by a few chunks' events plus the largest text node, not the file. Security: `XML_PARSE_NONET` (never touch the network), no
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
/// that could touch it again (the callbacks run inside `Source.complete`, which fills a batch
/// the reader does not hold), so the
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

    /// The producing side (the parser and its callbacks): used by this thread until a
    /// read-ahead thread starts, then only by that thread.
    private let source: Source
    /// The batch being read, and the read-ahead thread once started (inputs of more than one
    /// chunk on more than one core).
    @exclusivity(unchecked) private var batch: SAXBatch
    private var readAhead: SAXReadAhead?
    /// How many times the reader and the read-ahead thread waited for each other (nil when no
    /// thread was started): tests check that the hand-overs stay few.
    var readAheadWaits: (reader: Int, filler: Int)? {
        readAhead.map { ($0.readerWaits, $0.fillerWaits) }
    }
    /// Whether a read-ahead thread may be started.
    private let readsAhead: Bool
    /// The input seen so far, for columns.
    private let window = LineWindow()
    /// The document's first error and read failure, with the event index each is thrown before.
    @exclusivity(unchecked) private var failure: Diagnostic?
    @exclusivity(unchecked) private var failureEvent = Int.max
    @exclusivity(unchecked) private var firstError: Diagnostic?
    @exclusivity(unchecked) private var firstErrorEvent = Int.max
    /// Parser warnings released (up to the current node) and not yet taken, and those still ahead.
    @exclusivity(unchecked) private var warnings: [Diagnostic] = []
    @exclusivity(unchecked) private var pendingWarnings: [(event: Int, warning: Diagnostic)] = []
    private var undeclaredPrefixMessages: Set<String> = []
    /// The file name for diagnostics.
    let fileName: String?
    /// Local names by libxml2's interned pointer: names come from the parser's dictionary, so
    /// the same name is the same pointer and converting it to a String happens once.
    @exclusivity(unchecked) private var nameCache: [UnsafeRawPointer: String] = [:]
    @exclusivity(unchecked) private var namespaceCache: [UnsafeRawPointer: String] = [:]
    @exclusivity(unchecked) private var qualifiedCache: [QualifiedKey: String] = [:]
    /// The index of the next event to hand out in `batch.events`.
    @exclusivity(unchecked) private var cursor = 0
    /// Element nesting of the nodes handed out so far.
    @exclusivity(unchecked) private var level = 0

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
    /// - Parameters:
    ///   - input: the XML.
    ///   - name: the file name for diagnostics (the input's name when nil).
    ///   - readsAhead: whether libxml2 may parse ahead on a thread of its own (when the input is
    ///     more than one chunk and the process may use more than one core); the nodes and
    ///     diagnostics are the same either way.
    init(input: ByteInput, name: String? = nil, readsAhead: Bool = true) throws {
        let fileName = name ?? input.name
        self.fileName = fileName
        self.readsAhead = readsAhead
        let source = Source(input: input, name: fileName)
        self.source = source
        // The first bytes let libxml2 detect the encoding; the rest of the chunk follows.
        let (chunk, _, head) = source.readFirstChunk()
        let created = chunk.withUnsafeBytes { bytes in
            let start = head > 0 ? bytes.baseAddress?.assumingMemoryBound(to: CChar.self) : nil
            return xmlCreatePushParserCtxt(nil, nil, start, Int32(head), fileName ?? "stdin")
        }
        guard let parser = created else {
            throw Diagnostic(.error, code: .kmlReaderFailed, message: "xmlCreatePushParserCtxt could not start a parser",
                             location: SourceLocation(file: input.name, line: 1, column: 1))
        }
        source.parser = parser
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_COMPACT.rawValue)
        xmlCtxtUseOptions(parser, options)
        // Unretained: the source owns the parser, so it outlives every callback.
        parser.pointee._private = Unmanaged.passUnretained(source).toOpaque()
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
        batch = source.complete(recycling: SAXBatch())
        receive(batch)
    }

    deinit { readAhead?.cancel() }

    /// Takes the batch after the one read: from the read-ahead thread once it runs, else
    /// pushed here. The thread starts with the second batch of an input whose first chunk was
    /// full, on more than one core.
    private func nextBatch() {
        let spare = batch
        if readAhead == nil && readsAhead && batch.base == 0 && (batch.chunks.first?.count ?? 0) >= Source.chunkSize
            && ReadAheadFeatureReader.usableCores > 1 {
            readAhead = try? SAXReadAhead(source: source)
        }
        if let readAhead {
            batch = readAhead.take(returning: spare)
        } else {
            batch = source.complete(recycling: spare)
        }
        cursor = 0
        receive(batch)
    }

    /// Takes in a new batch: its chunks into the line window, its warnings (each undeclared
    /// prefix once, at most 1,000 waiting) and the errors known when it was handed over.
    private func receive(_ batch: SAXBatch) {
        for chunk in batch.chunks { window.remember(chunk) }
        for finding in batch.findings where warnings.count + pendingWarnings.count < 1000 {
            if let message = finding.undeclaredPrefix {
                guard !undeclaredPrefixMessages.contains(message) else { continue }
                undeclaredPrefixMessages.insert(message)
            }
            pendingWarnings.append((finding.event, finding.warning))
        }
        if let error = batch.firstError {
            firstError = error
            firstErrorEvent = batch.firstErrorEvent
        }
        if let error = batch.failure {
            failure = error
            failureEvent = batch.failureEvent
        }
    }

    private func releaseWarnings(upTo event: Int) {
        guard let first = pendingWarnings.first, first.event <= event else { return }
        var released = 0
        while released < pendingWarnings.count && pendingWarnings[released].event <= event {
            warnings.append(pendingWarnings[released].warning)
            released += 1
        }
        pendingWarnings.removeFirst(released)
    }

    /// Moves to the next node. Returns false at the end of the document.
    /// - Throws: `Diagnostic` `kml.xml-syntax` (with line and column) for malformed XML, a
    ///   rejected entity, or a read error of the input.
    func read() throws -> Bool {
        while true {
            let absolute = batch.base + cursor
            releaseWarnings(upTo: absolute)
            if let failure, absolute >= failureEvent { throw failure }
            if let error = firstError, absolute >= firstErrorEvent { throw error }
            if cursor < batch.events.count {
                current = batch.events[cursor]
                cursor += 1
                load()
                if kind == .element && depth >= XMLStreamReader.maximumDepth {
                    // The KML walk recurses per level (MultiGeometry in MultiGeometry…): 5,000
                    // levels overflowed the stack. libxml2's own depth limit does not apply to
                    // its push parser.
                    throw Diagnostic(.error, code: .kmlTooDeep,
                                     message: "elements nest more than \(XMLStreamReader.maximumDepth) levels deep; no KML needs that many",
                                     location: location(line: line, column: 1))
                }
                if kind == .parameterEntityReference {
                    // libxml2 skips an external one silently without DTD loading; the promise is that
                    // every entity reference is refused, so this one is too (nothing was fetched).
                    throw Diagnostic(.error, code: .kmlEntityReference,
                                     message: "parameter entity reference %\(localName); in the DTD is refused: entities are never expanded or fetched (KML needs none)",
                                     location: location(line: line, needle: "%\(localName);"))
                }
                if kind == .entityReference {
                    throw Diagnostic(.error, code: .kmlEntityReference,
                                     message: "entity reference &\(localName); is refused: entities are never expanded or fetched (KML needs none)",
                                     location: location(line: line, needle: "&\(localName);"))
                }
                return true
            }
            if batch.isLast {
                releaseWarnings(upTo: Int.max)
                return false
            }
            nextBatch()
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
                let attribute = batch.attributes[index]
                guard let attributeName = attribute.name, Self.equal(attributeName, local) else { continue }
                if let colon {
                    guard let prefix = attribute.prefix, Self.equal(prefix, UnsafeBufferPointer(rebasing: wanted[..<colon])) else { continue }
                } else if attribute.uri != nil {
                    continue
                }
                return batch.attributeValue(attribute)
            }
            return nil
        }
    }

    /// Calls `body` with the bytes of the current element's attribute `name` (unprefixed, in
    /// no namespace) as libxml2 handed them over, or nil when it has none; the bytes are valid
    /// only during the call. A literal `&` appears as `&#38;` (see `attribute(_:)` for the
    /// value the document means), so callers that need the value take the bytes only when
    /// they hold no `&`.
    func withAttributeBytes<R>(_ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        guard kind == .element, current.count > 0 else { return try body(nil) }
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for index in current.start..<current.start + current.count {
            let attribute = batch.attributes[index]
            guard attribute.uri == nil, let attributeName = attribute.name, Self.equal(attributeName, wanted) else { continue }
            return try body(UnsafeBufferPointer(rebasing: batch.text[attribute.start..<attribute.start + attribute.count]))
        }
        return try body(nil)
    }

    /// True when the NUL-terminated `name` is exactly `bytes`.
    private static func equal(_ name: UnsafePointer<xmlChar>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<bytes.count where name[index] != bytes[index] { return false }
        return name[bytes.count] == 0
    }

    /// Calls `body` with the current text node's UTF-8 bytes (valid only during the call).
    func withValueBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard kind == .text, current.count > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(rebasing: batch.text[current.start..<current.start + current.count]))
    }

    /// The line of the current node (for an element and its end tag: the line its start tag
    /// ends on; for text: the line its first characters were read on), 1-based.
    var line: Int { max(current.line, 1) }

    /// A location for diagnostics at `line`; the column is where `needle` first appears on that
    /// line in the recent input (1 when the line has left the window or the needle is absent).
    func location(line: Int, needle: String? = nil, after anchor: String? = nil, offset: Int = 0,
                  kmlPath: String? = nil) -> SourceLocation {
        var column = 1
        if let needle, let found = window.column(onLine: line, of: Array(needle.utf8), after: anchor.map { Array($0.utf8) }) {
            column = found + offset
        }
        return SourceLocation(file: fileName, line: line, column: column, kmlPath: kmlPath)
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: fileName, line: max(line, 1), column: max(column, 1))
    }

    /// The current element's attributes as ` name="value"` pairs, escaped (for
    /// `readInnerXML`).
    func attributesAsXML() -> String {
        guard kind == .element, current.count > 0 else { return "" }
        var result = ""
        for index in current.start..<current.start + current.count {
            let attribute = batch.attributes[index]
            guard let name = attribute.name else { continue }
            result += " "
            if let prefix = attribute.prefix { result += String(cString: prefix) + ":" }
            result += String(cString: name) + "=\"" + Self.escaped(batch.attributeValue(attribute), attribute: true) + "\""
        }
        return result
    }

    /// Warnings libxml2 reported (e.g. namespace problems) up to the current node, since the
    /// last call.
    func takeParserWarnings() -> [Diagnostic] {
        defer { warnings.removeAll() }
        return warnings
    }
}

private struct QualifiedKey: Hashable {
    let prefix: UnsafeRawPointer
    let name: UnsafeRawPointer
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CLibXML2
import OverlayModel

// The SAX side of `XMLStreamReader`: the C callbacks libxml2 calls while a chunk is pushed,
// and the `Source` they fill with events, text and findings (`SAXBatch`, in XMLSAXBatch.swift).

/// One node as the SAX callbacks queued it. Names are libxml2 dictionary pointers (valid while
/// the parser lives); text is `SAXBatch.text[start..<start+count]`, an element's attributes
/// `SAXBatch.attributes[start..<start+count]`.
struct SAXEvent {
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

struct SAXAttribute {
    var name: UnsafePointer<xmlChar>?
    var prefix: UnsafePointer<xmlChar>?
    var uri: UnsafePointer<xmlChar>?
    var start: Int
    var count: Int
}

/// A warning libxml2 reported, with the document-wide index of the event it came before; an
/// undeclared prefix carries its message, which the reader reports once.
struct SAXFinding {
    var event: Int
    var warning: Diagnostic
    var undeclaredPrefix: String?
}

extension XMLStreamReader {
    /// The producing side shared with the C callbacks: pulls bytes from `ByteInput`, pushes them
    /// into the parser, and fills a `SAXBatch` with the SAX events, text and warnings (each tagged
    /// with the event it came before, so they surface in document order), keeping the first
    /// error. It owns the parser. `@unchecked Sendable`: one thread at a time uses it, the
    /// reader's, then the read-ahead thread from its start on (handed over when it starts).
    final class Source: @unchecked Sendable {
        let input: ByteInput
        let name: String?
        /// The parser whose events are the document's (libxml2 also parses entity values in
        /// nested contexts that share these callbacks).
        @exclusivity(unchecked) var parser: xmlParserCtxtPtr?
        /// The batch the callbacks fill.
        @exclusivity(unchecked) private(set) var batch = SAXBatch()
        @exclusivity(unchecked) var failure: Diagnostic?
        /// The event index (counted from the start of the document) before which `failure` is thrown.
        @exclusivity(unchecked) var failureEvent = Int.max
        @exclusivity(unchecked) var firstError: Diagnostic?
        @exclusivity(unchecked) var firstErrorEvent = Int.max
        /// Whether any element started: tells an empty document from a cut one at the end.
        @exclusivity(unchecked) var sawElement = false
        /// True once the parser has seen the end of the input (or stopped).
        @exclusivity(unchecked) private(set) var parserDone = false
        /// True while the last event is text that more character data may extend.
        @exclusivity(unchecked) private var textRunOpen = false
        /// True right after the start of an element written `<a/>`: its end is not an event.
        @exclusivity(unchecked) private var pendingEmpty = false
        /// The lines of the open elements' start tags (an end tag reports its start's line).
        @exclusivity(unchecked) private var lineStack: [Int] = []
        /// The first chunk, read before the parser existed (its first bytes chose the encoding):
        /// `head` bytes of it were given to the parser when it was created.
        @exclusivity(unchecked) private var firstChunk: (bytes: [UInt8], count: Int, head: Int)?
        /// The most bytes read and pushed at a time.
        static let chunkSize = 64 << 10

        init(input: ByteInput, name: String?) {
            self.input = input
            self.name = name
        }

        deinit {
            if let parser {
                if let document = parser.pointee.myDoc {
                    xmlFreeDoc(document)
                    parser.pointee.myDoc = nil
                }
                xmlFreeParserCtxt(parser)
            }
        }

        /// Reads the first chunk; its first `head` bytes (at most 4) go to the parser's creation.
        func readFirstChunk() -> (bytes: [UInt8], count: Int, head: Int) {
            let (bytes, count) = readChunk(size: Self.chunkSize)
            let first = (bytes, count, max(0, min(count, 4)))
            firstChunk = first
            return first
        }

        /// The document-wide index of the next event.
        private var nextEvent: Int { batch.base + batch.events.count }

        /// Pushes chunks until the batch holds an event that no further chunk can change (or the
        /// document ends), and hands it over; `spare` (a batch the reader has read) becomes the
        /// one filled next, starting with the text run the last chunk left open.
        func complete(recycling spare: SAXBatch) -> SAXBatch {
            repeat {
                if let first = firstChunk {
                    firstChunk = nil
                    if first.count < 0 {
                        parserDone = true
                    } else if first.count > first.head {
                        push(first.bytes, from: first.head, count: first.count - first.head, terminate: false)
                    } else if first.count == 0 {
                        push(first.bytes, from: 0, count: 0, terminate: true)
                    }
                } else {
                    let (bytes, count) = readChunk(size: Self.chunkSize)
                    if count < 0 {
                        parserDone = true
                        failureEvent = nextEvent
                    } else {
                        push(bytes, from: 0, count: count, terminate: count == 0)
                    }
                }
                // A text run alone may go on in the next chunk: nothing to hand over yet.
            } while !parserDone && textRunOpen && batch.events.count == 1
            let done = batch
            spare.reset(base: done.base + done.events.count)
            if !parserDone && textRunOpen, let run = done.events.last {
                // The run the next chunk may extend moves to the next batch.
                done.events.removeLast()
                spare.base -= 1
                spare.appendText(done.textBase + run.start, count: run.count)
                var moved = run
                moved.start = 0
                spare.events.append(moved)
                done.truncateText(to: run.start)
            }
            done.isLast = parserDone
            done.firstError = firstError
            done.firstErrorEvent = firstErrorEvent
            done.failure = failure
            done.failureEvent = failureEvent
            batch = spare
            return done
        }

        /// Pushes `count` bytes of `chunk` from `offset` into the parser.
        private func push(_ chunk: [UInt8], from offset: Int, count: Int, terminate: Bool) {
            guard let parser else { return }
            let status = chunk.withUnsafeBytes { bytes in
                let start = count > 0 ? bytes.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) + offset } : nil
                return xmlParseChunk(parser, start, Int32(count), terminate ? 1 : 0)
            }
            if status != 0 && firstError == nil {
                firstError = Diagnostic(.error, code: .kmlXmlSyntax, message: "the XML parser stopped (xmlParseChunk failed)",
                                        location: SourceLocation(file: name, line: max(Int(parser.pointee.input?.pointee.line ?? 1), 1),
                                                                 column: max(Int(parser.pointee.input?.pointee.col ?? 1), 1)))
                firstErrorEvent = nextEvent
            }
            if terminate { explainEndOfInput() }
            if terminate || status != 0 || parser.pointee.instate == XML_PARSER_EOF { parserDone = true }
        }

        /// libxml2's push parser says "Extra content at the end of the document" for an empty file
        /// and for one cut short; say which it is, and where the cut left an element open.
        private func explainEndOfInput() {
            guard let error = firstError, error.message.hasPrefix("Extra content at the end of the document"), let parser else { return }
            var explained = error
            if !sawElement {
                explained.code = .kmlEmptyDocument
                explained.message = "the document has no root element: the file is empty or holds only a prolog (a KML file starts with <kml>)"
            } else if parser.pointee.nameNr > 0, let name = parser.pointee.name {
                explained.code = .kmlTruncated
                explained.message = "the document ends inside <\(String(cString: name))> (\(parser.pointee.nameNr) elements left open): "
                    + "the file is cut short or a closing tag is missing"
            } else {
                return
            }
            firstError = explained
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
            let batch = batch
            let first = batch.attributes.count
            if attributeCount > 0, let values {
                for index in 0..<attributeCount {
                    let base = values + 5 * index
                    guard let begin = base[3], let end = base[4] else { continue }
                    let count = end - begin
                    batch.appendText(begin, count: count)
                    batch.attributes.append(SAXAttribute(name: base[0], prefix: base[1], uri: base[2], start: batch.textCount - count, count: count))
                }
            }
            batch.events.append(SAXEvent(kind: .element, isEmpty: empty, isCDATA: false, line: line, name: name, prefix: prefix, uri: uri,
                                         start: first, count: batch.attributes.count - first))
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
            batch.events.append(SAXEvent(kind: .endElement, isEmpty: false, isCDATA: false, line: line, name: name, prefix: prefix, uri: uri,
                                         start: 0, count: 0))
        }

        /// Character data: adjacent pieces of the same kind are one text node.
        func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int, cdata: Bool) {
            pendingEmpty = false
            let batch = batch
            if let bytes, count > 0 { batch.appendText(bytes, count: count) }
            let length = max(count, 0)
            if textRunOpen && batch.events[batch.events.count - 1].isCDATA == cdata {
                batch.events[batch.events.count - 1].count += length
                return
            }
            textRunOpen = true
            batch.events.append(SAXEvent(kind: .text, isEmpty: false, isCDATA: cdata, line: currentLine, name: nil, prefix: nil, uri: nil,
                                         start: batch.textCount - length, count: length))
        }

        func other(_ kind: XMLStreamReader.NodeKind, name: UnsafePointer<xmlChar>? = nil) {
            pendingEmpty = false
            textRunOpen = false
            batch.events.append(SAXEvent(kind: kind, isEmpty: false, isCDATA: false, line: currentLine, name: name, prefix: nil, uri: nil,
                                         start: 0, count: 0))
        }

        /// The next chunk of at most `size` bytes read from the input, added to the batch's
        /// chunks as it is (the array is shared, not copied); count -1 when the read failed
        /// (`failure`).
        private func readChunk(size: Int) -> (bytes: [UInt8], count: Int) {
            var thrown: Error?
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                do {
                    initialized = try input.read(into: UnsafeMutableRawBufferPointer(buffer))
                } catch {
                    thrown = error
                    initialized = 0
                }
            }
            if let diagnostic = thrown as? Diagnostic {
                failure = diagnostic
                return (bytes, -1)
            } else if let thrown {
                failure = Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(input.name ?? "standard input"): \(thrown)")
                return (bytes, -1)
            }
            if !bytes.isEmpty { batch.chunks.append(bytes) }
            return (bytes, bytes.count)
        }

        /// An undeclared namespace prefix: a warning, once per message (the reader keeps the
        /// first of each).
        func recordUndeclaredPrefix(message: String, line: Int, column: Int) {
            let text = message.trimmingTrailingWhitespace
            let location = SourceLocation(file: name, line: max(line, 1), column: max(column, 1))
            batch.findings.append(SAXFinding(event: nextEvent,
                                             warning: Diagnostic(.warning, code: .kmlUndeclaredPrefix,
                                                                 message: text + "; read as if declared (add its xmlns declaration)",
                                                                 location: location),
                                             undeclaredPrefix: text))
        }

        func record(level: Int, message: String, line: Int, column: Int) {
            let text = message.trimmingTrailingWhitespace
            let location = SourceLocation(file: name, line: max(line, 1), column: max(column, 1))
            if level >= Int(XML_ERR_ERROR.rawValue) {
                guard firstError == nil else { return }
                firstErrorEvent = nextEvent
                var explained = text
                if text.contains("entity reference loop") || text.contains("amplification") || text.contains("Maximum entity") {
                    explained += " (entity expansion is refused: the file looks like a billion-laughs attack)"
                }
                firstError = Diagnostic(.error, code: .kmlXmlSyntax, message: explained, location: location)
            } else {
                batch.findings.append(SAXFinding(event: nextEvent, warning: Diagnostic(.warning, code: .kmlXmlWarning, message: text,
                                                                                      location: location),
                                                 undeclaredPrefix: nil))
            }
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

/// Calls `body` with the source behind a parser context's SAX callbacks, for the document's own
/// parser only. The `Source` is borrowed, not retained: whoever pushes a chunk holds it, and a
/// retain and release per callback were ~10 M instructions of a 12 MB KML.
@inline(__always)
func withSAXSource(_ context: UnsafeMutableRawPointer?, _ body: (XMLStreamReader.Source) -> Void) {
    guard let context else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let box = parser.pointee._private else { return }
    Unmanaged<XMLStreamReader.Source>.fromOpaque(box)._withUnsafeGuaranteedRef { source in
        if source.parser == parser { body(source) }
    }
}

func saxStartElement(_ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?,
                             _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
                             _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int32,
                             _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
    withSAXSource(context) { $0.startElement(localName, prefix, uri, attributeCount: Int(attributeCount), attributes) }
}

func saxEndElement(_ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?,
                           _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) {
    withSAXSource(context) { $0.endElement(localName, prefix, uri) }
}

func saxCharacters(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
    withSAXSource(context) { $0.characters(bytes, Int(count), cdata: false) }
}

func saxCDATA(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
    withSAXSource(context) { $0.characters(bytes, Int(count), cdata: true) }
}

/// An entity reference libxml2 did not substitute (it never does here): refused by `read()`.
func saxReference(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) {
    withSAXSource(context) { $0.other(.entityReference, name: name) }
}

/// A parameter entity reference (`%name;`) in the DTD: recorded, refused by `read()`; the
/// lookup itself stays libxml2's (which never loads an external one here).
func saxGetParameterEntity(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    withSAXSource(context) { $0.other(.parameterEntityReference, name: name) }
    return xmlSAX2GetParameterEntity(context, name)
}

func saxComment(_ context: UnsafeMutableRawPointer?, _ value: UnsafePointer<xmlChar>?) {
    withSAXSource(context) { $0.other(.other) }
}

func saxProcessingInstruction(_ context: UnsafeMutableRawPointer?, _ target: UnsafePointer<xmlChar>?,
                                      _ data: UnsafePointer<xmlChar>?) {
    withSAXSource(context) { $0.other(.other) }
}

/// libxml2's structured error callback: keeps the first error and the warnings, also those
/// raised while libxml2 checks an entity's value in a nested parser context.
func xmlStreamError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let box = parser.pointee._private else { return }
    let source = Unmanaged<XMLStreamReader.Source>.fromOpaque(box).takeUnretainedValue()
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

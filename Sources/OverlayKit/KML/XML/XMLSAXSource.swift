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
// and the `Source` they fill with events, text and diagnostics.

/// One node as the SAX callbacks queued it. Names are libxml2 dictionary pointers (valid while
/// the parser lives); text is `Source.text[start..<start+count]`, an element's attributes
/// `Source.attributes[start..<start+count]`.
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

extension XMLStreamReader {
    /// The input side shared with the C callbacks: pulls bytes from `ByteInput`, keeps a window of
    /// recent bytes with its line starts (to find columns for diagnostics), queues the SAX events
    /// of the chunks pushed so far, and records the parser's first error and its warnings, each
    /// tagged with the event it came before (so they surface in document order).
    final class Source {
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
        /// Text of the queued text events, and the values of the queued elements' attributes:
        /// `textCount` bytes at `textBase` (`textCapacity` allocated). Raw memory, not an array:
        /// `Array.append(contentsOf:)` cost ~90 instructions per SAX callback beyond the copy
        /// (19 M of a 12 MB KML's 667 M on the reading thread, issue 50).
        @exclusivity(unchecked) private(set) var textBase: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) private(set) var textCount = 0
        @exclusivity(unchecked) private var textCapacity: Int
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
            textCapacity = 1 << 16
            textBase = .allocate(capacity: textCapacity)
        }

        deinit { textBase.deallocate() }

        /// The queued text and attribute values (valid until the next callback or `compact`).
        var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: textBase, count: textCount) }

        /// Appends `count` bytes to `text`, growing it by doubling.
        private func appendText(_ bytes: UnsafePointer<UInt8>, count: Int) {
            if textCount + count > textCapacity {
                let capacity = max(textCapacity * 2, textCount + count)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                grown.update(from: textBase, count: textCount)
                textBase.deallocate()
                textBase = grown
                textCapacity = capacity
            }
            (textBase + textCount).update(from: bytes, count: count)
            textCount += count
        }

        /// Drops the events before `cursor`. Only an open text run is ever kept (the reader asks
        /// for the next chunk when it is the last event).
        func compact(keepingFrom cursor: Int) {
            eventBase += cursor
            attributes.removeAll(keepingCapacity: true)
            guard cursor < events.count else {
                events.removeAll(keepingCapacity: true)
                textCount = 0
                return
            }
            var run = events[cursor]
            events.removeAll(keepingCapacity: true)
            if run.start > 0 {
                textBase.update(from: textBase + run.start, count: run.count)  // memmove: the ranges may overlap
                run.start = 0
            }
            textCount = run.count
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
                    appendText(begin, count: count)
                    attributes.append(SAXAttribute(name: base[0], prefix: base[1], uri: base[2], start: textCount - count, count: count))
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
            if let bytes, count > 0 { appendText(bytes, count: count) }
            let length = max(count, 0)
            if textRunOpen && events[events.count - 1].isCDATA == cdata {
                events[events.count - 1].count += length
                return
            }
            textRunOpen = true
            events.append(SAXEvent(kind: .text, isEmpty: false, isCDATA: cdata, line: currentLine, name: nil, prefix: nil, uri: nil,
                                   start: textCount - length, count: length))
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
            let bytes = UnsafeBufferPointer(rebasing: text[attribute.start..<attribute.start + attribute.count])
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

        /// The next chunk of at most `size` bytes read from the input, kept in the window as
        /// it is (the array is shared, not copied); count -1 when the read failed (`failure`).
        func readChunk(size: Int) -> (bytes: [UInt8], count: Int) {
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
            remember(bytes)
            return (bytes, bytes.count)
        }

        private func remember(_ chunk: [UInt8]) {
            guard chunk.count > 0 else { return }
            let base = windowStart + windowCount
            chunks.append(chunk)
            windowCount += chunk.count
            // memchr finds newlines at memory speed.
            chunk.withUnsafeBytes { bytes in
                var index = 0
                while index < bytes.count, let hit = memchr(bytes.baseAddress! + index, 0x0A, bytes.count - index) {
                    let position = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    newlines.append(base + position)
                    index = position + 1
                }
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
                                    Diagnostic(.warning, code: .kmlUndeclaredPrefix,
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
                firstError = Diagnostic(.error, code: .kmlXmlSyntax, message: explained, location: location)
            } else if warnings.count + pendingWarnings.count < 1000 {
                pendingWarnings.append((eventBase + events.count, Diagnostic(.warning, code: .kmlXmlWarning, message: text, location: location)))
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

/// Calls `body` with the reader behind a parser context's SAX callbacks, for the document's own
/// parser only. The `Source` is borrowed, not retained: the reader holds it for the parser's
/// whole life, and a retain and release per callback were ~10 M instructions of a 12 MB KML.
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

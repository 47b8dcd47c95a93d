import OverlayModel

/// A stretch of the document as the SAX callbacks queued it: the events of the chunks pushed
/// for it (never ending in a text run the next chunk may extend, but for the last batch), their
/// text and attribute values, those chunks (for the reader's line window), and what the parser
/// found meanwhile. The reader takes batches in order; a batch is reused once read.
final class SAXBatch {
    /// The document-wide index of `events[0]`.
    @exclusivity(unchecked) var base = 0
    @exclusivity(unchecked) var events: [SAXEvent] = []
    @exclusivity(unchecked) var attributes: [SAXAttribute] = []
    /// Text of the events and the values of the elements' attributes: `textCount` bytes at
    /// `textBase`. Raw memory, not an array: `Array.append(contentsOf:)` cost ~90 instructions
    /// per SAX callback beyond the copy (19 M of a 12 MB KML's 667 M on the reading thread).
    @exclusivity(unchecked) private(set) var textBase: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var textCount = 0
    @exclusivity(unchecked) private var textCapacity: Int
    /// The input chunks pushed for this batch, in order.
    @exclusivity(unchecked) var chunks: [[UInt8]] = []
    /// The parser's warnings while this batch was pushed, in order.
    @exclusivity(unchecked) var findings: [SAXFinding] = []
    /// The document's first error and read failure as known when the batch was handed over,
    /// with the event index each is thrown before.
    @exclusivity(unchecked) var firstError: Diagnostic?
    @exclusivity(unchecked) var firstErrorEvent = Int.max
    @exclusivity(unchecked) var failure: Diagnostic?
    @exclusivity(unchecked) var failureEvent = Int.max
    /// True for the document's last batch.
    @exclusivity(unchecked) var isLast = false

    init() {
        events.reserveCapacity(4096)
        textCapacity = 1 << 16
        textBase = .allocate(capacity: textCapacity)
    }

    deinit { textBase.deallocate() }

    /// The text and attribute values (valid until the batch changes).
    var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: textBase, count: textCount) }

    /// Appends `count` bytes to `text`, growing it by doubling.
    func appendText(_ bytes: UnsafePointer<UInt8>, count: Int) {
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

    /// Drops the text from `count` on.
    func truncateText(to count: Int) { textCount = min(textCount, max(0, count)) }

    /// Empties the batch for the events from `base` on, keeping its memory.
    func reset(base: Int) {
        self.base = base
        events.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        textCount = 0
        chunks.removeAll()
        findings.removeAll()
        firstError = nil
        firstErrorEvent = Int.max
        failure = nil
        failureEvent = Int.max
        isLast = false
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
}

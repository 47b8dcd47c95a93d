@testable import OverlayKit
import OverlayModel
import XCTest

/// libxml2's parse of the next chunks on a thread of its own (`SAXReadAhead`): the reader
/// takes the same batches in the same order as when it pushes them itself.
final class XMLReadAheadTests: XCTestCase {
    /// Every node, its text and attributes, the parser's warnings as taken along the way, and
    /// the error that ended the walk, of `xml` read with and without libxml2 on a thread of its own.
    private func walk(_ xml: String, readsAhead: Bool) throws -> [String] {
        let reader = try XMLStreamReader(input: ByteInput(string: xml), readsAhead: readsAhead)
        var trace: [String] = []
        do {
            while try reader.read() {
                var node = "\(reader.kind) \(reader.localName) \(reader.depth) \(reader.line) \(reader.isEmptyElement)"
                if reader.kind == .element { node += " a=\(reader.attribute("a") ?? "-") q=\(reader.qualifiedName)" }
                if reader.kind == .text { node += " " + reader.withValueBytes { String(decoding: $0, as: UTF8.self) } }
                trace.append(node)
                trace += reader.takeParserWarnings().map { "warning \($0.code) \($0.message) \($0.location?.line ?? 0):\($0.location?.column ?? 0)" }
                if reader.kind == .element && reader.localName == "probe" {
                    let location = reader.location(line: reader.line, needle: "<probe")
                    trace.append("column \(location.line):\(location.column)")
                }
            }
        } catch let error as Diagnostic {
            trace.append("error \(error.code) \(error.message) \(error.location?.line ?? 0):\(error.location?.column ?? 0)")
        }
        trace += reader.takeParserWarnings().map { "warning \($0.code) \($0.message)" }
        return trace
    }

    func testParsingAheadOnAThreadGivesTheSameNodesAndDiagnostics() throws {
        // Several chunks of 64 KB: text runs and CDATA across chunk ends, attributes with `&`,
        // undeclared prefixes (each reported once), columns looked up as the walk goes, and
        // documents ending well, cut short, and broken in the middle.
        var body = ""
        for index in 0..<6_000 {
            body += "<v a=\"\(index)&amp;x\">text \(index)</v><gx:w/>\n"
            if index % 500 == 0 { body += "<probe>" + String(repeating: "long run ", count: 9_000) + "<![CDATA[c\r\nd]]></probe>\n" }
            if index % 1_000 == 7 { body += "<undeclared\(index / 1_000):x>y</undeclared\(index / 1_000):x>\n" }
        }
        let documents = ["<r xmlns:gx=\"g\">\n" + body + "</r>\n",
                         "<r xmlns:gx=\"g\">\n" + body,
                         "<r xmlns:gx=\"g\">\n" + body + "<bad attr=></bad>" + body + "</r>"]
        for (number, document) in documents.enumerated() {
            let alone = try walk(document, readsAhead: false)
            let ahead = try walk(document, readsAhead: true)
            XCTAssertGreaterThan(alone.count, 20_000, "document \(number)")
            XCTAssertEqual(alone.count, ahead.count, "document \(number)")
            XCTAssertEqual(alone, ahead, "document \(number)")
            XCTAssertEqual(alone.last?.hasPrefix("error"), number > 0, "document \(number): \(alone.last ?? "")")
        }
    }

    func testEachSideWaitsOnlyOncePerHalfTheDepth() throws {
        // ~3 MB: about 50 batches of one 64 KB chunk. A side that waits is woken only once half
        // the depth is ready for it, so neither waits more than once per depth/2 batches; the
        // bound checked is a quarter of the batches (one wake-up per batch, as with 3 batches in
        // circulation, is about 50 waits on the faster side).
        var document = "<r>\n"
        for index in 0..<60_000 { document += "<v a=\"\(index)\">some text of the value \(index)</v>\n" }
        document += "</r>\n"
        let reader = try XMLStreamReader(input: ByteInput(string: document), readsAhead: true)
        var nodes = 0
        while try reader.read() { nodes += 1 }
        XCTAssertGreaterThan(nodes, 120_000)
        guard ReadAheadFeatureReader.usableCores > 1 else { return }
        let waits = try XCTUnwrap(reader.readAheadWaits)
        let batches = document.utf8.count / XMLStreamReader.Source.chunkSize + 2
        let bound = batches / 4
        XCTAssertGreaterThan(batches, 40)
        XCTAssertLessThanOrEqual(batches / (SAXReadAhead.depth / 2) + 1, bound)
        XCTAssertLessThanOrEqual(waits.reader, bound)
        XCTAssertLessThanOrEqual(waits.filler, bound)
    }
}

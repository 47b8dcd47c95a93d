#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CLibXML2
import OverlayModel

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
            throw Diagnostic(.error, code: .kmlSchemaUnreadable, message: "xmlSchemaNewParserCtxt failed for \(schemaPath)")
        }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        let schemaCollector = SchemaErrorCollector(file: schemaPath, limit: 20)
        let schemaBox = Unmanaged.passRetained(schemaCollector)
        defer { schemaBox.release() }
        xmlSchemaSetParserStructuredErrors(parserContext, xmlSchemaCollect, schemaBox.toOpaque())
        guard let schema = xmlSchemaParse(parserContext) else {
            let reason = schemaCollector.findings.first.map { ": \($0.location.map { "line \($0.line): " } ?? "")\($0.message)" } ?? ""
            throw Diagnostic(.error, code: .kmlSchemaUnreadable, message: "cannot load the XML Schema \(schemaPath)\(reason)")
        }
        defer { xmlSchemaFree(schema) }
        guard let validContext = xmlSchemaNewValidCtxt(schema) else {
            throw Diagnostic(.error, code: .kmlSchemaUnreadable, message: "xmlSchemaNewValidCtxt failed for \(schemaPath)")
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
    collector.findings.append(Diagnostic(severity, code: .kmlSchema, message: message,
                                         location: SourceLocation(file: collector.file, line: max(1, Int(error.pointee.line)),
                                                                  column: max(1, Int(error.pointee.int2)))))
}

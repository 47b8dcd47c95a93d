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

/// An XML Schema (XSD) loaded and compiled once by libxml2 (`xmlSchemaParse`), to validate any
/// number of documents against. Neither the schema nor a document may reach the network
/// (`XML_PARSE_NONET` and the no-network entity loader); imports must be local files, as in
/// the offline OGC KML 2.2 set.
final class CompiledXMLSchema: @unchecked Sendable {
    /// The schema file as named.
    let path: String
    private let schema: xmlSchemaPtr

    /// Loads and compiles the schema at `path`.
    /// - Throws: `Diagnostic` `kml.schema-unreadable` located at the schema file: at the
    ///   file alone when it cannot be opened, at libxml2's line and column (in the schema or
    ///   the file it imports) when it is not a well-formed or valid XML Schema.
    init(path: String) throws {
        self.path = path
        xmlSetExternalEntityLoader(xmlNoNetExternalEntityLoader)
        if case .failure(let error) = POSIX.checkAccess(path, R_OK) {
            throw Diagnostic(.error, code: .kmlSchemaUnreadable, message: "cannot read the XML Schema: \(error)",
                             location: SourceLocation(file: path, line: 0, column: 0))
        }
        guard let parserContext = xmlSchemaNewParserCtxt(path) else {
            throw Diagnostic(.error, code: .kmlSchemaUnreadable, message: "xmlSchemaNewParserCtxt failed",
                             location: SourceLocation(file: path, line: 0, column: 0))
        }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        let collector = SchemaErrorCollector(file: path, limit: 20, namesOwnFile: false)
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        xmlSchemaSetParserStructuredErrors(parserContext, xmlSchemaCollect, box.toOpaque())
        // The XML parser under the schema parser reports through the global handler (a schema
        // that is not well-formed XML): collected too, with its line and column, not printed.
        xmlSetStructuredErrorFunc(box.toOpaque(), xmlSchemaCollect)
        let parsed = xmlSchemaParse(parserContext)
        xmlSetStructuredErrorFunc(nil, nil)
        guard let schema = parsed else {
            // The first error libxml2 gave, where it gave it (the schema, or a file it imports).
            let first = collector.findings.first
            throw Diagnostic(.error, code: .kmlSchemaUnreadable,
                             message: "not a usable XML Schema: \(first?.message ?? "libxml2 could not compile it")",
                             location: first?.location ?? SourceLocation(file: path, line: 0, column: 0))
        }
        self.schema = schema
    }

    deinit { xmlSchemaFree(schema) }

    /// Every violation of the schema by a document, with its line (and column when libxml2
    /// gives one), up to `limit`. The document is streamed from `path` when given, else parsed
    /// from `bytes`; findings name it `displayName`.
    func violations(path: String?, bytes: [UInt8]?, displayName: String?, limit: Int = 1000) throws -> [Diagnostic] {
        xmlSetExternalEntityLoader(xmlNoNetExternalEntityLoader)
        let collector = SchemaErrorCollector(file: displayName, limit: limit)
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        guard let validContext = xmlSchemaNewValidCtxt(schema) else {
            throw Diagnostic(.error, code: .kmlSchemaUnreadable, message: "xmlSchemaNewValidCtxt failed",
                             location: SourceLocation(file: self.path, line: 0, column: 0))
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

    /// Whether findings always name `file` (a document's, whatever libxml2 calls it), rather
    /// than the file libxml2 names (a schema and the schemas it imports).
    let namesOwnFile: Bool

    init(file: String?, limit: Int, namesOwnFile: Bool = true) {
        self.file = file
        self.limit = limit
        self.namesOwnFile = namesOwnFile
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
    // A schema error may lie in a file the schema imports: libxml2 names it.
    let file = collector.namesOwnFile ? collector.file : error.pointee.file.map { String(cString: $0) } ?? collector.file
    collector.findings.append(Diagnostic(severity, code: .kmlSchema, message: message,
                                         location: SourceLocation(file: file, line: max(1, Int(error.pointee.line)),
                                                                  column: max(1, Int(error.pointee.int2)))))
}

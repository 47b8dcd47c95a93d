import OverlayModel

extension XMLStreamReader {
    /// The line and column of a byte offset inside an element's text (e.g. a malformed tuple in
    /// `coordinates`): newlines inside the text give the line directly; on the element's own
    /// line the column is counted from the element's `>` in the source.
    func location(ofTextOffset offset: Int, in text: [UInt8], elementLine: Int, elementName: String,
                  kmlPath: String? = nil) -> SourceLocation {
        var newlines = 0
        var lastNewline = -1
        for index in 0..<min(offset, text.count) where text[index] == 0x0A {
            newlines += 1
            lastNewline = index
        }
        if newlines > 0 {
            return SourceLocation(file: fileName, line: elementLine + newlines, column: offset - lastNewline, kmlPath: kmlPath)
        }
        return location(line: elementLine, needle: ">", after: elementName, offset: 1 + offset, kmlPath: kmlPath)
    }
}

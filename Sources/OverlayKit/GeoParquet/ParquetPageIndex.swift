/// One column chunk's page index, as Parquet's OffsetIndex and ColumnIndex state it: where each
/// data page is and its first row, and (when asked for) each page's min and max, plain-encoded.
/// Everything is checked against the file and the row group before it is used: the structures
/// lie before the footer, each page inside its column chunk, the first rows start at 0 and
/// rise strictly below the row group's row count, and both indexes count the same pages. The
/// min and max themselves are trusted, as DuckDB and GDAL trust them.
struct ParquetPageIndex: Sendable {
    /// One data page.
    struct Page: Sendable, Equatable {
        /// The page's offset in the file (its header's first byte).
        var offset: Int64
        /// The page's size, header included.
        var size: Int
        /// The row group's row at which the page starts.
        var firstRow: Int
    }

    /// The data pages in order (dictionary pages are not listed).
    var pages: [Page]
    /// Per page, when the ColumnIndex was read: whether it holds only nulls, and its min and max.
    var nullPages: [Bool]?
    var minimums: [[UInt8]]?
    var maximums: [[UInt8]]?

    /// The largest page index structure read (writers write a few bytes a page).
    static let maxBytes = 64 << 20

    /// The rows page `index` holds, of a row group of `rowCount` rows.
    func rows(ofPage index: Int, rowCount: Int) -> Range<Int> {
        pages[index].firstRow..<(index + 1 < pages.count ? pages[index + 1].firstRow : rowCount)
    }

    /// Reads the page index of `chunk`, a column chunk of a row group of `rowCount` rows.
    /// - Parameters:
    ///   - source: the file.
    ///   - chunk: the column chunk, whose offset index is read (and column index, when `bounds`).
    ///   - rowCount: the row group's rows.
    ///   - dataEnd: where the footer starts (the page index lies before it).
    ///   - bounds: whether to read the ColumnIndex (page min and max) too.
    /// - Returns: nil when the chunk has no offset index (or no column index, when `bounds`).
    /// - Throws: `ParquetDecodingFailure` saying what is inconsistent.
    static func read(_ source: RandomAccessBytes, chunk: ParquetFooter.ColumnChunk, rowCount: Int, dataEnd: Int64,
                     bounds: Bool) throws -> ParquetPageIndex? {
        guard let offsetLocation = chunk.offsetIndex else { return nil }
        let columnLocation = chunk.columnIndex
        if bounds && columnLocation == nil { return nil }
        let offsets = try structure(source, offsetLocation, dataEnd: dataEnd, name: "offset index")
        guard let list = offsets[1]?.list, !list.isEmpty else { throw ParquetDecodingFailure(reason: "the offset index lists no page") }
        guard list.count <= rowCount else {
            throw ParquetDecodingFailure(reason: "the offset index lists \(list.count) pages for \(rowCount) rows")
        }
        let chunkEnd = chunk.start + chunk.compressedSize  // the footer checked both against the file
        var pages = [Page]()
        pages.reserveCapacity(list.count)
        for (number, value) in list.enumerated() {
            guard let location = value.structure, let offset = location[1]?.integer, let size = location.int(2),
                  let firstRow = location.int(3) else {
                throw ParquetDecodingFailure(reason: "the offset index's page \(number) lacks its offset, size or first row")
            }
            guard offset >= chunk.start, size > 0, Int64(size) <= chunkEnd - offset else {
                throw ParquetDecodingFailure(reason: "the offset index places page \(number) at \(offset) (\(size) bytes), outside its column chunk at \(chunk.start)..<\(chunkEnd)")
            }
            guard firstRow == 0 && number == 0 || number > 0 && firstRow > pages[number - 1].firstRow && firstRow < rowCount,
                  number == 0 || offset >= pages[number - 1].offset + Int64(pages[number - 1].size) else {
                throw ParquetDecodingFailure(reason: "the offset index's page \(number) starts at row \(firstRow) (offset \(offset)): the pages' first rows must rise from 0 below the row group's \(rowCount) rows, in file order")
            }
            pages.append(Page(offset: offset, size: size, firstRow: firstRow))
        }
        var index = ParquetPageIndex(pages: pages)
        guard bounds, let columnLocation else { return index }
        let column = try structure(source, columnLocation, dataEnd: dataEnd, name: "column index")
        guard let nulls = column[1]?.list, let minimums = column[2]?.list, let maximums = column[3]?.list else {
            throw ParquetDecodingFailure(reason: "the column index lacks its null pages, min or max values")
        }
        guard nulls.count == pages.count, minimums.count == pages.count, maximums.count == pages.count else {
            throw ParquetDecodingFailure(reason: "the column index counts \(nulls.count) null flags, \(minimums.count) min and \(maximums.count) max values where the offset index lists \(pages.count) pages")
        }
        index.nullPages = nulls.map { $0.integer != 0 }
        index.minimums = minimums.map { $0.binary ?? [] }
        index.maximums = maximums.map { $0.binary ?? [] }
        return index
    }

    /// The Thrift struct at `location`, which must lie between the magic and the footer.
    private static func structure(_ source: RandomAccessBytes, _ location: ParquetFooter.IndexLocation, dataEnd: Int64,
                                  name: String) throws -> ThriftStruct {
        guard location.offset >= 4, location.length > 0, location.length <= Int64(maxBytes),
              location.offset <= dataEnd - location.length else {
            throw ParquetDecodingFailure(reason: "the \(name) (offset \(location.offset), \(location.length) bytes) points outside the file's \(dataEnd) bytes before its footer")
        }
        let bytes = try source.read(at: location.offset, count: Int(location.length))
        guard bytes.count == Int(location.length) else { throw ParquetDecodingFailure(reason: "the \(name) runs past the end of the file") }
        var decoder = CompactThriftDecoder(bytes)
        do { return try decoder.readStruct() } catch let failure as CompactThriftDecoder.Failure {
            throw ParquetDecodingFailure(reason: "the \(name) is corrupt: \(failure.reason)")
        }
    }
}

import OverlayModel

/// The rows of one row group a query box may need, from the page indexes of the 1.1 covering
/// columns: a row is left out only when, for the pages that hold it in the four columns, the box
/// from the xmin and ymin pages' minimums to the xmax and ymax pages' maximums cannot meet the
/// query (``RowGroupBox/mayMeet(_:)``). The four columns' pages may start at different rows;
/// the test runs on every stretch of rows between two page starts of any of them.
struct PageRowSelection: Sendable, Equatable {
    /// The rows kept: sorted, disjoint, not touching, inside the row group.
    var ranges: [Range<Int>]
    /// The covering columns' pages (of the four together) none of whose rows is kept.
    var pagesSkipped: Int
    /// How many rows are kept.
    var rowCount: Int { ranges.reduce(0) { $0 + $1.count } }

    /// The selection for `query`.
    /// - Parameters:
    ///   - columns: per covering column (xmin, ymin, xmax, ymax), its pages' first rows (rising
    ///     from 0) and bounds: the minimum for xmin and ymin, the maximum for xmax and ymax (nil
    ///     when the page has none: all nulls, or a value that is not a number).
    ///   - rowCount: the row group's rows.
    ///   - query: the box asked for.
    /// O(P log P) for P pages in all.
    init(columns: [[(firstRow: Int, bound: Double?)]], rowCount: Int, query: GeographicBox) {
        precondition(columns.count == 4)
        let starts = Set(columns.flatMap { pages in pages.map { $0.firstRow } }).sorted()
        var page = [Int](repeating: 0, count: 4)
        var kept = [Range<Int>]()
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : rowCount
            var bounds = [Double?]()
            for column in 0..<4 {
                while page[column] + 1 < columns[column].count && columns[column][page[column] + 1].firstRow <= start { page[column] += 1 }
                bounds.append(columns[column][page[column]].bound)
            }
            let meets: Bool
            if let xmin = bounds[0], let ymin = bounds[1], let xmax = bounds[2], let ymax = bounds[3] {
                meets = RowGroupBox(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax).mayMeet(query)
            } else {
                meets = true
            }
            guard meets, start < end else { continue }
            if let last = kept.last, last.upperBound == start {
                kept[kept.count - 1] = last.lowerBound..<end
            } else {
                kept.append(start..<end)
            }
        }
        ranges = kept
        var skipped = 0
        for column in columns {
            for (number, entry) in column.enumerated() {
                let rows = entry.firstRow..<(number + 1 < column.count ? column[number + 1].firstRow : rowCount)
                if !kept.contains(where: { $0.overlaps(rows) }) { skipped += 1 }
            }
        }
        pagesSkipped = skipped
    }

    /// The pages of `index` that hold a row of `ranges` (both in row order). O(pages + ranges).
    static func pages(of index: ParquetPageIndex, meeting ranges: [Range<Int>], rowCount: Int) -> [Int] {
        var selected = [Int]()
        var next = 0
        for page in index.pages.indices {
            let rows = index.rows(ofPage: page, rowCount: rowCount)
            while next < ranges.count && ranges[next].upperBound <= rows.lowerBound { next += 1 }
            if next < ranges.count && ranges[next].overlaps(rows) { selected.append(page) }
        }
        return selected
    }
}

extension ColumnChunkData {
    /// The entries and values of the rows in `kept`, from a chunk that holds the rows of
    /// `decoded` (both sorted; `kept` inside `decoded`). A row starts at each entry of
    /// repetition level 0 (every entry when the leaf has no repetition).
    func keepingRows(_ kept: [Range<Int>], decoded: [Range<Int>], leaf: ParquetLeaf) -> ColumnChunkData {
        var result = ColumnChunkData(values: ParquetValues(type: values.type))
        var decodedIndex = 0, positionInRange = -1
        var keptIndex = 0
        var keeping = false
        var valueIndex = 0
        for entry in 0..<entryCount {
            if repetitions.isEmpty || repetitions[entry] == 0 {
                positionInRange += 1
                while decodedIndex < decoded.count && positionInRange >= decoded[decodedIndex].count {
                    positionInRange -= decoded[decodedIndex].count
                    decodedIndex += 1
                }
                guard decodedIndex < decoded.count else { break }
                let row = decoded[decodedIndex].lowerBound + positionInRange
                while keptIndex < kept.count && kept[keptIndex].upperBound <= row { keptIndex += 1 }
                keeping = keptIndex < kept.count && kept[keptIndex].contains(row)
            }
            let present = definitions.isEmpty || definitions[entry] == Int32(leaf.maxDefinition)
            if keeping {
                if !definitions.isEmpty { result.definitions.append(definitions[entry]) }
                if !repetitions.isEmpty { result.repetitions.append(repetitions[entry]) }
                if present && valueIndex < values.count { result.values.append(from: values, at: valueIndex) }
                result.entryCount += 1
            }
            if present { valueIndex += 1 }
        }
        return result
    }

    /// How many rows the chunk's entries hold.
    var rowCount: Int { repetitions.isEmpty ? entryCount : repetitions.reduce(0) { $0 + ($1 == 0 ? 1 : 0) } }
}

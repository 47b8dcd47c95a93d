/// A fixed grid of square cells over a rectangle, each cell listing the items (points, segments)
/// registered in it, stored flat (counted, then filled): the spatial index of
/// `CoverageSimplifier`. Coordinates outside the rectangle fall in the
/// border cells.
struct UniformGrid {
    let minX: Double, minY: Double
    let cellSize: Double
    let columns: Int, rows: Int
    /// Cell `c`'s items are `items[cellStarts[c]..<cellStarts[c + 1]]`.
    private(set) var cellStarts: [Int32]
    private(set) var items: [Int32]

    /// A grid over `minX…maxX × minY…maxY` with cells at least `minimumCellSize` across and
    /// about `itemCount` cells in all (at most 4·`itemCount` + 16), filled with items `0..<itemCount`:
    /// `cells(item, visit)` calls `visit` with each cell the item lies in (see `forEachCell`).
    init(minX: Double, minY: Double, maxX: Double, maxY: Double, minimumCellSize: Double, itemCount: Int,
         cells: (_ item: Int, _ grid: UniformGrid, _ visit: (Int) -> Void) -> Void) {
        self.init(minX: minX, minY: minY, maxX: maxX, maxY: maxY, minimumCellSize: minimumCellSize, itemCount: itemCount)
        // One walk over the items, noting each (cell, item) in item order; then a counting sort
        // by cell, which keeps that order within a cell.
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var pairCells = [Int32](), pairItems = [Int32]()
        pairCells.reserveCapacity(itemCount)
        pairItems.reserveCapacity(itemCount)
        for item in 0..<itemCount {
            cells(item, self) { cell in
                counts[cell + 1] += 1
                pairCells.append(Int32(truncatingIfNeeded: cell))
                pairItems.append(Int32(truncatingIfNeeded: item))
            }
        }
        for cell in 0..<columns * rows { counts[cell + 1] += counts[cell] }
        var fill = counts
        var filled = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for pair in pairCells.indices {
            let cell = Int(pairCells[pair])
            filled[Int(fill[cell])] = pairItems[pair]
            fill[cell] += 1
        }
        cellStarts = counts
        items = filled
    }

    /// The grid of the other initializer for items that lie in one cell each (points):
    /// `cell(item, grid)` is the item's cell, asked twice (to count, then to fill) instead of
    /// noting every pair; the cells hold the same items in the same order.
    init(minX: Double, minY: Double, maxX: Double, maxY: Double, minimumCellSize: Double, itemCount: Int,
         cell: (_ item: Int, _ grid: UniformGrid) -> Int) {
        self.init(minX: minX, minY: minY, maxX: maxX, maxY: maxY, minimumCellSize: minimumCellSize, itemCount: itemCount)
        let cellCount = columns * rows
        var counts = [Int32](repeating: 0, count: cellCount + 1)
        for item in 0..<itemCount { counts[cell(item, self) + 1] += 1 }
        for index in 0..<cellCount { counts[index + 1] += counts[index] }
        var fill = counts
        var filled = [Int32](repeating: 0, count: Int(counts[cellCount]))
        for item in 0..<itemCount {
            let at = cell(item, self)
            filled[Int(fill[at])] = Int32(truncatingIfNeeded: item)
            fill[at] += 1
        }
        cellStarts = counts
        items = filled
    }

    /// The grid's size and shape, with no items yet.
    private init(minX: Double, minY: Double, maxX: Double, maxY: Double, minimumCellSize: Double, itemCount: Int) {
        let width = max(maxX - minX, 0), height = max(maxY - minY, 0)
        let target = Double(max(itemCount, 1))
        var size = max(minimumCellSize, ((width * height) / target).squareRoot(), max(width, height) / target)
        if !(size.isFinite && size > 0) { size = 1 }
        // Never more than 4n + 16 cells, whatever the shape of the rectangle. A side beyond any
        // Double (corners at ±1e308) makes one cell of infinite size.
        if !(width.isFinite && height.isFinite) { size = .infinity }
        while size.isFinite && (width / size + 1) * (height / size + 1) > 4 * target + 16 { size *= 2 }
        self.minX = minX
        self.minY = minY
        cellSize = size
        columns = size.isFinite ? Int(saturating: (width / size).rounded(.down)) + 1 : 1
        rows = size.isFinite ? Int(saturating: (height / size).rounded(.down)) + 1 : 1
        cellStarts = []
        items = []
    }

    @inline(__always)
    func column(_ x: Double) -> Int {
        let value = ((x - minX) / cellSize).rounded(.down)
        // NaN (∞ / ∞) falls in the first cell, as values below the grid do.
        return value >= 0 ? value >= Double(columns - 1) ? columns - 1 : Int(value) : 0
    }

    @inline(__always)
    func row(_ y: Double) -> Int {
        let value = ((y - minY) / cellSize).rounded(.down)
        return value >= 0 ? value >= Double(rows - 1) ? rows - 1 : Int(value) : 0
    }

    /// The cell of a point.
    @inline(__always)
    func cell(x: Double, y: Double) -> Int { row(y) * columns + column(x) }

    /// Calls `visit` with every cell that holds a point within `pad` (in x and in y) of the segment
    /// from (ax, ay) to (bx, by): per column, the rows the segment spans there. O(cells visited).
    @inline(__always)
    func forEachCell(ax: Double, ay: Double, bx: Double, by: Double, pad: Double, _ visit: (Int) -> Void) {
        let lowX = min(ax, bx), highX = max(ax, bx)
        let firstColumn = column(lowX - pad), lastColumn = column(highX + pad)
        if firstColumn == lastColumn {
            for row in row(min(ay, by) - pad)...row(max(ay, by) + pad) { visit(row * columns + firstColumn) }
            return
        }
        let dx = bx - ax, dy = by - ay
        for column in firstColumn...lastColumn {
            let left = minX + Double(column) * cellSize, right = left + cellSize
            let xa = min(max(column == firstColumn ? lowX : left - pad, lowX), highX)
            let xb = min(max(column == lastColumn ? highX : right + pad, lowX), highX)
            var ya = ay, yb = by
            if dx != 0 {
                ya = ay + (xa - ax) / dx * dy
                yb = ay + (xb - ax) / dx * dy
            }
            for row in row(min(ya, yb) - pad)...row(max(ya, yb) + pad) { visit(row * columns + column) }
        }
    }

    /// The items registered in `cell`.
    @inline(__always)
    func items(in cell: Int) -> ArraySlice<Int32> { items[Int(cellStarts[cell])..<Int(cellStarts[cell + 1])] }

    /// Calls `body` with every item of every cell `forEachCell` visits, cell by cell, reading the
    /// cells without copying them (the walk of every segment of a tile's arcs).
    @inline(__always)
    func forEachItem(ax: Double, ay: Double, bx: Double, by: Double, pad: Double, _ body: (Int) -> Void) {
        items.withUnsafeBufferPointer { items in
            cellStarts.withUnsafeBufferPointer { starts in
                forEachCell(ax: ax, ay: ay, bx: bx, by: by, pad: pad) { cell in
                    var index = Int(starts[cell])
                    let end = Int(starts[cell + 1])
                    while index < end {
                        body(Int(items[index]))
                        index += 1
                    }
                }
            }
        }
    }
}

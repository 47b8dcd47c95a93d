/// An axis-aligned box in device pixels.
struct ScreenBox: Hashable, Sendable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    /// True when the boxes share more than an edge, or come closer than `gap` pixels.
    func intersects(_ other: ScreenBox, gap: Double = 0) -> Bool {
        minX < other.maxX + gap && other.minX < maxX + gap && minY < other.maxY + gap && other.minY < maxY + gap
    }
}

/// The boxes placed so far on a picture, found by a uniform grid over it: a query looks only at
/// the boxes in the cells it touches. Only boxes that meet the picture take part (labels are
/// placed only wholly on it, and obstacles are clipped to it), and for those the grid over the
/// picture alone finds every collision: two boxes that both meet the picture and meet each other
/// also meet each other inside it (Helly's theorem, axis by axis). Boxes placed through it never
/// overlap, so it holds at most as many as fit on the picture: memory bounded by the picture,
/// whatever the input. O(1) per query for boxes about a cell's size.
struct CollisionGrid {
    /// Placed boxes closer than this many device pixels collide: their drawn boxes stay apart
    /// even after SVG rounds coordinates to hundredths.
    static let gap = 1.0

    /// The picture, grown by the gap.
    let picture: ScreenBox
    private let cellSize: Double
    private let columns: Int64
    private let rows: Int64
    private var boxes: [ScreenBox] = []
    private var cells: [Int64: [Int32]] = [:]

    /// A grid of square cells `cellSize` device pixels wide (a few labels' heights) over a
    /// picture `width` × `height` device pixels.
    init(width: Double, height: Double, cellSize: Double) {
        let gap = CollisionGrid.gap
        picture = ScreenBox(minX: -gap, minY: -gap, maxX: width + gap, maxY: height + gap)
        self.cellSize = max(1, cellSize)
        columns = Int64(((width + 2 * gap) / self.cellSize).rounded(.up)) + 1
        rows = Int64(((height + 2 * gap) / self.cellSize).rounded(.up)) + 1
    }

    /// True when the box lies wholly on the picture (a label cut by the edge is no label).
    func holdsWhole(_ box: ScreenBox) -> Bool {
        box.minX >= picture.minX + CollisionGrid.gap && box.maxX <= picture.maxX - CollisionGrid.gap
            && box.minY >= picture.minY + CollisionGrid.gap && box.maxY <= picture.maxY - CollisionGrid.gap
    }

    /// True when `box` comes within `gap` of a box already placed.
    func collides(_ box: ScreenBox) -> Bool {
        var hit = false
        forEachCell(of: box) { key in
            guard !hit, let indices = cells[key] else { return }
            for index in indices where boxes[Int(index)].intersects(box, gap: CollisionGrid.gap) {
                hit = true
                return
            }
        }
        return hit
    }

    /// Places a box (whether or not it collides: callers test first, or add obstacles).
    mutating func insert(_ box: ScreenBox) {
        let index = Int32(truncatingIfNeeded: boxes.count)
        boxes.append(box)
        forEachCell(of: box) { cells[$0, default: []].append(index) }
    }

    /// Calls `body` with the key of every cell of the picture the box (grown by the gap)
    /// touches: at most the picture's cells, however large the box.
    private func forEachCell(of box: ScreenBox, _ body: (Int64) -> Void) {
        let gap = CollisionGrid.gap
        func cell(_ value: Double, from origin: Double, count: Int64) -> Int64 {
            let index = ((value - origin) / cellSize).rounded(.down)
            return index.isNaN ? 0 : Int64(max(0, min(Double(count - 1), index)))
        }
        let firstX = cell(box.minX - gap, from: picture.minX, count: columns)
        let lastX = cell(box.maxX + gap, from: picture.minX, count: columns)
        let firstY = cell(box.minY - gap, from: picture.minY, count: rows)
        let lastY = cell(box.maxY + gap, from: picture.minY, count: rows)
        for x in firstX...lastX {
            for y in firstY...lastY { body(x &* rows &+ y) }
        }
    }
}

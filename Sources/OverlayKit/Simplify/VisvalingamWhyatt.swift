/// Visvalingam-Whyatt simplification as per-vertex importance: each interior vertex gets the
/// area of the triangle it forms with its neighbours at the moment it would be removed
/// (never less than an earlier removal's, so importance is monotone); a threshold on that area
/// then gives the simplification for any tolerance. Limit: VW bounds areas, not distances, so
/// unlike Douglas-Peucker the result can stray farther than √area from the input.
package enum VisvalingamWhyatt {
    /// Writes effective areas (map points²) into slot 2 of the triples `first...last` of a flat
    /// `[x, y, importance]` buffer; the end vertices are left as they are. O(n log n).
    package static func computeImportance(_ coordinates: inout [Double], first: Int, last: Int) {
        let count = last - first + 1
        guard count > 2 else { return }
        var previous = Array(-1..<(count - 1)), next = Array(1...count)
        var area = [Double](repeating: .infinity, count: count)
        func triangle(_ a: Int, _ b: Int, _ c: Int) -> Double {
            let ax = coordinates[(first + a) * 3], ay = coordinates[(first + a) * 3 + 1]
            let bx = coordinates[(first + b) * 3], by = coordinates[(first + b) * 3 + 1]
            let cx = coordinates[(first + c) * 3], cy = coordinates[(first + c) * 3 + 1]
            return abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
        }
        var heap = MinHeap()
        for index in 1..<(count - 1) {
            area[index] = triangle(index - 1, index, index + 1)
            heap.push(area[index], index)
        }
        var floor = 0.0
        while let (value, index) = heap.pop() {
            guard value == area[index], next[index] < count else { continue }     // stale entry
            floor = max(floor, value)
            coordinates[(first + index) * 3 + 2] = floor
            area[index] = -1
            let before = previous[index], after = next[index]
            next[before] = after
            previous[after] = before
            for neighbour in [before, after] where neighbour > 0 && neighbour < count - 1 {
                area[neighbour] = triangle(previous[neighbour], neighbour, next[neighbour])
                heap.push(area[neighbour], neighbour)
            }
        }
    }

    /// A binary min-heap of (area, vertex), ties broken by vertex for determinism.
    private struct MinHeap {
        private var items: [(Double, Int)] = []

        private static func less(_ a: (Double, Int), _ b: (Double, Int)) -> Bool { a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) }

        mutating func push(_ value: Double, _ index: Int) {
            items.append((value, index))
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.less(items[child], items[parent]) else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> (Double, Int)? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < items.count && Self.less(items[left], items[smallest]) { smallest = left }
                    if right < items.count && Self.less(items[right], items[smallest]) { smallest = right }
                    if smallest == parent { break }
                    items.swapAt(parent, smallest)
                    parent = smallest
                }
            }
            return top
        }
    }
}

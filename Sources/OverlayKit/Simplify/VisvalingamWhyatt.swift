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
        // (area, vertex): ties broken by vertex for determinism.
        var heap = BinaryMinHeap<(Double, Int)>(by: <)
        for index in 1..<(count - 1) {
            area[index] = triangle(index - 1, index, index + 1)
            heap.push((area[index], index))
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
                heap.push((area[neighbour], neighbour))
            }
        }
    }
}

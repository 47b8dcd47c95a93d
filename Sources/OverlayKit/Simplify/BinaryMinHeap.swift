/// A binary min-heap ordered by `less`: Visvalingam–Whyatt's smallest triangle next, and a
/// distributed tile run's merge of sorted streams (the smallest head next).
struct BinaryMinHeap<Element> {
    private var items: [Element] = []
    private let less: (Element, Element) -> Bool

    /// An empty heap; `less` must be a strict weak order (ties broken by the caller for determinism).
    init(by less: @escaping (Element, Element) -> Bool) {
        self.less = less
    }

    /// Adds `item`.
    mutating func push(_ item: Element) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// The smallest element, removed; nil when empty.
    mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count && less(items[left], items[smallest]) { smallest = left }
            if right < items.count && less(items[right], items[smallest]) { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}

/// The status structure of a plane sweep: the segments the sweep line currently crosses,
/// ordered bottom to top, as a treap over segment ids with parent links.
///
/// Order is decided only when a segment is inserted (by a comparison the caller supplies, valid
/// at that moment of the sweep); removal and neighbour lookup go by id through parent links, so
/// they never re-evaluate geometry. Insert, remove, predecessor and successor are O(log n)
/// expected; priorities come from a fixed-seed generator so runs are reproducible.
struct SweepStatusTree {
    private var left: [Int32]
    private var right: [Int32]
    private var parent: [Int32]
    private var priority: [UInt32]
    private var root: Int32 = -1
    private var seed: UInt32 = 0x9E37_79B9

    /// A tree able to hold segment ids `0..<capacity`.
    init(capacity: Int) {
        left = [Int32](repeating: -1, count: capacity)
        right = left
        parent = left
        priority = [UInt32](repeating: 0, count: capacity)
    }

    var isEmpty: Bool { root < 0 }

    /// Inserts `id`; `isAbove(existing)` tells whether the new segment lies above `existing`.
    mutating func insert(_ id: Int, isAbove: (Int) -> Bool) {
        let node = Int32(id)
        seed ^= seed << 13
        seed ^= seed >> 17
        seed ^= seed << 5
        priority[id] = seed
        left[id] = -1
        right[id] = -1
        var current = root
        var above = false
        var last: Int32 = -1
        while current >= 0 {
            last = current
            above = isAbove(Int(current))
            current = above ? right[Int(current)] : left[Int(current)]
        }
        parent[id] = last
        if last < 0 {
            root = node
            return
        }
        if above { right[Int(last)] = node } else { left[Int(last)] = node }
        while parent[id] >= 0 && priority[Int(parent[id])] > priority[id] {
            rotateUp(node)
        }
    }

    /// Removes `id`, which must be in the tree.
    mutating func remove(_ id: Int) {
        let node = Int32(id)
        while left[id] >= 0 || right[id] >= 0 {
            let child: Int32
            if left[id] < 0 {
                child = right[id]
            } else if right[id] < 0 {
                child = left[id]
            } else {
                child = priority[Int(left[id])] < priority[Int(right[id])] ? left[id] : right[id]
            }
            rotateUp(child)
        }
        let up = parent[id]
        if up < 0 {
            root = -1
        } else if left[Int(up)] == node {
            left[Int(up)] = -1
        } else {
            right[Int(up)] = -1
        }
        parent[id] = -1
    }

    /// The segment directly below `id`, or nil.
    func below(_ id: Int) -> Int? {
        var node = Int32(id)
        if left[id] >= 0 {
            node = left[id]
            while right[Int(node)] >= 0 { node = right[Int(node)] }
            return Int(node)
        }
        while parent[Int(node)] >= 0 {
            let up = parent[Int(node)]
            if right[Int(up)] == node { return Int(up) }
            node = up
        }
        return nil
    }

    /// The segment directly above `id`, or nil.
    func above(_ id: Int) -> Int? {
        var node = Int32(id)
        if right[id] >= 0 {
            node = right[id]
            while left[Int(node)] >= 0 { node = left[Int(node)] }
            return Int(node)
        }
        while parent[Int(node)] >= 0 {
            let up = parent[Int(node)]
            if left[Int(up)] == node { return Int(up) }
            node = up
        }
        return nil
    }

    /// Lifts `node` above its parent, keeping in-order sequence.
    private mutating func rotateUp(_ node: Int32) {
        let x = Int(node)
        let p = Int(parent[x])
        let grand = parent[p]
        if left[p] == node {
            left[p] = right[x]
            if right[x] >= 0 { parent[Int(right[x])] = Int32(p) }
            right[x] = Int32(p)
        } else {
            right[p] = left[x]
            if left[x] >= 0 { parent[Int(left[x])] = Int32(p) }
            left[x] = Int32(p)
        }
        parent[p] = node
        parent[x] = grand
        if grand < 0 {
            root = node
        } else if left[Int(grand)] == Int32(p) {
            left[Int(grand)] = node
        } else {
            right[Int(grand)] = node
        }
    }
}

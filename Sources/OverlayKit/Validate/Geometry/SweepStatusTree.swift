/// The status structure of a plane sweep: the segments the sweep line currently crosses,
/// ordered bottom to top, as a treap over segment ids with parent links.
///
/// Order is decided only when a segment is inserted (by a comparison the caller supplies, valid
/// at that moment of the sweep); removal and neighbour lookup go by id through parent links, so
/// they never re-evaluate geometry. Insert, remove, predecessor and successor are O(log n)
/// expected; priorities come from a fixed-seed generator so runs are reproducible.
struct SweepStatusTree {
    /// Links and heap priority of one segment, together so one cache line serves a visit.
    private struct Node {
        var left: Int32 = -1
        var right: Int32 = -1
        var parent: Int32 = -1
        var priority: UInt32 = 0
    }

    private var nodes: [Node]
    private var root: Int32 = -1
    private var seed: UInt32 = 0x9E37_79B9

    /// A tree able to hold segment ids `0..<capacity`.
    init(capacity: Int) {
        nodes = [Node](repeating: Node(), count: capacity)
    }

    var isEmpty: Bool { root < 0 }

    /// Inserts `id`; `isAbove(existing)` tells whether the new segment lies above `existing`.
    mutating func insert(_ id: Int, isAbove: (Int) -> Bool) {
        seed ^= seed << 13
        seed ^= seed >> 17
        seed ^= seed << 5
        let priority = seed
        let node = Int32(id)
        nodes.withUnsafeMutableBufferPointer { nodes in
            nodes[id] = Node(priority: priority)
            var current = root
            var above = false
            var last: Int32 = -1
            while current >= 0 {
                last = current
                above = isAbove(Int(current))
                current = above ? nodes[Int(current)].right : nodes[Int(current)].left
            }
            nodes[id].parent = last
            if last < 0 {
                root = node
                return
            }
            if above { nodes[Int(last)].right = node } else { nodes[Int(last)].left = node }
            while nodes[id].parent >= 0 && nodes[Int(nodes[id].parent)].priority > priority {
                SweepStatusTree.rotateUp(node, in: nodes, root: &root)
            }
        }
    }

    /// Removes `id`, which must be in the tree.
    mutating func remove(_ id: Int) {
        let node = Int32(id)
        nodes.withUnsafeMutableBufferPointer { nodes in
            while nodes[id].left >= 0 || nodes[id].right >= 0 {
                let left = nodes[id].left, right = nodes[id].right
                let child: Int32
                if left < 0 {
                    child = right
                } else if right < 0 {
                    child = left
                } else {
                    child = nodes[Int(left)].priority < nodes[Int(right)].priority ? left : right
                }
                SweepStatusTree.rotateUp(child, in: nodes, root: &root)
            }
            let up = nodes[id].parent
            if up < 0 {
                root = -1
            } else if nodes[Int(up)].left == node {
                nodes[Int(up)].left = -1
            } else {
                nodes[Int(up)].right = -1
            }
            nodes[id].parent = -1
        }
    }

    /// Puts `new` where `old` is, in the same place in the order (a ring passing through a
    /// vertex: the segment leaving it takes the place of the one arriving). O(1).
    mutating func replace(_ old: Int, with new: Int) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            let node = nodes[old]
            nodes[new] = node
            let newID = Int32(new)
            if node.parent < 0 {
                root = newID
            } else if nodes[Int(node.parent)].left == Int32(old) {
                nodes[Int(node.parent)].left = newID
            } else {
                nodes[Int(node.parent)].right = newID
            }
            if node.left >= 0 { nodes[Int(node.left)].parent = newID }
            if node.right >= 0 { nodes[Int(node.right)].parent = newID }
            nodes[old] = Node()
        }
    }

    /// The segment directly below `id`, or nil.
    func below(_ id: Int) -> Int? {
        nodes.withUnsafeBufferPointer { nodes in
            var node = Int32(id)
            if nodes[id].left >= 0 {
                node = nodes[id].left
                while nodes[Int(node)].right >= 0 { node = nodes[Int(node)].right }
                return Int(node)
            }
            while nodes[Int(node)].parent >= 0 {
                let up = nodes[Int(node)].parent
                if nodes[Int(up)].right == node { return Int(up) }
                node = up
            }
            return nil
        }
    }

    /// The segment directly above `id`, or nil.
    func above(_ id: Int) -> Int? {
        nodes.withUnsafeBufferPointer { nodes in
            var node = Int32(id)
            if nodes[id].right >= 0 {
                node = nodes[id].right
                while nodes[Int(node)].left >= 0 { node = nodes[Int(node)].left }
                return Int(node)
            }
            while nodes[Int(node)].parent >= 0 {
                let up = nodes[Int(node)].parent
                if nodes[Int(up)].left == node { return Int(up) }
                node = up
            }
            return nil
        }
    }

    /// Lifts `node` above its parent, keeping the in-order sequence.
    private static func rotateUp(_ node: Int32, in nodes: UnsafeMutableBufferPointer<Node>, root: inout Int32) {
        let x = Int(node)
        let p = Int(nodes[x].parent)
        let grand = nodes[p].parent
        if nodes[p].left == node {
            nodes[p].left = nodes[x].right
            if nodes[x].right >= 0 { nodes[Int(nodes[x].right)].parent = Int32(p) }
            nodes[x].right = Int32(p)
        } else {
            nodes[p].right = nodes[x].left
            if nodes[x].left >= 0 { nodes[Int(nodes[x].left)].parent = Int32(p) }
            nodes[x].left = Int32(p)
        }
        nodes[p].parent = node
        nodes[x].parent = grand
        if grand < 0 {
            root = node
        } else if nodes[Int(grand)].left == Int32(p) {
            nodes[Int(grand)].left = node
        } else {
            nodes[Int(grand)].right = node
        }
    }
}

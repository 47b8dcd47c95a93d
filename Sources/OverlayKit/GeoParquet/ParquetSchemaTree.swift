/// The schema as a tree: each node with the definition and repetition levels it sits at and
/// the range of leaf columns (in column order) below it.
struct ParquetSchemaTree: Sendable {
    /// One node.
    struct Node: Sendable {
        var element: ParquetFooter.SchemaElement
        var children: [Node]
        /// Definition level at which this node is present (optional and repeated nodes count).
        var definitionLevel: Int
        /// Repetition level of this node (repeated nodes count).
        var repetitionLevel: Int
        /// The leaves below (or this leaf), as indexes into ``ParquetSchemaTree/leaves``.
        var leafRange: Range<Int>
    }

    /// The root's children: the top-level fields.
    var fields: [Node]
    /// Every leaf column, in the order of the row groups' column chunks.
    var leaves: [ParquetLeaf]

    /// The tree of a footer's flattened schema; nesting is bounded by ``maxDepth``.
    init(_ schema: [ParquetFooter.SchemaElement]) throws {
        var index = 1
        var leaves = [ParquetLeaf]()
        func build(depth: Int, definition: Int, repetition: Int, path: [String]) throws -> Node {
            guard depth <= Self.maxDepth else { throw ParquetDecodingFailure(reason: "the schema nests deeper than \(Self.maxDepth)") }
            guard index < schema.count else { throw ParquetDecodingFailure(reason: "the schema declares more children than it holds") }
            let element = schema[index]
            index += 1
            let definition = definition + (element.repetition == .required ? 0 : 1)
            let repetition = repetition + (element.repetition == .repeated ? 1 : 0)
            let path = path + [element.name]
            let first = leaves.count
            var children = [Node]()
            if element.childCount == 0 {
                guard element.physicalType != nil else { throw ParquetDecodingFailure(reason: "column \(path.joined(separator: ".")) has no type") }
                leaves.append(ParquetLeaf(path: path, element: element, maxDefinition: definition, maxRepetition: repetition))
            } else {
                guard element.childCount <= schema.count - index else { throw ParquetDecodingFailure(reason: "the schema declares more children than it holds") }
                for _ in 0..<element.childCount {
                    children.append(try build(depth: depth + 1, definition: definition, repetition: repetition, path: path))
                }
            }
            return Node(element: element, children: children, definitionLevel: definition, repetitionLevel: repetition,
                        leafRange: first..<leaves.count)
        }
        var fields = [Node]()
        guard schema[0].childCount <= schema.count - 1 else { throw ParquetDecodingFailure(reason: "the schema declares more children than it holds") }
        for _ in 0..<schema[0].childCount { fields.append(try build(depth: 1, definition: 0, repetition: 0, path: [])) }
        self.fields = fields
        self.leaves = leaves
    }

    /// The deepest nesting read.
    static let maxDepth = 32
}

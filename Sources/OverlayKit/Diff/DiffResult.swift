import OverlayModel

/// The changes between two versions of map data and their totals.
public struct DiffResult: Hashable, Sendable {
    /// The old input as named (nil: standard input).
    public var oldName: String?
    /// The new input as named (nil: standard input).
    public var newName: String?
    /// The changes: those located in the new version in its order, then the removed ones in
    /// the old version's order.
    public var changes: [FeatureChange]
    /// The totals.
    public var summary: DiffSummary
    /// Warnings the readers gave about either input.
    public var warnings: [Diagnostic]

    /// A result of `changes` between the inputs.
    public init(oldName: String?, newName: String?, changes: [FeatureChange], summary: DiffSummary, warnings: [Diagnostic] = []) {
        self.oldName = oldName
        self.newName = newName
        self.changes = changes
        self.summary = summary
        self.warnings = warnings
    }

    /// The changes of one class, in report order.
    public func changes(_ kind: FeatureChange.Kind) -> [FeatureChange] { changes.filter { $0.kind == kind } }

    /// diff(1)'s status: 0 no changes, 1 changes.
    public var exitStatus: Int32 { changes.isEmpty ? 0 : 1 }
}

/// The totals of a diff.
public struct DiffSummary: Hashable, Sendable {
    /// Features in the old version.
    public var oldFeatures = 0
    /// Features in the new version.
    public var newFeatures = 0
    /// Features only in the new version.
    public var added = 0
    /// Features only in the old version.
    public var removed = 0
    /// Features with another geometry, properties or style.
    public var modified = 0
    /// Features only in other KML folders.
    public var moved = 0
    /// Features the same in both.
    public var unchanged = 0

    /// Empty totals.
    public init() {}

    /// All changes.
    public var changes: Int { added + removed + modified + moved }

    /// The count of one class.
    public func count(_ kind: FeatureChange.Kind) -> Int {
        switch kind {
        case .added: added
        case .removed: removed
        case .modified: modified
        case .moved: moved
        }
    }

    /// Adds one change of `kind`.
    mutating func add(_ kind: FeatureChange.Kind) {
        switch kind {
        case .added: added += 1
        case .removed: removed += 1
        case .modified: modified += 1
        case .moved: moved += 1
        }
    }
}

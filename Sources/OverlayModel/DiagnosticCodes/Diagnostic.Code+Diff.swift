// Comparing two versions of map data (`overlaykit diff`).

extension Diagnostic.Code {
    /// `diff.added` (finding): A feature of the new version has no counterpart in the old one.
    public static let diffAdded = Diagnostic.Code("diff.added", kind: .finding)
    /// `diff.removed` (finding): A feature of the old version has no counterpart in the new one.
    public static let diffRemoved = Diagnostic.Code("diff.removed", kind: .finding)
    /// `diff.modified` (finding): A feature's geometry, properties or style changed between the versions.
    public static let diffModified = Diagnostic.Code("diff.modified", kind: .finding)
    /// `diff.moved` (finding): A KML feature is in other folders in the new version, otherwise unchanged.
    public static let diffMoved = Diagnostic.Code("diff.moved", kind: .finding)
    /// `diff.bad-option` (usage): A diff option is out of range, or the two inputs cannot be compared (a tile set with a feature file, the old version on standard input).
    public static let diffBadOption = Diagnostic.Code("diff.bad-option", kind: .usage)

    /// The codes above, in order, for ``allDeclared``.
    static let diffCodes: [Diagnostic.Code] = [
        .diffAdded,
        .diffRemoved,
        .diffModified,
        .diffMoved,
        .diffBadOption,
    ]
}

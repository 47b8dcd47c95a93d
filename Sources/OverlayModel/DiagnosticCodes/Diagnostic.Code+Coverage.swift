// Coverage checks (`validate --coverage`): polygons that should tile a region without gaps or overlaps.

extension Diagnostic.Code {
    /// `coverage.overlap` (finding): Polygons of two features overlap: an edge crosses into the other, a vertex lies inside it, or both run along an edge in the same direction.
    public static let coverageOverlap = Diagnostic.Code("coverage.overlap", kind: .finding)
    /// `coverage.gap` (finding): Polygons of two features leave a gap narrower than `--gap-width` between them.
    public static let coverageGap = Diagnostic.Code("coverage.gap", kind: .finding)
    /// `coverage.unmatched-border` (finding): Polygons of two features touch or run together without sharing the same vertices, so simplifying them one at a time opens a gap.
    public static let coverageUnmatchedBorder = Diagnostic.Code("coverage.unmatched-border", kind: .finding)

    /// The codes above, in order, for ``allDeclared``.
    static let coverageCodes: [Diagnostic.Code] = [
        .coverageOverlap,
        .coverageGap,
        .coverageUnmatchedBorder,
    ]
}

// `overlaykit filter`: its options and what it skips.

extension Diagnostic.Code {
    /// `filter.cannot-resume` (data): `--on-error skip|report` needs a reader that can skip a bad feature (GeoJSON or GeoJSONSeq).
    public static let filterCannotResume = Diagnostic.Code("filter.cannot-resume", kind: .data)
    /// `filter.invalid-argument` (usage): A filter option (`--bbox`, `--within`, `--near`, `--type`) is malformed.
    public static let filterInvalidArgument = Diagnostic.Code("filter.invalid-argument", kind: .usage)
    /// `filter.invalid-box` (usage): A bounding box is out of range or its south edge lies north of its north edge.
    public static let filterInvalidBox = Diagnostic.Code("filter.invalid-box", kind: .usage)
    /// `filter.invalid-region` (usage): A circular region has an invalid center or a negative or non-finite radius.
    public static let filterInvalidRegion = Diagnostic.Code("filter.invalid-region", kind: .usage)
    /// `filter.skipped` (finding): A bad feature was skipped (`--on-error skip|report`).
    public static let filterSkipped = Diagnostic.Code("filter.skipped", kind: .finding)
    /// `filter.warnings-not-shown` (finding): More warnings of one code than are listed; the rest are counted.
    public static let filterWarningsNotShown = Diagnostic.Code("filter.warnings-not-shown", kind: .finding)
    /// `filter.where-too-costly` (data): A `--where` regular expression would take more than its bound of steps on one value (`filter` and `tile`).
    public static let filterWhereTooCostly = Diagnostic.Code("filter.where-too-costly", kind: .data)

    /// The codes above, in order, for ``allDeclared``.
    static let filterCodes: [Diagnostic.Code] = [
        .filterCannotResume,
        .filterInvalidArgument,
        .filterInvalidBox,
        .filterInvalidRegion,
        .filterSkipped,
        .filterWarningsNotShown,
        .filterWhereTooCostly,
    ]
}

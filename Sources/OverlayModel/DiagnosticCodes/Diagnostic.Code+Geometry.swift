// Geometry validity (the validators) and repairs.

extension Diagnostic.Code {
    /// `geometry.circle-radius` (finding): A circle's radius is not a positive number.
    public static let geometryCircleRadius = Diagnostic.Code("geometry.circle-radius", kind: .finding)
    /// `geometry.duplicate-ring` (finding): Two rings of a polygon are the same ring.
    public static let geometryDuplicateRing = Diagnostic.Code("geometry.duplicate-ring", kind: .finding)
    /// `geometry.hole-crosses-shell` (finding): Validation rule: rings of a Polygon do not cross.
    public static let geometryHoleCrossesShell = Diagnostic.Code("geometry.hole-crosses-shell", kind: .finding)
    /// `geometry.hole-outside-shell` (finding): Validation rule: each inner ring lies within the outer ring.
    public static let geometryHoleOutsideShell = Diagnostic.Code("geometry.hole-outside-shell", kind: .finding)
    /// `geometry.holes-cross` (finding): Validation rule: inner rings do not cross.
    public static let geometryHolesCross = Diagnostic.Code("geometry.holes-cross", kind: .finding)
    /// `geometry.latitude-beyond-pole` (finding): A latitude beyond ±90° is placed at the top or bottom edge of the world.
    public static let geometryLatitudeBeyondPole = Diagnostic.Code("geometry.latitude-beyond-pole", kind: .finding)
    /// `geometry.nested-holes` (finding): A hole lies inside another hole of the same polygon.
    public static let geometryNestedHoles = Diagnostic.Code("geometry.nested-holes", kind: .finding)
    /// `geometry.non-finite` (finding): A coordinate is not a finite number.
    public static let geometryNonFinite = Diagnostic.Code("geometry.non-finite", kind: .finding)
    /// `geometry.parts-cross` (finding): Two polygons of a multipolygon cross or overlap along an edge.
    public static let geometryPartsCross = Diagnostic.Code("geometry.parts-cross", kind: .finding)
    /// `geometry.parts-nested` (finding): A polygon of a multipolygon lies inside another.
    public static let geometryPartsNested = Diagnostic.Code("geometry.parts-nested", kind: .finding)
    /// `geometry.repeated-point` (finding): A ring or line repeats a position consecutively.
    public static let geometryRepeatedPoint = Diagnostic.Code("geometry.repeated-point", kind: .finding)
    /// `geometry.self-intersection` (finding): Validation rule: a LinearRing is simple.
    public static let geometrySelfIntersection = Diagnostic.Code("geometry.self-intersection", kind: .finding)
    /// `geometry.too-few-points` (finding): A line or ring has too few distinct positions to be valid.
    public static let geometryTooFewPoints = Diagnostic.Code("geometry.too-few-points", kind: .finding)

    /// The codes above, in order, for ``allDeclared``.
    static let geometryCodes: [Diagnostic.Code] = [
        .geometryCircleRadius,
        .geometryDuplicateRing,
        .geometryHoleCrossesShell,
        .geometryHoleOutsideShell,
        .geometryHolesCross,
        .geometryLatitudeBeyondPole,
        .geometryNestedHoles,
        .geometryNonFinite,
        .geometryPartsCross,
        .geometryPartsNested,
        .geometryRepeatedPoint,
        .geometrySelfIntersection,
        .geometryTooFewPoints,
    ]
}

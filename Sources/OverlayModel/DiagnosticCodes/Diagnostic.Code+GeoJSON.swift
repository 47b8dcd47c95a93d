// GeoJSON reading and validation (`GeoJSONDiagnosticCode` in OverlayKit holds their severities and summaries).

extension Diagnostic.Code {
    /// `geojson.root-not-object` (data): The root of a GeoJSON text is not an object.
    public static let geojsonRootNotObject = Diagnostic.Code("geojson.root-not-object", kind: .data)
    /// `geojson.empty` (data): The input holds no GeoJSON.
    public static let geojsonEmpty = Diagnostic.Code("geojson.empty", kind: .data)
    /// `geojson.missing-type` (data): An object has no "type" member.
    public static let geojsonMissingType = Diagnostic.Code("geojson.missing-type", kind: .data)
    /// `geojson.type-not-string` (data): "type" is not a string.
    public static let geojsonTypeNotString = Diagnostic.Code("geojson.type-not-string", kind: .data)
    /// `geojson.type-case` (data): A type name differs from a GeoJSON type only in letter case (names are case sensitive).
    public static let geojsonTypeCase = Diagnostic.Code("geojson.type-case", kind: .data)
    /// `geojson.unknown-type` (data): The type is none of GeoJSON's nine.
    public static let geojsonUnknownType = Diagnostic.Code("geojson.unknown-type", kind: .data)
    /// `geojson.wrong-type` (data): An object has a type that cannot stand where it is (e.g. a Point among "features", or "features" on a non-collection).
    public static let geojsonWrongType = Diagnostic.Code("geojson.wrong-type", kind: .data)
    /// `geojson.not-a-geometry` (data): A Feature or FeatureCollection stands where a geometry is expected.
    public static let geojsonNotAGeometry = Diagnostic.Code("geojson.not-a-geometry", kind: .data)
    /// `geojson.missing-member` (data): A required member ("features", "geometries", "coordinates", "geometry", "properties") is absent; the reader reads a missing "geometry" or "properties" as null and warns.
    public static let geojsonMissingMember = Diagnostic.Code("geojson.missing-member", kind: .data)
    /// `geojson.member-type` (data): A member has the wrong JSON type (e.g. "properties" is a string).
    public static let geojsonMemberType = Diagnostic.Code("geojson.member-type", kind: .data)
    /// `geojson.features-not-array` (data): "features" is not an array.
    public static let geojsonFeaturesNotArray = Diagnostic.Code("geojson.features-not-array", kind: .data)
    /// `geojson.feature-not-object` (data): A member of "features" is not an object.
    public static let geojsonFeatureNotObject = Diagnostic.Code("geojson.feature-not-object", kind: .data)
    /// `geojson.feature-type` (data): A member of "features" does not have "type": "Feature".
    public static let geojsonFeatureType = Diagnostic.Code("geojson.feature-type", kind: .data)
    /// `geojson.properties-not-object` (data): "properties" is neither an object nor null.
    public static let geojsonPropertiesNotObject = Diagnostic.Code("geojson.properties-not-object", kind: .data)
    /// `geojson.geometry-not-object` (data): "geometry" (or a member of "geometries") is neither an object nor null.
    public static let geojsonGeometryNotObject = Diagnostic.Code("geojson.geometry-not-object", kind: .data)
    /// `geojson.geometries-not-array` (data): "geometries" is not an array.
    public static let geojsonGeometriesNotArray = Diagnostic.Code("geojson.geometries-not-array", kind: .data)
    /// `geojson.forbidden-member` (data): An object holds a member RFC 7946 forbids there (e.g. "coordinates" on a Feature).
    public static let geojsonForbiddenMember = Diagnostic.Code("geojson.forbidden-member", kind: .data)
    /// `geojson.dropped-member` (data): A member with no meaning where it stands (e.g. "geometries" on a Feature) is not kept.
    public static let geojsonDroppedMember = Diagnostic.Code("geojson.dropped-member", kind: .data)
    /// `geojson.duplicate-member` (data): A member appears twice in one object; the reader keeps the last one and warns.
    public static let geojsonDuplicateMember = Diagnostic.Code("geojson.duplicate-member", kind: .data)
    /// `geojson.id-type` (data): A Feature's "id" is neither a string nor a number; the reader keeps it as a foreign member and warns.
    public static let geojsonIdType = Diagnostic.Code("geojson.id-type", kind: .data)
    /// `geojson.crs` (data): An old-style "crs" member (RFC 7946 removed it).
    public static let geojsonCrs = Diagnostic.Code("geojson.crs", kind: .data)
    /// `geojson.bbox-not-array` (data): "bbox" is not an array.
    public static let geojsonBboxNotArray = Diagnostic.Code("geojson.bbox-not-array", kind: .data)
    /// `geojson.bbox-not-number` (data): A "bbox" element is not a number.
    public static let geojsonBboxNotNumber = Diagnostic.Code("geojson.bbox-not-number", kind: .data)
    /// `geojson.bbox-length` (data): "bbox" holds neither 4 nor 6 numbers.
    public static let geojsonBboxLength = Diagnostic.Code("geojson.bbox-length", kind: .data)
    /// `geojson.bbox-order` (data): A "bbox" south edge lies north of its north edge.
    public static let geojsonBboxOrder = Diagnostic.Code("geojson.bbox-order", kind: .data)
    /// `geojson.coordinates-not-array` (data): "coordinates" is not an array.
    public static let geojsonCoordinatesNotArray = Diagnostic.Code("geojson.coordinates-not-array", kind: .data)
    /// `geojson.coordinates-depth` (data): "coordinates" nest to the wrong depth for the geometry type (the reader's check; the validator says which way with coordinates-too-shallow or mixed-nesting).
    public static let geojsonCoordinatesDepth = Diagnostic.Code("geojson.coordinates-depth", kind: .data)
    /// `geojson.coordinates-too-shallow` (data): A number or other value is found where a coordinate array should be.
    public static let geojsonCoordinatesTooShallow = Diagnostic.Code("geojson.coordinates-too-shallow", kind: .data)
    /// `geojson.coordinates-too-deep` (data): Coordinates nest more than 64 levels deep.
    public static let geojsonCoordinatesTooDeep = Diagnostic.Code("geojson.coordinates-too-deep", kind: .data)
    /// `geojson.mixed-nesting` (data): Coordinate arrays and numbers are mixed at one level.
    public static let geojsonMixedNesting = Diagnostic.Code("geojson.mixed-nesting", kind: .data)
    /// `geojson.position-not-array` (data): A position is not an array.
    public static let geojsonPositionNotArray = Diagnostic.Code("geojson.position-not-array", kind: .data)
    /// `geojson.position-not-number` (data): A position holds something other than numbers.
    public static let geojsonPositionNotNumber = Diagnostic.Code("geojson.position-not-number", kind: .data)
    /// `geojson.position-too-short` (data): A position has fewer than 2 numbers.
    public static let geojsonPositionTooShort = Diagnostic.Code("geojson.position-too-short", kind: .data)
    /// `geojson.position-too-long` (data): A position has more than 3 numbers (RFC 7946 §3.1.1); the reader keeps three.
    public static let geojsonPositionTooLong = Diagnostic.Code("geojson.position-too-long", kind: .data)
    /// `geojson.coordinate-range` (data): A longitude is outside ±180° or a latitude outside ±90°.
    public static let geojsonCoordinateRange = Diagnostic.Code("geojson.coordinate-range", kind: .data)
    /// `geojson.line-too-short` (data): A LineString has one position; the reader reads it as a point (`ShapeRepair`).
    public static let geojsonLineTooShort = Diagnostic.Code("geojson.line-too-short", kind: .data)
    /// `geojson.ring-too-short` (data): A linear ring has fewer than 4 positions once closed; the reader drops it (an exterior drops its polygon) and warns.
    public static let geojsonRingTooShort = Diagnostic.Code("geojson.ring-too-short", kind: .data)
    /// `geojson.ring-not-closed` (data): A linear ring's first and last positions differ; the reader closes it and warns.
    public static let geojsonRingNotClosed = Diagnostic.Code("geojson.ring-not-closed", kind: .data)
    /// `geojson.right-hand-rule` (data): A polygon's exterior ring is not counterclockwise or a hole not clockwise (RFC 7946 §3.1.6).
    public static let geojsonRightHandRule = Diagnostic.Code("geojson.right-hand-rule", kind: .data)
    /// `geojson.antimeridian` (data): A segment jumps across the antimeridian instead of being cut there (RFC 7946 §3.1.9).
    public static let geojsonAntimeridian = Diagnostic.Code("geojson.antimeridian", kind: .data)
    /// `geojson.collection-single` (data): A GeometryCollection holds a single geometry.
    public static let geojsonCollectionSingle = Diagnostic.Code("geojson.collection-single", kind: .data)
    /// `geojson.collection-nested` (data): GeometryCollections nest (RFC 7946 §3.1.8).
    public static let geojsonCollectionNested = Diagnostic.Code("geojson.collection-nested", kind: .data)
    /// `geojson.precision` (data): Positions have more than 6 decimals (finer than 10 cm).
    public static let geojsonPrecision = Diagnostic.Code("geojson.precision", kind: .data)
    /// `geojson.cannot-resume` (data): Reading cannot resume after an error (filter --on-error skip/report).
    public static let geojsonCannotResume = Diagnostic.Code("geojson.cannot-resume", kind: .data)
    /// `geojson.byte-order-mark` (data): The text starts with a UTF-8 byte-order mark; RFC 8259 §8.1 lets a parser ignore it, and every reader does, with this note.
    public static let geojsonByteOrderMark = Diagnostic.Code("geojson.byte-order-mark", kind: .data)

    /// The codes above, in order, for ``allDeclared``.
    static let geojsonCodes: [Diagnostic.Code] = [
        .geojsonRootNotObject,
        .geojsonEmpty,
        .geojsonMissingType,
        .geojsonTypeNotString,
        .geojsonTypeCase,
        .geojsonUnknownType,
        .geojsonWrongType,
        .geojsonNotAGeometry,
        .geojsonMissingMember,
        .geojsonMemberType,
        .geojsonFeaturesNotArray,
        .geojsonFeatureNotObject,
        .geojsonFeatureType,
        .geojsonPropertiesNotObject,
        .geojsonGeometryNotObject,
        .geojsonGeometriesNotArray,
        .geojsonForbiddenMember,
        .geojsonDroppedMember,
        .geojsonDuplicateMember,
        .geojsonIdType,
        .geojsonCrs,
        .geojsonBboxNotArray,
        .geojsonBboxNotNumber,
        .geojsonBboxLength,
        .geojsonBboxOrder,
        .geojsonCoordinatesNotArray,
        .geojsonCoordinatesDepth,
        .geojsonCoordinatesTooShallow,
        .geojsonCoordinatesTooDeep,
        .geojsonMixedNesting,
        .geojsonPositionNotArray,
        .geojsonPositionNotNumber,
        .geojsonPositionTooShort,
        .geojsonPositionTooLong,
        .geojsonCoordinateRange,
        .geojsonLineTooShort,
        .geojsonRingTooShort,
        .geojsonRingNotClosed,
        .geojsonRightHandRule,
        .geojsonAntimeridian,
        .geojsonCollectionSingle,
        .geojsonCollectionNested,
        .geojsonPrecision,
        .geojsonCannotResume,
        .geojsonByteOrderMark,
    ]
}

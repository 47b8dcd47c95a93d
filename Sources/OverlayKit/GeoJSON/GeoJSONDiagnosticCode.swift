import OverlayModel

/// Every diagnostic code GeoJSON reading and validation use: one table, so the reader and
/// `overlaykit validate` name the same defect the same way (docs/validate.md lists them).
///
/// ``defaultSeverity`` is the validator's. The reader reports a few of these as warnings
/// where it can go on without losing data (a missing `"properties"`, an unclosed ring, an `id`
/// of the wrong type), as each ``summary`` says.
public enum GeoJSONDiagnosticCode: String, CaseIterable, Sendable {
    /// The root of a GeoJSON text is not an object.
    case rootNotObject = "geojson.root-not-object"
    /// The input holds no GeoJSON.
    case empty = "geojson.empty"
    /// An object has no "type" member.
    case missingType = "geojson.missing-type"
    /// "type" is not a string.
    case typeNotString = "geojson.type-not-string"
    /// A type name differs from a GeoJSON type only in letter case (names are case sensitive).
    case typeCase = "geojson.type-case"
    /// The type is none of GeoJSON's nine.
    case unknownType = "geojson.unknown-type"
    /// An object has a type that cannot stand where it is (e.g. a Point among "features", or "features" on a non-collection).
    case wrongType = "geojson.wrong-type"
    /// A Feature or FeatureCollection stands where a geometry is expected.
    case notAGeometry = "geojson.not-a-geometry"
    /// A required member ("features", "geometries", "coordinates", "geometry", "properties") is absent; the reader reads a missing "geometry" or "properties" as null and warns.
    case missingMember = "geojson.missing-member"
    /// A member has the wrong JSON type (e.g. "properties" is a string).
    case memberType = "geojson.member-type"
    /// "features" is not an array.
    case featuresNotArray = "geojson.features-not-array"
    /// A member of "features" is not an object.
    case featureNotObject = "geojson.feature-not-object"
    /// A member of "features" does not have "type": "Feature".
    case featureType = "geojson.feature-type"
    /// "properties" is neither an object nor null.
    case propertiesNotObject = "geojson.properties-not-object"
    /// "geometry" (or a member of "geometries") is neither an object nor null.
    case geometryNotObject = "geojson.geometry-not-object"
    /// "geometries" is not an array.
    case geometriesNotArray = "geojson.geometries-not-array"
    /// An object holds a member RFC 7946 forbids there (e.g. "coordinates" on a Feature).
    case forbiddenMember = "geojson.forbidden-member"
    /// A member with no meaning where it stands (e.g. "geometries" on a Feature) is not kept.
    case droppedMember = "geojson.dropped-member"
    /// A member appears twice in one object; the reader keeps the last one and warns.
    case duplicateMember = "geojson.duplicate-member"
    /// A Feature's "id" is neither a string nor a number; the reader keeps it as a foreign member and warns.
    case idType = "geojson.id-type"
    /// An old-style "crs" member (RFC 7946 removed it).
    case crs = "geojson.crs"
    /// "bbox" is not an array.
    case bboxNotArray = "geojson.bbox-not-array"
    /// A "bbox" element is not a number.
    case bboxNotNumber = "geojson.bbox-not-number"
    /// "bbox" holds neither 4 nor 6 numbers.
    case bboxLength = "geojson.bbox-length"
    /// A "bbox" south edge lies north of its north edge.
    case bboxOrder = "geojson.bbox-order"
    /// "coordinates" is not an array.
    case coordinatesNotArray = "geojson.coordinates-not-array"
    /// "coordinates" nest to the wrong depth for the geometry type (the reader's check; the validator says which way with coordinates-too-shallow or mixed-nesting).
    case coordinatesDepth = "geojson.coordinates-depth"
    /// A number or other value is found where a coordinate array should be.
    case coordinatesTooShallow = "geojson.coordinates-too-shallow"
    /// Coordinates nest more than 64 levels deep.
    case coordinatesTooDeep = "geojson.coordinates-too-deep"
    /// Coordinate arrays and numbers are mixed at one level.
    case mixedNesting = "geojson.mixed-nesting"
    /// A position is not an array.
    case positionNotArray = "geojson.position-not-array"
    /// A position holds something other than numbers.
    case positionNotNumber = "geojson.position-not-number"
    /// A position has fewer than 2 numbers.
    case positionTooShort = "geojson.position-too-short"
    /// A position has more than 3 numbers (RFC 7946 §3.1.1); the reader keeps three.
    case positionTooLong = "geojson.position-too-long"
    /// A longitude is outside ±180° or a latitude outside ±90°.
    case coordinateRange = "geojson.coordinate-range"
    /// A LineString has one position; the reader reads it as a point (``ShapeRepair``).
    case lineTooShort = "geojson.line-too-short"
    /// A linear ring has fewer than 4 positions once closed; the reader drops it (an exterior drops its polygon) and warns.
    case ringTooShort = "geojson.ring-too-short"
    /// A linear ring's first and last positions differ; the reader closes it and warns.
    case ringNotClosed = "geojson.ring-not-closed"
    /// A polygon's exterior ring is not counterclockwise or a hole not clockwise (RFC 7946 §3.1.6).
    case rightHandRule = "geojson.right-hand-rule"
    /// A segment jumps across the antimeridian instead of being cut there (RFC 7946 §3.1.9).
    case antimeridian = "geojson.antimeridian"
    /// A GeometryCollection holds a single geometry.
    case collectionSingle = "geojson.collection-single"
    /// GeometryCollections nest (RFC 7946 §3.1.8).
    case collectionNested = "geojson.collection-nested"
    /// Positions have more than 6 decimals (finer than 10 cm).
    case precision = "geojson.precision"
    /// Reading cannot resume after an error (filter --on-error skip/report).
    case cannotResume = "geojson.cannot-resume"
    /// The text starts with a UTF-8 byte-order mark; RFC 8259 §8.1 lets a parser ignore it, and every reader does, with this note.
    case byteOrderMark = "geojson.byte-order-mark"

    /// The code as it appears in diagnostics, e.g. `geojson.ring-not-closed`.
    public var code: String { rawValue }

    /// The severity `overlaykit validate` gives it.
    public var defaultSeverity: Diagnostic.Severity {
        switch self {
        case .droppedMember, .crs, .positionTooLong, .coordinateRange, .rightHandRule, .antimeridian, .collectionSingle, .collectionNested: .warning
        case .precision, .byteOrderMark: .note
        default: .error
        }
    }

    /// One line saying what the defect is.
    public var summary: String {
        switch self {
        case .rootNotObject: "The root of a GeoJSON text is not an object."
        case .empty: "The input holds no GeoJSON."
        case .missingType: "An object has no \"type\" member."
        case .typeNotString: "\"type\" is not a string."
        case .typeCase: "A type name differs from a GeoJSON type only in letter case (names are case sensitive)."
        case .unknownType: "The type is none of GeoJSON's nine."
        case .wrongType: "An object has a type that cannot stand where it is (e.g. a Point among \"features\", or \"features\" on a non-collection)."
        case .notAGeometry: "A Feature or FeatureCollection stands where a geometry is expected."
        case .missingMember: "A required member (\"features\", \"geometries\", \"coordinates\", \"geometry\", \"properties\") is absent; the reader reads a missing \"geometry\" or \"properties\" as null and warns."
        case .memberType: "A member has the wrong JSON type (e.g. \"properties\" is a string)."
        case .featuresNotArray: "\"features\" is not an array."
        case .featureNotObject: "A member of \"features\" is not an object."
        case .featureType: "A member of \"features\" does not have \"type\": \"Feature\"."
        case .propertiesNotObject: "\"properties\" is neither an object nor null."
        case .geometryNotObject: "\"geometry\" (or a member of \"geometries\") is neither an object nor null."
        case .geometriesNotArray: "\"geometries\" is not an array."
        case .forbiddenMember: "An object holds a member RFC 7946 forbids there (e.g. \"coordinates\" on a Feature)."
        case .droppedMember: "A member with no meaning where it stands (e.g. \"geometries\" on a Feature) is not kept."
        case .duplicateMember: "A member appears twice in one object; the reader keeps the last one and warns."
        case .idType: "A Feature's \"id\" is neither a string nor a number; the reader keeps it as a foreign member and warns."
        case .crs: "An old-style \"crs\" member (RFC 7946 removed it)."
        case .bboxNotArray: "\"bbox\" is not an array."
        case .bboxNotNumber: "A \"bbox\" element is not a number."
        case .bboxLength: "\"bbox\" holds neither 4 nor 6 numbers."
        case .bboxOrder: "A \"bbox\" south edge lies north of its north edge."
        case .coordinatesNotArray: "\"coordinates\" is not an array."
        case .coordinatesDepth: "\"coordinates\" nest to the wrong depth for the geometry type (the reader's check; the validator says which way with coordinates-too-shallow or mixed-nesting)."
        case .coordinatesTooShallow: "A number or other value is found where a coordinate array should be."
        case .coordinatesTooDeep: "Coordinates nest more than 64 levels deep."
        case .mixedNesting: "Coordinate arrays and numbers are mixed at one level."
        case .positionNotArray: "A position is not an array."
        case .positionNotNumber: "A position holds something other than numbers."
        case .positionTooShort: "A position has fewer than 2 numbers."
        case .positionTooLong: "A position has more than 3 numbers (RFC 7946 §3.1.1); the reader keeps three."
        case .coordinateRange: "A longitude is outside ±180° or a latitude outside ±90°."
        case .lineTooShort: "A LineString has one position; the reader reads it as a point and warns."
        case .ringTooShort: "A linear ring has fewer than 4 positions once closed; the reader drops it (an exterior drops its polygon) and warns."
        case .ringNotClosed: "A linear ring's first and last positions differ; the reader closes it (repeating the first position) and warns."
        case .rightHandRule: "A polygon's exterior ring is not counterclockwise or a hole not clockwise (RFC 7946 §3.1.6)."
        case .antimeridian: "A segment jumps across the antimeridian instead of being cut there (RFC 7946 §3.1.9)."
        case .collectionSingle: "A GeometryCollection holds a single geometry."
        case .collectionNested: "GeometryCollections nest (RFC 7946 §3.1.8)."
        case .precision: "Positions have more than 6 decimals (finer than 10 cm)."
        case .byteOrderMark: "The text starts with a UTF-8 byte-order mark; RFC 8259 §8.1 lets a parser ignore it, and every reader does, with this note."
        case .cannotResume: "Reading cannot resume after an error (filter --on-error skip/report)."
        }
    }
}

extension GeoJSONDiagnosticCode {
    /// The note for a UTF-8 byte-order mark at the start of `file` (reader and validator alike).
    static func byteOrderMarkNote(file: String?) -> Diagnostic {
        Diagnostic(.note, code: byteOrderMark.code,
                   message: "the text starts with a UTF-8 byte-order mark; it is ignored (RFC 8259 §8.1)",
                   location: SourceLocation(file: file, line: 1, column: 1))
    }
}

import OverlayModel

/// Every diagnostic code GeoJSON reading and validation use: one table, so the reader and
/// `overlaykit validate` name the same defect the same way (docs/validate.md lists them).
///
/// ``defaultSeverity`` is the validator's. The reader reports a few of these as warnings
/// where it can go on without losing data (a missing `"properties"`, an unclosed ring, an `id`
/// of the wrong type), as each ``summary`` says.
public enum GeoJSONDiagnosticCode: CaseIterable, Sendable, RawRepresentable {
    /// The root of a GeoJSON text is not an object.
    case rootNotObject
    /// The input holds no GeoJSON.
    case empty
    /// An object has no "type" member.
    case missingType
    /// "type" is not a string.
    case typeNotString
    /// A type name differs from a GeoJSON type only in letter case (names are case sensitive).
    case typeCase
    /// The type is none of GeoJSON's nine.
    case unknownType
    /// An object has a type that cannot stand where it is (e.g. a Point among "features", or "features" on a non-collection).
    case wrongType
    /// A Feature or FeatureCollection stands where a geometry is expected.
    case notAGeometry
    /// A required member ("features", "geometries", "coordinates", "geometry", "properties") is absent; the reader reads a missing "geometry" or "properties" as null and warns.
    case missingMember
    /// A member has the wrong JSON type (e.g. "properties" is a string).
    case memberType
    /// "features" is not an array.
    case featuresNotArray
    /// A member of "features" is not an object.
    case featureNotObject
    /// A member of "features" does not have "type": "Feature".
    case featureType
    /// "properties" is neither an object nor null.
    case propertiesNotObject
    /// "geometry" (or a member of "geometries") is neither an object nor null.
    case geometryNotObject
    /// "geometries" is not an array.
    case geometriesNotArray
    /// An object holds a member RFC 7946 forbids there (e.g. "coordinates" on a Feature).
    case forbiddenMember
    /// A member with no meaning where it stands (e.g. "geometries" on a Feature) is not kept.
    case droppedMember
    /// A member appears twice in one object; the reader keeps the last one and warns.
    case duplicateMember
    /// A Feature's "id" is neither a string nor a number; the reader keeps it as a foreign member and warns.
    case idType
    /// An old-style "crs" member (RFC 7946 removed it).
    case crs
    /// "bbox" is not an array.
    case bboxNotArray
    /// A "bbox" element is not a number.
    case bboxNotNumber
    /// "bbox" holds neither 4 nor 6 numbers.
    case bboxLength
    /// A "bbox" south edge lies north of its north edge.
    case bboxOrder
    /// "coordinates" is not an array.
    case coordinatesNotArray
    /// "coordinates" nest to the wrong depth for the geometry type (the reader's check; the validator says which way with coordinates-too-shallow or mixed-nesting).
    case coordinatesDepth
    /// A number or other value is found where a coordinate array should be.
    case coordinatesTooShallow
    /// Coordinates nest more than 64 levels deep.
    case coordinatesTooDeep
    /// Coordinate arrays and numbers are mixed at one level.
    case mixedNesting
    /// A position is not an array.
    case positionNotArray
    /// A position holds something other than numbers.
    case positionNotNumber
    /// A position has fewer than 2 numbers.
    case positionTooShort
    /// A position has more than 3 numbers (RFC 7946 §3.1.1); the reader keeps three.
    case positionTooLong
    /// A longitude is outside ±180° or a latitude outside ±90°.
    case coordinateRange
    /// A LineString has one position; the reader reads it as a point (``ShapeRepair``).
    case lineTooShort
    /// A linear ring has fewer than 4 positions once closed; the reader drops it (an exterior drops its polygon) and warns.
    case ringTooShort
    /// A linear ring's first and last positions differ; the reader closes it and warns.
    case ringNotClosed
    /// A polygon's exterior ring is not counterclockwise or a hole not clockwise (RFC 7946 §3.1.6).
    case rightHandRule
    /// A segment jumps across the antimeridian instead of being cut there (RFC 7946 §3.1.9).
    case antimeridian
    /// A GeometryCollection holds a single geometry.
    case collectionSingle
    /// GeometryCollections nest (RFC 7946 §3.1.8).
    case collectionNested
    /// Positions have more than 6 decimals (finer than 10 cm).
    case precision
    /// Reading cannot resume after an error (filter --on-error skip/report).
    case cannotResume
    /// The text starts with a UTF-8 byte-order mark; RFC 8259 §8.1 lets a parser ignore it, and every reader does, with this note.
    case byteOrderMark

    /// The diagnostic code, e.g. `Diagnostic.Code.geojsonRingNotClosed`.
    public var code: Diagnostic.Code {
        switch self {
        case .rootNotObject: .geojsonRootNotObject
        case .empty: .geojsonEmpty
        case .missingType: .geojsonMissingType
        case .typeNotString: .geojsonTypeNotString
        case .typeCase: .geojsonTypeCase
        case .unknownType: .geojsonUnknownType
        case .wrongType: .geojsonWrongType
        case .notAGeometry: .geojsonNotAGeometry
        case .missingMember: .geojsonMissingMember
        case .memberType: .geojsonMemberType
        case .featuresNotArray: .geojsonFeaturesNotArray
        case .featureNotObject: .geojsonFeatureNotObject
        case .featureType: .geojsonFeatureType
        case .propertiesNotObject: .geojsonPropertiesNotObject
        case .geometryNotObject: .geojsonGeometryNotObject
        case .geometriesNotArray: .geojsonGeometriesNotArray
        case .forbiddenMember: .geojsonForbiddenMember
        case .droppedMember: .geojsonDroppedMember
        case .duplicateMember: .geojsonDuplicateMember
        case .idType: .geojsonIdType
        case .crs: .geojsonCrs
        case .bboxNotArray: .geojsonBboxNotArray
        case .bboxNotNumber: .geojsonBboxNotNumber
        case .bboxLength: .geojsonBboxLength
        case .bboxOrder: .geojsonBboxOrder
        case .coordinatesNotArray: .geojsonCoordinatesNotArray
        case .coordinatesDepth: .geojsonCoordinatesDepth
        case .coordinatesTooShallow: .geojsonCoordinatesTooShallow
        case .coordinatesTooDeep: .geojsonCoordinatesTooDeep
        case .mixedNesting: .geojsonMixedNesting
        case .positionNotArray: .geojsonPositionNotArray
        case .positionNotNumber: .geojsonPositionNotNumber
        case .positionTooShort: .geojsonPositionTooShort
        case .positionTooLong: .geojsonPositionTooLong
        case .coordinateRange: .geojsonCoordinateRange
        case .lineTooShort: .geojsonLineTooShort
        case .ringTooShort: .geojsonRingTooShort
        case .ringNotClosed: .geojsonRingNotClosed
        case .rightHandRule: .geojsonRightHandRule
        case .antimeridian: .geojsonAntimeridian
        case .collectionSingle: .geojsonCollectionSingle
        case .collectionNested: .geojsonCollectionNested
        case .precision: .geojsonPrecision
        case .cannotResume: .geojsonCannotResume
        case .byteOrderMark: .geojsonByteOrderMark
        }
    }

    /// The code as it appears in diagnostics, e.g. `geojson.ring-not-closed`.
    public var rawValue: String { code.rawValue }

    /// The case whose code is `rawValue`, or nil.
    public init?(rawValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = match
    }

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

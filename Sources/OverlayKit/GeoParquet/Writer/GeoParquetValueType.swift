import OverlayModel

/// The one type a property column (or the `id` column) takes, unified over every feature's
/// value for its key: integers alone are INT64, integers with other numbers DOUBLE, strings
/// STRING, booleans BOOLEAN; any other mix, and any object or array, is JSON text (Parquet's
/// JSON logical type). Nulls and absent keys are nulls of whatever type the others give; a
/// column of nulls only is STRING.
enum GeoParquetValueType: Equatable, Sendable {
    /// Only nulls so far.
    case null
    case boolean, integer, double, string
    /// JSON text.
    case json

    /// The type of one value.
    init(of value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .integer: self = .integer
        case .number: self = .double
        case .string: self = .string
        case .array, .object: self = .json
        }
    }

    /// The type that holds both this type's values and `other`'s.
    func unified(with other: GeoParquetValueType) -> GeoParquetValueType {
        switch (self, other) {
        case (let same, let again) where same == again: same
        case (.null, let any), (let any, .null): any
        case (.integer, .double), (.double, .integer): .double
        default: .json
        }
    }

    /// The type an `id` column takes: ids are strings or numbers, and a mix of them is STRING
    /// (numbers written as their text).
    func unifiedID(with other: GeoParquetValueType) -> GeoParquetValueType {
        let type = unified(with: other)
        return type == .json ? .string : type
    }

    /// The physical type of the column.
    var physicalType: ParquetPhysicalType {
        switch self {
        case .boolean: .boolean
        case .integer: .int64
        case .double: .double
        case .null, .string, .json: .byteArray
        }
    }
}

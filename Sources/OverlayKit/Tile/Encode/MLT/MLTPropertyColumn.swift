import OverlayModel

/// One property column of an MLT feature table: a name, one scalar type for the whole layer
/// (MLT columns are typed, where MVT tags each value), and a value or null per feature.
///
/// The type is the narrowest that holds every value exactly: booleans; unsigned or signed
/// 32- or 64-bit integers; 32-bit floats when every number survives the round trip, else
/// doubles (integers up to 2^53 join them unchanged); strings, which also take arrays and
/// objects as JSON text as MVT does. A column whose values mix kinds that no type holds exactly
/// (text and numbers, booleans and numbers) is written as text, and counted.
struct MLTPropertyColumn {
    /// One value as MLT columns see it: arrays and objects already as their JSON text.
    enum Cell: Hashable {
        case bool(Bool), integer(Int64), double(Double), text([UInt8])

        /// The cell of a JSON value; nil for null.
        init?(_ value: JSONValue) {
            switch value {
            case .null: return nil
            case .bool(let flag): self = .bool(flag)
            case .integer(let number): self = .integer(number)
            case .number(let number): self = .double(number)
            case .string(let text): self = .text(Array(text.utf8))
            case .array, .object: self = .text(MLTPropertyColumn.jsonText(value))
            }
        }

        /// UTF-8 text: text as itself, anything else as its JSON text.
        var text: [UInt8] {
            switch self {
            case .text(let bytes): bytes
            case .bool(let flag): MLTPropertyColumn.jsonText(.bool(flag))
            case .integer(let number): MLTPropertyColumn.jsonText(.integer(number))
            case .double(let number): MLTPropertyColumn.jsonText(.number(number))
            }
        }
    }

    /// MLT scalar types, as their non-nullable column type codes.
    enum ScalarType: UInt64 {
        case boolean = 10, int32 = 16, uint32 = 18, int64 = 20, uint64 = 22, float = 24, double = 26, string = 28
    }

    var name: String
    /// A value per feature; nil where the feature has none (or null).
    var values: [Cell?]

    /// Sets row `row`'s value (rows before it that have none stay null).
    @inline(__always)
    mutating func set(_ cell: Cell, at row: Int) {
        if values.count < row { values += repeatElement(nil, count: row - values.count) }
        if values.count == row { values.append(cell) } else { values[row] = cell }
    }

    /// Nulls up to `count` rows.
    mutating func pad(to count: Int) {
        if values.count < count { values += repeatElement(nil, count: count - values.count) }
    }

    /// The column's type, and how many values it must write as text because the column mixes kinds.
    func scalarType() -> (ScalarType, convertedToText: Int) {
        var bools = 0, integers = 0, numbers = 0, texts = 0
        var minimum = Int64.max, maximum = Int64.min
        var fitsFloat = true, integersFitDouble = true
        for value in values {
            switch value {
            case .bool?: bools += 1
            case .integer(let number)?:
                integers += 1
                minimum = min(minimum, number)
                maximum = max(maximum, number)
                if number.magnitude > 1 << 53 { integersFitDouble = false }
                if number.magnitude > 1 << 24 { fitsFloat = false }
            case .double(let number)?:
                numbers += 1
                if fitsFloat && Double(Float(number)) != number && !number.isNaN { fitsFloat = false }
            case .text?: texts += 1
            case nil: break
            }
        }
        let kinds = (bools > 0 ? 1 : 0) + (integers + numbers > 0 ? 1 : 0) + (texts > 0 ? 1 : 0)
        if kinds > 1 { return (.string, bools + integers + numbers) }
        if bools > 0 { return (.boolean, 0) }
        if texts > 0 { return (.string, 0) }
        if numbers > 0 {
            if integers > 0 && !integersFitDouble { return (.string, integers + numbers) }
            return (fitsFloat ? .float : .double, 0)
        }
        if minimum >= 0 { return (maximum <= Int64(UInt32.max) ? .uint32 : .uint64, 0) }
        return (minimum >= Int64(Int32.min) && maximum <= Int64(Int32.max) ? .int32 : .int64, 0)
    }

    /// Appends the column's streams (its type from `scalarType()`; `nullable` when a value is missing).
    func appendStreams(type: ScalarType, nullable: Bool, to out: inout [UInt8]) {
        let present: [Bool]? = nullable ? values.map { $0 != nil } : nil
        switch type {
        case .string:
            let texts = values.compactMap { $0?.text }
            MLTStringColumn.append(texts, present: present, to: &out)
        case .boolean:
            if let present { MLTWire.appendBooleanStream(present, kind: .present, to: &out) }
            MLTWire.appendBooleanStream(values.compactMap { if case .bool(let flag)? = $0 { flag } else { nil } },
                                        kind: .data, to: &out)
        case .int32, .uint32, .int64, .uint64:
            if let present { MLTWire.appendBooleanStream(present, kind: .present, to: &out) }
            let numbers = values.compactMap { if case .integer(let number)? = $0 { UInt64(bitPattern: number) } else { nil } }
            MLTIntegerStream.append(numbers, signed: type == .int32 || type == .int64, kind: .data,
                                    logicalStream: MLTWire.DictionaryKind.none.rawValue, to: &out)
        case .float, .double:
            if let present { MLTWire.appendBooleanStream(present, kind: .present, to: &out) }
            let numbers = values.compactMap { value -> Double? in
                switch value {
                case .double(let number)?: number
                case .integer(let number)?: Double(number)
                default: nil
                }
            }
            let width = type == .float ? 4 : 8
            MLTWire.StreamHeader(physicalStream: .data, logicalStream: 0, valueCount: numbers.count,
                                 byteLength: width * numbers.count).write(to: &out)
            out.reserveCapacity(out.count + width * numbers.count)
            for number in numbers {
                let bits = type == .float ? UInt64(Float(number).bitPattern) : number.bitPattern
                for byte in 0..<width { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * byte))) }
            }
        }
    }

    /// A value's JSON text.
    static func jsonText(_ value: JSONValue) -> [UInt8] {
        var json = JSONBytes()
        json.appendValue(value)
        return json.bytes
    }
}

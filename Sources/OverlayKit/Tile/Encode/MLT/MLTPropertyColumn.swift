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

    /// The column's name, UTF-8.
    var name: [UInt8]
    /// Each row's cell as its number among the cells the encoder holds (the property table's
    /// values, or the tile's own), `none` where the feature has none (or null): numbers, not
    /// cells, so filling and dropping a column retains no text per value. A piece of one array
    /// that holds every column of the tile (`MLTEncoder`), so a column allocates nothing.
    var rows: ArraySlice<UInt32>

    /// The row number of a feature without a value.
    static let none = UInt32.max

    /// The column's type, whether a row has no value, and how many values it must write as text
    /// because the column mixes kinds (`cells`: the cells `rows` number).
    func scalarType(_ cells: [Cell]) -> (ScalarType, nullable: Bool, convertedToText: Int) {
        var bools = 0, integers = 0, numbers = 0, texts = 0, missing = 0
        var minimum = Int64.max, maximum = Int64.min
        var fitsFloat = true, integersFitDouble = true
        for row in rows {
            guard row != Self.none else { missing += 1; continue }
            switch cells[Int(row)] {
            case .bool: bools += 1
            case .integer(let number):
                integers += 1
                minimum = min(minimum, number)
                maximum = max(maximum, number)
                if number.magnitude > 1 << 53 { integersFitDouble = false }
                if number.magnitude > 1 << 24 { fitsFloat = false }
            case .double(let number):
                numbers += 1
                if fitsFloat && Double(Float(number)) != number && !number.isNaN { fitsFloat = false }
            case .text: texts += 1
            }
        }
        let nullable = missing > 0
        let kinds = (bools > 0 ? 1 : 0) + (integers + numbers > 0 ? 1 : 0) + (texts > 0 ? 1 : 0)
        if kinds > 1 { return (.string, nullable, bools + integers + numbers) }
        if bools > 0 { return (.boolean, nullable, 0) }
        if texts > 0 { return (.string, nullable, 0) }
        if numbers > 0 {
            if integers > 0 && !integersFitDouble { return (.string, nullable, integers + numbers) }
            return (fitsFloat ? .float : .double, nullable, 0)
        }
        if minimum >= 0 { return (maximum <= Int64(UInt32.max) ? .uint32 : .uint64, nullable, 0) }
        return (minimum >= Int64(Int32.min) && maximum <= Int64(Int32.max) ? .int32 : .int64, nullable, 0)
    }

    /// Appends the column's streams (its type and `nullable` from `scalarType(_:)`), built in
    /// `scratch`. `distinctCells` says equal cells have equal numbers (a property table's values),
    /// so a text column's dictionary is found by number; otherwise by the texts' bytes.
    func appendStreams(type: ScalarType, nullable: Bool, cells: [Cell], distinctCells: Bool,
                       scratch: inout MLTColumnScratch, to out: inout [UInt8]) {
        var present: [Bool]?
        var count = rows.count
        if nullable {
            scratch.present.removeAll(keepingCapacity: true)
            count = 0
            for row in rows {
                scratch.present.append(row != Self.none)
                if row != Self.none { count += 1 }
            }
            present = scratch.present
        }
        switch type {
        case .string:
            // Pure text of a property table: each distinct text has one number.
            scratch.numbers.removeAll(keepingCapacity: true)
            var allText = true
            for row in rows where row != Self.none {
                scratch.numbers.append(row)
                if allText, case .text = cells[Int(row)] {} else { allText = false }
            }
            if distinctCells && allText {
                MLTStringColumn.append(numbers: scratch.numbers, cells: cells, present: present, scratch: &scratch, to: &out)
            } else {
                MLTStringColumn.append(scratch.numbers.map { cells[Int($0)].text }, present: present, scratch: &scratch, to: &out)
            }
        case .boolean:
            if let present { scratch.appendBooleanStream(present, kind: .present, to: &out) }
            scratch.flags.removeAll(keepingCapacity: true)
            for row in rows where row != Self.none {
                if case .bool(let flag) = cells[Int(row)] { scratch.flags.append(flag) }
            }
            scratch.appendBooleanStream(scratch.flags, kind: .data, to: &out)
        case .int32, .uint32, .int64, .uint64:
            if let present { scratch.appendBooleanStream(present, kind: .present, to: &out) }
            scratch.values.removeAll(keepingCapacity: true)
            for row in rows where row != Self.none {
                if case .integer(let number) = cells[Int(row)] { scratch.values.append(UInt64(bitPattern: number)) }
            }
            MLTIntegerStream.append(scratch.values, signed: type == .int32 || type == .int64, kind: .data,
                                    logicalStream: MLTWire.DictionaryKind.none.rawValue, to: &out)
        case .float, .double:
            if let present { scratch.appendBooleanStream(present, kind: .present, to: &out) }
            let width = type == .float ? 4 : 8
            MLTWire.StreamHeader(physicalStream: .data, logicalStream: 0, valueCount: count,
                                 byteLength: width * count).write(to: &out)
            for row in rows where row != Self.none {
                let number: Double
                switch cells[Int(row)] {
                case .double(let value): number = value
                case .integer(let value): number = Double(value)
                default: continue
                }
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

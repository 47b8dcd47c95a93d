import OverlayModel

/// The KML `coordinates` tokenizer: `lon,lat[,alt]` tuples separated by any whitespace.
///
/// Byte-level over the text node, one pass, numbers parsed in place with `JSONNumberParser`
/// (exact and fast); forms JSON rejects but KML writers produce (`+1.5`, `.5`, `5.`, `01`) go
/// through a checked fallback. Spaces after (or before) a comma stay inside the tuple. A
/// malformed tuple is skipped whole and reported with its byte offset, so it never shifts
/// the values of the tuples around it. One recovery, libkml's: a tuple of more than three numbers
/// whose count is a multiple of three (`1,2,0,3,4,0`, tuples joined by commas only) is read as
/// that many `lon,lat,alt` triples, with a problem saying so. O(n) in the text length.
enum KMLCoordinates {
    /// A tuple that could not be read, or was read with a loss.
    struct Problem: Equatable {
        /// Byte offset of the tuple in the text.
        var offset: Int
        /// The tuple as written (at most 60 bytes).
        var text: String
        var message: String
        /// True when the tuple was dropped; false when it was kept (e.g. extra numbers ignored).
        var dropped: Bool
        /// True when the tuple was split into `lon,lat,alt` triples (libkml's recovery).
        var split = false
    }

    /// Appends the tuples of `text` to `coordinates` and the problems to `problems`.
    static func parse(_ text: UnsafeBufferPointer<UInt8>, into coordinates: inout [Coordinate],
                      problems: inout [Problem]) {
        guard let base = text.baseAddress else { return }
        let count = text.count
        var index = 0
        while true {
            while index < count && isSpace(base[index]) { index += 1 }
            guard index < count else { return }
            if let (coordinate, next) = usualTuple(base, count: count, at: index) {
                coordinates.append(coordinate)
                index = next
                continue
            }
            index = generalTuple(base, count: count, at: index, into: &coordinates, problems: &problems)
        }
    }

    /// Fast path for the usual tuple, `lon,lat[,alt]` of JSON-style numbers then whitespace or
    /// the end: each number is parsed and delimited in one pass. Returns the tuple and the index
    /// after the whitespace that follows it. Anything else (spaces around commas, KML's looser
    /// numbers, errors) is nil, read again from the tuple's start by `generalTuple`, so both
    /// agree on every input.
    @inline(__always)
    private static func usualTuple(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> (Coordinate, Int)? {
        let end = base + count
        // A number and where it stops; nil unless a delimiter follows within the text.
        func delimitedNumber(at start: UnsafePointer<UInt8>) -> (value: Double, end: UnsafePointer<UInt8>)? {
            // A number beyond a Double's range takes the general path, which reports it.
            JSONNumberParser.parsePrefix(start, end: end).flatMap { $0.value.isFinite ? ($0.value, start + $0.length) : nil }
        }
        guard let longitude = delimitedNumber(at: base + index), longitude.end.pointee == UInt8(ascii: ","),
              let latitude = delimitedNumber(at: longitude.end + 1) else { return nil }
        var stop = latitude.end
        var altitude: Double?
        if stop < end && stop.pointee == UInt8(ascii: ",") {
            guard let third = delimitedNumber(at: stop + 1) else { return nil }
            altitude = third.value
            stop = third.end
        }
        var next = stop - base
        guard next == count || isSpace(base[next]) else { return nil }
        // A comma after whitespace would continue this tuple ("1,2 ,3").
        while next < count && isSpace(base[next]) { next += 1 }
        guard next == count || base[next] != UInt8(ascii: ",") else { return nil }
        return (Coordinate(latitude: latitude.value, longitude: longitude.value, altitude: altitude), next)
    }

    /// One tuple read by the general path from `start`: numbers joined by commas (whitespace
    /// allowed around a comma) in any of KML's number forms, appended to `coordinates` or
    /// reported in `problems`. Returns the index after the tuple.
    private static func generalTuple(_ base: UnsafePointer<UInt8>, count: Int, at start: Int, into coordinates: inout [Coordinate],
                                     problems: inout [Problem]) -> Int {
        var index = start
        var values: (Double, Double, Double) = (0, 0, 0)
        let tupleStart = start
        var valueCount = 0
        // Numbers past the third, kept for libkml's split into triples.
        var extraValues: [Double] = []
        var bad: String?
        // One tuple: numbers joined by commas (whitespace allowed around a comma).
        while true {
            let tokenStart = index
            while index < count && base[index] != UInt8(ascii: ",") && !isSpace(base[index]) { index += 1 }
            let tokenCount = index - tokenStart
            if tokenCount == 0 {
                bad = bad ?? "an empty number"
            } else if let value = number(base + tokenStart, count: tokenCount) {
                switch valueCount {
                case 0: values.0 = value
                case 1: values.1 = value
                case 2: values.2 = value
                default: extraValues.append(value)
                }
                valueCount += 1
            } else {
                bad = bad ?? "'\(String(decoding: UnsafeBufferPointer(start: base + tokenStart, count: min(tokenCount, 40)), as: UTF8.self))' is not a number"
            }
            // A comma continues the tuple, even after whitespace ("1 , 2").
            var probe = index
            while probe < count && isSpace(base[probe]) { probe += 1 }
            guard probe < count && base[probe] == UInt8(ascii: ",") else { break }
            index = probe + 1
            while index < count && isSpace(base[index]) { index += 1 }
            if index >= count || base[index] == UInt8(ascii: ",") {
                if index < count { continue }
                bad = bad ?? "it ends with a comma"
                break
            }
        }
        let tupleText = { String(decoding: UnsafeBufferPointer(start: base + tupleStart, count: min(index - tupleStart, 60)), as: UTF8.self) }
        if let bad {
            problems.append(Problem(offset: tupleStart, text: tupleText(), message: "malformed coordinate tuple: \(bad)", dropped: true))
        } else if valueCount < 2 {
            problems.append(Problem(offset: tupleStart, text: tupleText(),
                                    message: "malformed coordinate tuple: needs longitude and latitude, has \(valueCount) number",
                                    dropped: true))
        } else {
            coordinates.append(Coordinate(latitude: values.1, longitude: values.0, altitude: valueCount >= 3 ? values.2 : nil))
            if valueCount > 3 && valueCount % 3 == 0 {
                // Tuples joined by commas only (`1,2,0,3,4,0`): libkml, GDAL and Google Earth
                // read triples; a count that is not a multiple of three stays ambiguous.
                var triple = 0
                while triple + 2 < extraValues.count {
                    coordinates.append(Coordinate(latitude: extraValues[triple + 1], longitude: extraValues[triple],
                                                  altitude: extraValues[triple + 2]))
                    triple += 3
                }
                problems.append(Problem(offset: tupleStart, text: tupleText(),
                                        message: "\(valueCount) numbers joined by commas with no space between tuples; "
                                            + "read as \(valueCount / 3) longitude,latitude,altitude tuples",
                                        dropped: false, split: true))
            } else if valueCount > 3 {
                problems.append(Problem(offset: tupleStart, text: tupleText(),
                                        message: "coordinate tuple has \(valueCount) numbers, not a multiple of three; only longitude, latitude and altitude are kept",
                                        dropped: false))
            }
        }
        return index
    }

    /// Numbers separated by whitespace (`gx:coord`: "lon lat alt"); nil if any is not a number.
    static func parseSpaceSeparated(_ text: UnsafeBufferPointer<UInt8>) -> [Double]? {
        guard let base = text.baseAddress else { return [] }
        var result: [Double] = []
        var index = 0
        while true {
            while index < text.count && isSpace(base[index]) { index += 1 }
            guard index < text.count else { return result }
            let start = index
            while index < text.count && !isSpace(base[index]) { index += 1 }
            guard let value = number(base + start, count: index - start) else { return nil }
            result.append(value)
        }
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        XMLWhitespace.contains(byte)
    }

    /// One number: JSON's grammar on the fast path, else KML's looser forms (leading `+`,
    /// leading or trailing `.`, leading zeros), checked so that `nan`, `inf` and hex are refused.
    @inline(__always)
    static func number(_ start: UnsafePointer<UInt8>, count: Int) -> Double? {
        // Beyond a Double's range (1e400) is not a number either: it would be written as `inf`.
        if let value = JSONNumberParser.parse(start, count: count) { return value.isFinite ? value : nil }
        return looseNumber(start, count: count)
    }

    private static func looseNumber(_ start: UnsafePointer<UInt8>, count: Int) -> Double? {
        var digits = 0
        for index in 0..<count {
            switch start[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"): break
            default: return nil
            }
        }
        guard digits > 0, count < 400 else { return nil }
        var text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        if text.hasPrefix("+") { text.removeFirst() }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

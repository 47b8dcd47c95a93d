/// KML time values (`xsd:dateTime`, `xsd:date`, `xsd:gYearMonth`, `xsd:gYear`) as the span of
/// seconds they cover, so `TimeSpan` begin and end can be compared whatever their precision:
/// `2000` covers the whole year, `2000-05-01T10:00:00+02:00` one second.
struct KMLTime: Equatable {
    /// Seconds since 0000-03-01 UTC (a proleptic Gregorian count; only order matters).
    var start: Int64
    /// The first second after the period.
    var end: Int64

    /// Parses a KML time; nil when it is none of the four forms.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
            index += 1
            return true
        }
        guard let year = digits(4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0
        var precision = 0  // 0 year, 1 month, 2 day, 3 second
        var offsetSeconds = 0
        if expect("-") {
            guard let m = digits(2), (1...12).contains(m) else { return nil }
            month = m
            precision = 1
            if expect("-") {
                guard let d = digits(2), d >= 1, d <= KMLTime.daysIn(month: m, year: year) else { return nil }
                day = d
                precision = 2
                if expect("T") {
                    guard let h = digits(2), h < 24, expect(":"), let mi = digits(2), mi < 60, expect(":"),
                          let s = digits(2), s < 61 else { return nil }
                    (hour, minute, second) = (h, mi, s)
                    precision = 3
                    if expect(".") {
                        let fractionStart = index
                        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
                        guard index > fractionStart else { return nil }
                    }
                }
            }
        }
        // A zone: Z or ±hh:mm (allowed on every form).
        if index < bytes.count {
            if expect("Z") {
                offsetSeconds = 0
            } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let h = digits(2), h <= 14, expect(":"), let m = digits(2), m < 60 else { return nil }
                offsetSeconds = sign * (h * 3600 + m * 60)
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let startSeconds = KMLTime.seconds(year: year, month: month, day: day) + Int64(hour * 3600 + minute * 60 + second)
            - Int64(offsetSeconds)
        let length: Int64
        switch precision {
        case 0: length = KMLTime.seconds(year: year + 1, month: 1, day: 1) - KMLTime.seconds(year: year, month: 1, day: 1)
        case 1: length = Int64(KMLTime.daysIn(month: month, year: year)) * 86_400
        case 2: length = 86_400
        default: length = 1
        }
        start = startSeconds
        end = startSeconds + length
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from civil (Howard Hinnant's algorithm), in seconds.
    static func seconds(year: Int, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Int64(era * 146_097 + dayOfEra) * 86_400
    }
}

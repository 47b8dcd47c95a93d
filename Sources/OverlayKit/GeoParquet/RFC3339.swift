/// Dates and times from Parquet's integers, as RFC 3339 text in UTC.
enum RFC3339 {
    /// `days` since 1970-01-01 as `YYYY-MM-DD` (Howard Hinnant's civil-from-days).
    static func date(days: Int64) -> String {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// A count of 10^-`digits` seconds since the epoch as `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
    static func timestamp(_ value: Int64, digits: Int) -> String {
        let perSecond = power(digits)
        let perDay = 86_400 * perSecond
        let days = value >= 0 ? value / perDay : -((-(value + 1)) / perDay) - 1
        let within = value - days * perDay
        return date(days: days) + "T" + time(within, digits: digits) + "Z"
    }

    /// A count of 10^-`digits` seconds since midnight as `HH:MM:SS[.fff]`.
    static func time(_ value: Int64, digits: Int) -> String {
        let perSecond = power(digits)
        let seconds = value / perSecond
        let fraction = value % perSecond
        var text = pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        if fraction != 0 {
            var digitsText = pad(abs(fraction), digits)
            while digitsText.hasSuffix("0") { digitsText.removeLast() }
            text += "." + digitsText
        }
        return text
    }

    private static func power(_ digits: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<min(max(digits, 0), 9) { result *= 10 }
        return result
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

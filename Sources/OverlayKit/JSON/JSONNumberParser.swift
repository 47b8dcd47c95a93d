#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses JSON number text (RFC 8259 grammar) into the correctly rounded Double.
///
/// The result is bit-for-bit what `Double(String)` returns for the same text, but
/// without creating a String: digits are accumulated into a 64-bit decimal mantissa
/// and converted with Clinger's exact fast path, then the Eisel–Lemire algorithm,
/// and only in rare ambiguous cases (more than 19 significant digits sitting right
/// on a rounding boundary) with the C library's correctly rounded `strtod`.
package enum JSONNumberParser {

    // MARK: Public API

    /// Parses the bytes `start ..< start+count`, which must hold exactly one JSON number
    /// (no surrounding whitespace).
    ///
    /// - Returns: the correctly rounded value, equal bit for bit to
    ///   `Double(String(decoding: bytes, as: UTF8.self))`, including `-0.0`, subnormals,
    ///   overflow to ±infinity (`1e400`) and underflow to ±0 (`1e-400`); or `nil` when the
    ///   text is not a valid JSON number (`01`, `-`, `1.`, `.5`, `1e`, `+1`, `NaN`, …).
    @inlinable
    package static func parse(_ start: UnsafePointer<UInt8>, count: Int) -> Double? {
        parse(start, end: start + count, prefix: false)?.value
    }

    /// Parses the JSON number at `start`, which runs on to other text before `end` (a
    /// delimiter: whitespace, `,`, `]`, …), in the same single pass that finds where it stops.
    ///
    /// - Returns: the value (as `parse` gives it for those bytes), the number's length and how
    ///   many digits follow its decimal point; nil when the text is no JSON number, or when
    ///   the number reaches `end` or runs on into characters numbers are made of (`1.2.3`,
    ///   `1-2`): the caller then tokenizes it the slow way and reports it exactly.
    @inlinable
    static func parsePrefix(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>)
        -> (value: Double, length: Int, fractionDigits: Int)? {
        if end - start >= 32, let found = parseShortDecimal(start) { return found }
        return parseGeneralPrefix(start, end: end)
    }

    /// `parsePrefix` for what the short-decimal path declines, out of line so that path's
    /// caller stays small (inlined, the general parser's register spills cost every number).
    @usableFromInline @inline(never)
    static func parseGeneralPrefix(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>)
        -> (value: Double, length: Int, fractionDigits: Int)? {
        guard let found = parse(start, end: end, prefix: true) else { return nil }
        return (found.value, found.stop - start, found.fractionDigits)
    }

    /// The one number parser behind `parse` (the bytes hold exactly one number) and
    /// `parsePrefix` (a number followed by a delimiter).
    @inlinable @inline(__always)
    static func parse(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, prefix: Bool)
        -> (value: Double, stop: UnsafePointer<UInt8>, fractionDigits: Int)? {
        var p = start
        var fractionDigits = 0
        guard p < end else { return nil }
        let negative = p.pointee == UInt8(ascii: "-")
        if negative {
            p += 1
            guard p < end else { return nil }
        }

        var mantissa: UInt64 = 0  // first (up to) 19 significant digits
        var digits = 0            // significant digits held in `mantissa`
        var exponent = 0          // value = mantissa * 10^exponent (before dropped digits)
        var truncated = false     // a non-zero digit was dropped beyond the 19th

        // Integer part: "0" or [1-9][0-9]*.
        var d = p.pointee &- 48
        if d == 0 {
            p += 1
            if p < end && p.pointee &- 48 < 10 { return nil }  // leading zero
        } else if d < 10 {
            while true {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits += 1
                } else {
                    exponent += 1
                    truncated = truncated || d != 0
                }
                p += 1
                guard p < end else { break }
                d = p.pointee &- 48
                guard d < 10 else { break }
            }
        } else {
            return nil  // "+1", ".5", "-x", "NaN", "Infinity", ...
        }

        // Fraction: "." [0-9]+
        if p < end && p.pointee == UInt8(ascii: ".") {
            p += 1
            let fractionStart = p
            if mantissa == 0 {
                // Leading zeros ("0.000123") are not significant; they only scale.
                while p < end && p.pointee == UInt8(ascii: "0") { p += 1 }
                exponent -= p - fractionStart
            }
            // Eight digits per step (SWAR) while they fit the 19-digit budget; this is
            // what keeps typical 15-17 digit coordinates cheap.
            while digits <= 11 && end - p >= 8 {
                let chunk = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
                guard isEightDigits(chunk) else { break }
                mantissa = mantissa &* 100_000_000 &+ eightDigitsValue(chunk)
                digits += 8
                exponent -= 8
                p += 8
            }
            // Then four at a time (the tail of a 15-17 digit fraction).
            if digits <= 15 && end - p >= 4 {
                let chunk = UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
                if isFourDigits(chunk) {
                    mantissa = mantissa &* 10_000 &+ fourDigitsValue(chunk)
                    digits += 4
                    exponent -= 4
                    p += 4
                }
            }
            while p < end {
                let d = p.pointee &- 48
                guard d < 10 else { break }
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    digits += 1
                    exponent -= 1
                } else if d != 0 {
                    truncated = true
                }
                p += 1
            }
            guard p != fractionStart else { return nil }  // "1." or "1.e5"
            fractionDigits = p - fractionStart
        }

        // Exponent: [eE] [+-]? [0-9]+  (leading zeros allowed)
        if p < end && p.pointee | 0x20 == UInt8(ascii: "e") {
            p += 1
            guard p < end else { return nil }
            var exponentNegative = false
            if p.pointee == UInt8(ascii: "-") {
                exponentNegative = true
                p += 1
            } else if p.pointee == UInt8(ascii: "+") {
                p += 1
            }
            guard p < end else { return nil }
            var e = 0
            var d = p.pointee &- 48
            guard d < 10 else { return nil }
            while true {
                // Saturate: anything this large is already 0 or infinity.
                if e < 100_000 { e = e &* 10 &+ Int(d) }
                p += 1
                guard p < end else { break }
                d = p.pointee &- 48
                guard d < 10 else { break }
            }
            exponent += exponentNegative ? -e : e
        }
        if prefix {
            // A delimiter must follow, within the bytes at hand.
            guard p < end else { return nil }
            let next = p.pointee
            if next &- 48 < 10 || next == UInt8(ascii: ".") || next == UInt8(ascii: "-") || next == UInt8(ascii: "+")
                || next | 0x20 == UInt8(ascii: "e") {
                return nil
            }
        } else {
            guard p == end else { return nil }
        }

        let sign: UInt64 = negative ? 1 << 63 : 0
        if mantissa == 0 {
            return (Double(bitPattern: sign), p, fractionDigits)  // 0, -0, 0e999, -0.000e-5
        }

        // Clinger: both operands are exact doubles, so one IEEE operation rounds correctly.
        if !truncated && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            let m = Double(Int64(truncatingIfNeeded: mantissa))
            let scaled = exponent < 0
                ? m / exactPowerOfTen(-exponent)
                : m * exactPowerOfTen(exponent)
            return (negative ? -scaled : scaled, p, fractionDigits)
        }

        // Eisel–Lemire is always exact for a complete <= 19-digit mantissa.
        let bits = eiselLemire(mantissa, exponent)
        // If digits were dropped the true value lies in (mantissa, mantissa+1) * 10^exponent;
        // when both ends round to the same double, so does everything in between.
        if !truncated || bits == eiselLemireOutlined(mantissa &+ 1, exponent) {
            return (Double(bitPattern: bits | sign), p, fractionDigits)
        }
        return slowPath(start, count: p - start).map { ($0, p, fractionDigits) }
    }

    /// The common coordinate form `-?[1-9]?[0-9]{1,6}\.[0-9]{1,15}` (at most 19 significant
    /// digits, no exponent) followed by a delimiter, with whole 8-byte loads instead of a loop
    /// per digit: each run of digits is measured and valued with SWAR. It needs 32 readable bytes
    /// from `start`. Nil for anything else; `parse` then handles it (and reports it exactly).
    @inlinable @inline(__always)
    static func parseShortDecimal(_ start: UnsafePointer<UInt8>)
        -> (value: Double, length: Int, fractionDigits: Int)? {
        let negative = start.pointee == UInt8(ascii: "-")
        let integerStart = negative ? start + 1 : start
        let head = loadEight(integerStart)
        let integerDigits = digitRunLength(head)
        guard integerDigits >= 1, integerDigits <= 7, integerStart[integerDigits] == UInt8(ascii: "."),
              integerDigits == 1 || integerStart.pointee != UInt8(ascii: "0") else { return nil }
        let fractionStart = integerStart + integerDigits + 1
        let first = loadEight(fractionStart)
        let firstDigits = digitRunLength(first)
        var fractionDigits = firstDigits
        var fraction = leadingDigitsValue(first, count: firstDigits)
        if firstDigits == 8 {
            let second = loadEight(fractionStart + 8)
            let secondDigits = digitRunLength(second)
            guard secondDigits < 8 else { return nil }
            fraction = fraction &* exactIntegerPowerOfTen(secondDigits) &+ leadingDigitsValue(second, count: secondDigits)
            fractionDigits += secondDigits
        }
        guard fractionDigits >= 1, integerDigits + fractionDigits <= 19 else { return nil }
        let stop = fractionStart + fractionDigits
        // A delimiter must follow (a digit cannot: the run ended).
        let next = stop.pointee
        if next == UInt8(ascii: ".") || next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        let mantissa = leadingDigitsValue(head, count: integerDigits) &* exactIntegerPowerOfTen(fractionDigits) &+ fraction
        let exponent = -fractionDigits
        let length = stop - start
        if mantissa == 0 { return (negative ? -0.0 : 0.0, length, fractionDigits) }
        if mantissa <= 1 << 53 && exponent >= -22 {
            let scaled = Double(Int64(truncatingIfNeeded: mantissa)) / exactPowerOfTen(-exponent)
            return (negative ? -scaled : scaled, length, fractionDigits)
        }
        let bits = eiselLemire(mantissa, exponent) | (negative ? 1 << 63 : 0)
        return (Double(bitPattern: bits), length, fractionDigits)
    }

    /// Parses an integer literal (`-?(0|[1-9][0-9]*)`: no fraction, no exponent).
    ///
    /// - Returns: the exact value, or `nil` when the text is not a valid JSON integer
    ///   literal (e.g. `1.0`, `1e3`, `01`) or does not fit `Int64`. `-0` gives `0`.
    package static func parseInteger(_ start: UnsafePointer<UInt8>, count: Int) -> Int64? {
        let end = start + count
        var p = start
        guard p < end else { return nil }
        let negative = p.pointee == UInt8(ascii: "-")
        if negative {
            p += 1
            guard p < end else { return nil }
        }
        let first = p.pointee &- 48
        guard first < 10 else { return nil }
        if first == 0 { return p + 1 == end ? 0 : nil }
        var magnitude: UInt64 = 0
        while p < end {
            let d = p.pointee &- 48
            guard d < 10 else { return nil }
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d))
            if o1 || o2 { return nil }
            magnitude = sum
            p += 1
        }
        if negative {
            return magnitude <= 1 << 63 ? Int64(bitPattern: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    // MARK: Digit helpers

    /// Eight bytes from `p`, first byte lowest.
    @inlinable @inline(__always)
    static func loadEight(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// How many of the eight bytes, from the first (lowest), are ASCII digits before another
    /// byte. A borrow from a non-digit only disturbs the bytes above it, which do not count.
    @inlinable @inline(__always)
    static func digitRunLength(_ v: UInt64) -> Int {
        let nonDigits = ((v &+ 0x4646_4646_4646_4646) | (v &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080
        return nonDigits.trailingZeroBitCount >> 3
    }

    /// The value of the first `count` (0…8) bytes, which are ASCII digits: they are moved to
    /// the top and the bytes below filled with '0', so the eight-digit SWAR gives their value.
    @inlinable @inline(__always)
    static func leadingDigitsValue(_ v: UInt64, count: Int) -> UInt64 {
        if count == 0 { return 0 }
        if count == 8 { return eightDigitsValue(v) }
        let shift = UInt64(64 - 8 * count)
        return eightDigitsValue(v << shift | (0x3030_3030_3030_3030 & ((1 << shift) - 1)))
    }

    /// 10^e for 0 <= e <= 19 as an integer.
    @inlinable @inline(__always)
    static func exactIntegerPowerOfTen(_ e: Int) -> UInt64 {
        exactIntegerPowersOfTen.withUnsafeBufferPointer { $0[e] }
    }

    @usableFromInline
    static let exactIntegerPowersOfTen: [UInt64] = [  // a literal: initialized statically, no lazy-init check per use
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// True when all eight little-endian bytes are ASCII digits.
    @inlinable @inline(__always)
    static func isEightDigits(_ v: UInt64) -> Bool {
        ((v &+ 0x4646_4646_4646_4646) | (v &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080 == 0
    }

    /// Value of eight ASCII digits (first digit in the lowest byte), by pairwise combining.
    @inlinable @inline(__always)
    static func eightDigitsValue(_ chunk: UInt64) -> UInt64 {
        var v = chunk &- 0x3030_3030_3030_3030
        v = (v &* 10) &+ (v >> 8)  // pairs of digits in the even bytes
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let mul1: UInt64 = 0x000F_4240_0000_0064  // 100 + (1_000_000 << 32)
        let mul2: UInt64 = 0x0000_2710_0000_0001  // 1 + (10_000 << 32)
        return (((v & mask) &* mul1) &+ (((v >> 16) & mask) &* mul2)) >> 32
    }

    /// True when all four little-endian bytes are ASCII digits.
    @inlinable @inline(__always)
    static func isFourDigits(_ v: UInt32) -> Bool {
        ((v &+ 0x4646_4646) | (v &- 0x3030_3030)) & 0x8080_8080 == 0
    }

    /// Value of four ASCII digits (first digit in the lowest byte).
    @inlinable @inline(__always)
    static func fourDigitsValue(_ chunk: UInt32) -> UInt64 {
        var v = chunk &- 0x3030_3030
        v = (v &* 10) &+ (v >> 8)  // byte 0: first pair, byte 2: second pair
        return UInt64(v & 0xFF) &* 100 &+ UInt64((v >> 16) & 0xFF)
    }

    /// 10^e for 0 <= e <= 22: every one is exactly representable as a Double.
    @inlinable @inline(__always)
    static func exactPowerOfTen(_ e: Int) -> Double {
        exactPowersOfTen.withUnsafeBufferPointer { $0[e] }
    }

    @usableFromInline
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    // MARK: Eisel–Lemire

    /// Bit pattern (sign bit clear) of the double nearest to `w * 10^q`, for `w != 0`.
    ///
    /// Eisel–Lemire as in fast_float: multiply the normalised mantissa by a 128-bit
    /// approximation of 5^q (the power of two is folded into the exponent). With the
    /// table below the 128-bit product is always sufficient for a <= 64-bit `w`
    /// (Mushtak & Lemire, "Fast Number Parsing Without Fallback"), so no failure case.
    @inlinable @inline(__always)
    static func eiselLemire(_ w: UInt64, _ q: Int) -> UInt64 {
        // w * 10^q with w < 2^64 is below half the smallest subnormal for q < -342 and
        // above the largest finite double for q > 308.
        if q < -342 { return 0 }
        if q > 308 { return 0x7FF << 52 }

        let lz = w.leadingZeroBitCount
        let wn = w << UInt64(lz)
        let index = 2 &* (q &+ 342)
        let (hi, lo) = pow5Table.withUnsafeBufferPointer { table -> (UInt64, UInt64) in
            var product = wn.multipliedFullWidth(by: table[index])
            // Only when the low 9 bits below the 55 we keep are all ones can the
            // truncated lower word of 5^q change the result: refine with it.
            if product.high & 0x1FF == 0x1FF {
                let second = wn.multipliedFullWidth(by: table[index &+ 1]).high
                let (sum, carry) = product.low.addingReportingOverflow(second)
                product.low = sum
                if carry { product.high &+= 1 }
            }
            return (product.high, product.low)
        }

        let upperBit = Int(hi >> 63)
        let shift = upperBit &+ 9  // keep 55 bits: 52 stored + implicit + round + spare
        var mantissa = hi >> UInt64(shift)
        // floor(log2(10^q)) + 63 via a fixed-point log2(10) (exact for |q| < 350), re-biased.
        var power2 = ((217_706 &* q) >> 16) &+ 63 &+ upperBit &- lz &+ 1023

        if power2 <= 0 {
            // Subnormal (or underflow to zero).
            if 1 &- power2 >= 64 { return 0 }
            mantissa >>= UInt64(1 &- power2)
            mantissa &+= mantissa & 1
            mantissa >>= 1
            // If rounding carried into bit 52 this is exactly the smallest normal,
            // whose bit pattern is the same number.
            return mantissa
        }

        // Exact halfway cases can only occur for small |q| where 5^q fits 64 bits;
        // there the product is exact and we must round half to even instead of up.
        if lo <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1 && mantissa << UInt64(shift) == hi {
            mantissa &= ~1
        }
        mantissa &+= mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 &+= 1
        }
        if power2 >= 0x7FF { return 0x7FF << 52 }
        return UInt64(power2) << 52 | (mantissa & ((1 << 52) - 1))
    }

    /// Out-of-line copy for the rare truncated-digits check, keeping the hot path small.
    @usableFromInline @inline(never)
    static func eiselLemireOutlined(_ w: UInt64, _ q: Int) -> UInt64 {
        eiselLemire(w, q)
    }

    // MARK: Fallback

    /// Correctly rounded conversion by the C library (glibc/Darwin strtod are exact),
    /// for the rare >19-digit inputs that straddle a rounding boundary.
    @usableFromInline @inline(never)
    static func slowPath(_ start: UnsafePointer<UInt8>, count: Int) -> Double? {
        let viaStrtod: Double? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buf in
            guard let base = buf.baseAddress else { return nil }
            UnsafeMutableRawPointer(base).copyMemory(from: start, byteCount: count)
            base[count] = 0
            var stop: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(base, &stop)
            // A non-C LC_NUMERIC (decimal comma) would stop at "."; detect and defer.
            return stop == base + count ? value : nil
        }
        if let viaStrtod { return viaStrtod }
        return Double(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
    }
}

extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped to the type's range; NaN gives zero.
    ///
    /// Swift's `Int(_: Double)` traps on NaN, on infinities and on values out of range, and
    /// hostile input reaches such conversions (a coordinate of 1e308, a radius of 1e20); every
    /// conversion of a computed Double to an integer goes through here or is proven in range.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = .min
        } else if value >= Double(Self.max) {
            // Double(max) rounds up to a power of two, so every value below it converts exactly.
            self = .max
        } else {
            self.init(value)
        }
    }
}

// The generic initializer above converts through `FixedWidthInteger`'s bit-by-bit
// `_convert(from:)`, which showed up at ~5% of tiling's instructions; these concrete ones
// (same results) compile to one CPU conversion after the same checks.

extension Int32 {
    /// `value` rounded toward zero and clamped to `Int32`'s range; NaN gives zero.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Int32.min) {
            self = .min
        } else if value >= Double(Int32.max) {
            self = .max
        } else {
            self = Int32(value)
        }
    }
}

extension Int {
    /// `value` rounded toward zero and clamped to `Int`'s range; NaN gives zero.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Int.min) {
            self = .min
        } else if value >= Double(Int.max) {
            // Double(Int.max) rounds up to 2^63, so every value below it converts exactly.
            self = .max
        } else {
            self = Int(value)
        }
    }
}

extension Int {
    /// `self + other`, clamped to `Int`'s range instead of trapping (counts of 4^z tiles).
    @inlinable
    package func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self × other`, clamped to `Int`'s range instead of trapping.
    @inlinable
    package func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}

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

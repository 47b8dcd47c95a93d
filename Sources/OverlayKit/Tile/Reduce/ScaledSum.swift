/// The sum and mean of doubles without overflow on the way: the values are scaled by a power of
/// two (exact) so the largest has magnitude in [1, 2), added with Neumaier's compensation, and
/// scaled back. So the mean of 300 values of 1e308 is 1e308 (a plain sum reached +inf first),
/// and a sum is infinite only when the true sum is beyond the largest double: then ``sum`` is
/// nil and the caller says so instead of writing infinity. The scaling multiplies each value by
/// the power of two in one step (`scalbn`), never forming the factor itself: at the tiny end
/// (subnormals such as 1e-310, whose scale factor 2^1030 is beyond the largest double) the
/// factor alone would be infinite and the mean NaN. O(n), two passes.
struct ScaledSum {
    /// The sum, or nil when it is beyond ±`Double.greatestFiniteMagnitude`.
    let sum: Double?
    /// The mean (nil for no values): always finite for finite values, between their extremes.
    let mean: Double?

    /// The sum and mean of `values` (finite numbers, as JSON holds).
    init(_ values: [Double]) {
        guard let largest = values.lazy.map(\.magnitude).max() else {
            (sum, mean) = (0, nil)
            return
        }
        guard largest > 0 else {
            (sum, mean) = (0, 0)
            return
        }
        let exponent = Int(largest.exponent)
        // Scaling by 2^−exponent is exact except for values below 2^−1074 of the scaled ones.
        var total = 0.0, compensation = 0.0
        for value in values {
            let scaled = Double(sign: .plus, exponent: -exponent, significand: value)
            let next = total + scaled
            compensation += total.magnitude >= scaled.magnitude ? (total - next) + scaled : (scaled - next) + total
            total = next
        }
        total += compensation
        let sum = Double(sign: .plus, exponent: exponent, significand: total)
        self.sum = sum.isFinite ? sum : nil
        let mean = Double(sign: .plus, exponent: exponent, significand: total / Double(values.count))
        // |mean| ≤ largest in exact arithmetic; rounding may not push it past.
        self.mean = Swift.min(Swift.max(mean, -largest), largest)
    }
}

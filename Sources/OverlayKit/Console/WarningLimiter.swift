import OverlayModel

/// Passes on the first few warnings of each code and counts the rest, so a long stream of the
/// same warning does not flood standard error.
struct WarningLimiter {
    static let perCode = 5
    private var counts: [Diagnostic.Code: Int] = [:]

    /// Counts the warning; true when it is among the first `perCode` of its code and should be shown.
    mutating func admits(_ diagnostic: Diagnostic) -> Bool {
        counts[diagnostic.code, default: 0] += 1
        return counts[diagnostic.code]! <= WarningLimiter.perCode
    }

    /// One note per code that had warnings held back, in code order.
    func summary() -> [Diagnostic] {
        counts.sorted(by: { $0.key.rawValue < $1.key.rawValue }).compactMap { code, count in
            guard count > WarningLimiter.perCode else { return nil }
            return Diagnostic(.note, code: .filterWarningsNotShown,
                              message: "\(count - WarningLimiter.perCode) more \(code) warnings not shown (\(count) in all)")
        }
    }
}

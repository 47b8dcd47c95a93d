/// How far a long run is and how long it has left, in the words of a status line: "42%, about
/// 1 min 20 s left". The time left is the time so far stretched by what remains, as the total
/// is known: exact for bytes of a file read, an estimate for tiles (`FeatureReach`'s count of
/// the tiles features reach) — held below 100% until the run says it is done.
package struct ProgressEstimate: Hashable, Sendable {
    /// The part done, 0…1.
    package var fraction: Double
    /// Seconds since the run began.
    package var elapsedSeconds: Double

    /// `done` of `total` after `elapsedSeconds` (nil when the total is unknown or 0).
    package init?(done: Double, total: Double?, elapsedSeconds: Double) {
        guard let total, total > 0, done.isFinite, total.isFinite else { return nil }
        // An estimate may be passed before the end: the line never claims the run is over.
        fraction = min(max(done / total, 0), 0.99)
        self.elapsedSeconds = elapsedSeconds
    }

    /// Seconds left at the rate so far; nil before anything is done.
    package var secondsLeft: Double? {
        guard fraction > 0 else { return nil }
        return elapsedSeconds * (1 - fraction) / fraction
    }

    /// "42%, about 1 min 20 s left" ("0%" alone below 1%: a rate from so little is noise — the
    /// first tile of a world said hours).
    package var text: String {
        let percent = "\(Int((fraction * 100).rounded(.down)))%"
        guard fraction >= 0.01, let left = secondsLeft else { return percent }
        return percent + ", about \(Self.duration(left)) left"
    }

    /// "3 s", "1 min 20 s", "2 h 5 min": whole seconds, two units at most.
    package static func duration(_ seconds: Double) -> String {
        let whole = Int(min(max(seconds, 0), 8.64e6).rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
}

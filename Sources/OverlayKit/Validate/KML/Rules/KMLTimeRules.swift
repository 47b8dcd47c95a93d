import OverlayModel

extension KMLValidator.Walk {
    /// Time rules: a TimeSpan has begin or end (ATC 4), a TimeStamp has when (ATC 5).
    mutating func checkTimeRules(_ frame: KMLValidator.Frame) {
        let has = { (child: String) in frame.childCounts[child] != nil }
        switch frame.name {
        case "TimeSpan", "gx:TimeSpan":
            // ATC 4 (1): begin or end.
            if !has("begin") && !has("end") { ats(.error, .kmlTimespanEmpty, "<\(frame.qualifiedName)> has neither <begin> nor <end>", frame) }
        case "TimeStamp", "gx:TimeStamp":
            // ATC 5: a when.
            if !has("when") { ats(.error, .kmlTimestampWhenMissing, "<\(frame.qualifiedName)> has no <when>", frame) }
        default:
            break
        }
    }
}

import OverlayModel

extension KMLValidator.Walk {
    /// Tour rules, from the KML 2.3 ATS (OGC 14-068r2), which adopted Google's gx:Tour: a Tour
    /// plays a Playlist of one or more primitives (ATC-141), a FlyTo flies to a Camera or LookAt
    /// (ATC-142) by a flyToMode (ATC-228, level 2), a TourControl has a playMode (ATC-143), and
    /// durations are positive (ATC-228–230, level 2: FlyTo ≥ 0, Wait and AnimatedUpdate > 0).
    /// The same rules serve a KML 2.2 document's gx: tours, whose elements mean the same.
    mutating func checkTourRules(_ frame: KMLValidator.Frame) {
        let has = { (child: String) in frame.childCounts[child] != nil }
        let duration = frame.values["gx:duration"].flatMap(KMLATSChecks.number)
        switch frame.name {
        case "gx:Tour":
            let primitives = Int(frame.values["gx:Playlist/primitives"] ?? "") ?? 0
            if !has("gx:Playlist") || primitives == 0 {
                ats(.error, .kmlTourPlaylist, has("gx:Playlist") ? "the Tour's Playlist holds no tour primitive (FlyTo, Wait, TourControl, AnimatedUpdate, SoundCue)"
                    : "the Tour has no <Playlist>", frame)
            }
        case "gx:Playlist":
            let primitives = frame.childCounts.filter { KMLATSChecks.tourPrimitives.contains($0.key) }.values.reduce(0, +)
            if !stack.isEmpty { stack[stack.count - 1].values["gx:Playlist/primitives"] = String(primitives) }
        case "gx:FlyTo":
            if !has("Camera") && !has("LookAt") {
                ats(.error, .kmlFlytoView, "FlyTo has neither a <Camera> nor a <LookAt> to fly to", frame)
            }
            if !has("gx:flyToMode") {
                ats(.warning, .kmlFlytoMode, "FlyTo has no <flyToMode> (bounce or smooth); players take bounce", frame)
            }
            if let duration, duration < 0 {
                ats(.warning, .kmlTourDuration, "FlyTo duration \(duration) is negative", frame)
            }
        case "gx:TourControl":
            if !has("gx:playMode") { ats(.error, .kmlTourControlPlayMode, "TourControl has no <playMode>", frame) }
        case "gx:Wait", "gx:AnimatedUpdate":
            let element = frame.name.dropFirst(3)
            if let duration {
                if duration <= 0 { ats(.warning, .kmlTourDuration, "\(element) duration \(duration) is not positive", frame) }
            } else if !has("gx:duration") {
                ats(.warning, .kmlTourDuration, "\(element) has no <duration> (seconds, > 0)", frame)
            }
        default:
            break
        }
    }

    /// KML 2.3 ATC-145: the targetHref of an AnimatedUpdate's Update is empty (the elements to
    /// change are in this document) or an absolute URI of the KML or KMZ file to update.
    mutating func checkAnimatedUpdateTarget(_ frame: KMLValidator.Frame, text: String) {
        if !text.isEmpty && (KMLATSChecks.scheme(of: text) == nil || !KMLATSChecks.isURIReference(text)) {
            ats(.error, .kmlAnimatedUpdateTarget,
                "AnimatedUpdate <targetHref> '\(text.prefix(60))' is neither empty (this document) nor an absolute URI", frame)
        }
    }
}

import OverlayModel

extension KMLValidator.Walk {
    /// View rules: ViewVolume (ATC 19), LookAt (ATC 38), Camera (ATC 54).
    mutating func checkViewRules(_ frame: KMLValidator.Frame) {
        let values = frame.values
        let has = { (child: String) in frame.childCounts[child] != nil }
        switch frame.name {
        case "ViewVolume":
            // ATC 19: all five fields, near not negative.
            let missing = ["leftFov", "rightFov", "bottomFov", "topFov", "near"].filter { !has($0) }
            if !missing.isEmpty {
                ats(.error, .kmlViewvolumeIncomplete, "ViewVolume lacks <\(missing.joined(separator: ">, <"))>", frame)
            } else if let near = values["near"].flatMap(KMLATSChecks.number), near < 0 {
                ats(.error, .kmlViewvolumeIncomplete, "ViewVolume near is negative (\(near))", frame)
            }
        case "LookAt":
            // ATC 38: position and range; tilt 0…90; an altitude unless clamped.
            let missing = ["longitude", "latitude", "range"].filter { !has($0) }
            if !missing.isEmpty { ats(.error, .kmlLookatIncomplete, "LookAt lacks <\(missing.joined(separator: ">, <"))>", frame) }
            if let tilt = values["tilt"].flatMap(KMLATSChecks.number), !(0...90).contains(tilt) {
                ats(.error, .kmlLookatTilt, "LookAt tilt \(tilt) is outside 0…90", frame)
            }
            let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
            if mode != "clampToGround" && mode != "clampToSeaFloor" && !has("altitude") {
                ats(.error, .kmlLookatAltitude, "LookAt altitudeMode is \(mode) but it has no <altitude>", frame)
            }
        case "Camera":
            // ATC 54 (level 2).
            let missing = ["longitude", "latitude", "altitude"].filter { !has($0) }
            if !missing.isEmpty { ats(.warning, .kmlCameraIncomplete, "Camera lacks <\(missing.joined(separator: ">, <"))>", frame) }
            if (values["altitudeMode"] ?? "clampToGround") == "clampToGround" && values["gx:altitudeMode"] == nil {
                ats(.warning, .kmlCameraAltitudeMode, "Camera altitudeMode is clampToGround (the default); a camera is placed above the ground", frame)
            }
        default:
            break
        }
    }
}

import OverlayModel

extension KMLValidator.Walk {
    /// Model rules: Orientation (ATC 32, 75), Model (ATC 34, 55), Location (ATC 55), ResourceMap and Alias (ATC 50).
    mutating func checkModelRules(_ frame: KMLValidator.Frame) {
        let values = frame.values
        let has = { (child: String) in frame.childCounts[child] != nil }
        let parentName = stack.last?.name
        switch frame.name {
        case "Orientation":
            // ATC 32; ATC 75 (level 3): all three.
            let present = ["heading", "tilt", "roll"].filter(has)
            if present.isEmpty {
                ats(.error, .kmlOrientationEmpty, "Orientation has none of heading, tilt, roll", frame)
            } else if present.count < 3 {
                ats(.info, .kmlOrientationPartial, "Orientation gives \(present.joined(separator: ", ")) but not all of heading, tilt, roll", frame)
            }
        case "Model":
            // ATC 34 (1); ATC 55 (2) (level 2): a Location altitude unless clamped.
            let missing = ["Link", "Location"].filter { !has($0) }
            if !missing.isEmpty { ats(.error, .kmlModelIncomplete, "Model lacks <\(missing.joined(separator: ">, <"))>", frame) }
            let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
            if has("Location") && values["Location/altitude"] == nil && mode != "clampToGround" && mode != "clampToSeaFloor" {
                ats(.warning, .kmlLocationIncomplete, "Model altitudeMode is \(mode) but its Location has no <altitude>", frame)
            }
        case "Location":
            // ATC 55 (1) (level 2).
            if !has("longitude") || !has("latitude") {
                ats(.warning, .kmlLocationIncomplete, "Location should give <longitude> and <latitude>", frame)
            }
            if has("altitude"), !stack.isEmpty { stack[stack.count - 1].values["Location/altitude"] = values["altitude"] }
        case "ResourceMap":
            // ATC 50 (level 2).
            if !has("Alias") { ats(.warning, .kmlResourceMapAlias, "ResourceMap has no <Alias>", frame) }
        case "Alias":
            if let source = values["sourceHref"], parentName == "ResourceMap" {
                if stack[stack.count - 1].aliasSources.contains(source) {
                    ats(.warning, .kmlResourceMapAlias, "Alias sourceHref '\(source.prefix(60))' appears twice in this ResourceMap", frame)
                } else {
                    stack[stack.count - 1].aliasSources.insert(source)
                }
            }
        default:
            break
        }
    }
}

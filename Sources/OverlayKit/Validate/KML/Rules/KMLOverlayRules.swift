import OverlayModel

extension KMLValidator.Walk {
    /// Overlay rules: GroundOverlay (ATC 33, 53, 56), ScreenOverlay (ATC 56, 57), PhotoOverlay (ATC 35, 52, 56), ImagePyramid (ATC 62).
    mutating func checkOverlayRules(_ frame: KMLValidator.Frame) {
        let values = frame.values
        let has = { (child: String) in frame.childCounts[child] != nil }
        switch frame.name {
        case "GroundOverlay":
            // ATC 33; ATC 53 and 56 (level 2).
            if values["altitudeMode"] == "absolute" && !has("altitude") {
                ats(.error, .kmlGroundOverlayAltitude, "GroundOverlay with altitudeMode absolute needs an <altitude>", frame)
            }
            if !has("LatLonBox") && !has("gx:LatLonQuad") {
                ats(.warning, .kmlGroundOverlayBox, "GroundOverlay has no <LatLonBox> (or gx:LatLonQuad) placing it", frame)
            }
            if !has("Icon") { ats(.warning, .kmlOverlayIconMissing, "<GroundOverlay> has no <Icon> image", frame) }
        case "ScreenOverlay":
            // ATC 56, 57 (level 2).
            if !has("Icon") { ats(.warning, .kmlOverlayIconMissing, "<ScreenOverlay> has no <Icon> image", frame) }
            if !has("screenXY") { ats(.warning, .kmlScreenOverlayXy, "ScreenOverlay has no <screenXY> placing it", frame) }
        case "PhotoOverlay":
            // ATC 35; ATC 52 (level 2): $[x], $[y], $[level] in the href exactly when there is an ImagePyramid.
            let missing = ["Icon", "ViewVolume", "Point", "Camera"].filter { !has($0) }
            if !missing.isEmpty {
                ats(.error, .kmlPhotoOverlayIncomplete, "PhotoOverlay lacks <\(missing.joined(separator: ">, <"))>", frame)
            }
            // An ImagePyramid with no Icon href at all has no tile parameters either.
            let href = values["Icon/href"] ?? ""
            let tiled = ["$[x]", "$[y]", "$[level]"].allSatisfy { href.contains($0) }
            if tiled != has("ImagePyramid") {
                ats(.warning, .kmlPhotoOverlayPyramid, tiled ? "PhotoOverlay href has $[x], $[y] and $[level] but no <ImagePyramid>"
                    : "PhotoOverlay has an <ImagePyramid> but its Icon href lacks $[x], $[y] and $[level]", frame)
            }
            if !has("Icon") { ats(.warning, .kmlOverlayIconMissing, "<PhotoOverlay> has no <Icon> image", frame) }
        case "ImagePyramid":
            // ATC 62 (level 2).
            let missing = ["maxWidth", "maxHeight"].filter { !has($0) }
            if !missing.isEmpty { ats(.warning, .kmlImagePyramid, "ImagePyramid lacks <\(missing.joined(separator: ">, <"))>", frame) }
            if let size = values["tileSize"].flatMap(KMLATSChecks.number), !(size >= 1 && size <= 1_073_741_824 && size == size.rounded()
                && Int(size).nonzeroBitCount == 1) {
                ats(.warning, .kmlImagePyramid, "ImagePyramid tileSize \(values["tileSize"]!) is not a power of 2", frame)
            }
        default:
            break
        }
    }
}

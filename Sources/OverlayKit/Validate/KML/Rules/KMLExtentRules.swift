import OverlayModel

extension KMLValidator.Walk {
    /// Extent and region rules: LatLonAltBox (ATC 8), LatLonBox (ATC 11), LatLonQuad (KML 2.3
    /// ATC-149), Lod (ATC 39, 74), Region (ATC 41).
    mutating func checkExtentRules(_ frame: KMLValidator.Frame) {
        let values = frame.values
        let has = { (child: String) in frame.childCounts[child] != nil }
        switch frame.name {
        case "LatLonAltBox":
            // ATC 8: a non-empty box; altitudes in order, and not clamped when both are given.
            checkBoxExtent(frame, code: .kmlLatlonaltboxExtent)
            if let low = values["minAltitude"].flatMap(KMLATSChecks.number), let high = values["maxAltitude"].flatMap(KMLATSChecks.number) {
                if low > high {
                    ats(.error, .kmlLatlonaltboxAltitude, "LatLonAltBox minAltitude \(low) is above maxAltitude \(high)", frame)
                }
                let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
                if mode == "clampToGround" || mode == "clampToSeaFloor" {
                    ats(.error, .kmlLatlonaltboxAltitude, "LatLonAltBox gives minAltitude and maxAltitude but its altitudeMode is \(mode), which ignores them", frame)
                }
            }
        case "gx:LatLonQuad":
            checkQuad(frame)
        case "LatLonBox":
            // ATC 11: all four sides, north > south, east > west.
            let missing = ["north", "south", "east", "west"].filter { !has($0) }
            if !missing.isEmpty {
                ats(.error, .kmlLatlonboxIncomplete, "LatLonBox lacks <\(missing.joined(separator: ">, <"))>", frame)
            } else {
                checkBoxExtent(frame, code: .kmlLatlonboxExtent)
            }
        case "Lod":
            // ATC 39; ATC 74 (level 3).
            guard let low = values["minLodPixels"].flatMap(KMLATSChecks.number) else {
                if !has("minLodPixels") { ats(.error, .kmlLodPixels, "Lod has no <minLodPixels>", frame) }
                break
            }
            let high = values["maxLodPixels"].flatMap(KMLATSChecks.number) ?? -1
            if high != -1 && low >= high {
                ats(.error, .kmlLodPixels, "Lod minLodPixels \(low) is not below maxLodPixels \(high)", frame)
            } else if high != -1 {
                let fades = (values["minFadeExtent"].flatMap(KMLATSChecks.number) ?? 0) + (values["maxFadeExtent"].flatMap(KMLATSChecks.number) ?? 0)
                if fades > high - low {
                    ats(.info, .kmlLodFadeExtents, "Lod fade extents (\(fades)) exceed maxLodPixels − minLodPixels (\(high - low))", frame)
                }
            }
        case "Region":
            // ATC 41.
            let missing = ["LatLonAltBox", "Lod"].filter { !has($0) }
            if !missing.isEmpty { ats(.error, .kmlRegionIncomplete, "Region lacks <\(missing.joined(separator: ">, <"))>", frame) }
        default:
            break
        }
    }

    /// North above south and east beyond west (ATC 8, ATC 11): a box with an area. Only
    /// sides that are numbers are compared (others were reported as such).
    private mutating func checkBoxExtent(_ frame: KMLValidator.Frame, code: Diagnostic.Code) {
        let side = { (name: String) in frame.values[name].flatMap(KMLATSChecks.number) }
        if let north = side("north"), let south = side("south"), north <= south {
            ats(.error, code, "\(frame.qualifiedName) north \(north) is not above south \(south)", frame)
        }
        if let east = side("east"), let west = side("west"), east <= west {
            ats(.error, code, "\(frame.qualifiedName) east \(east) is not beyond west \(west) (a box across 180° is not allowed by the ATS)", frame)
        }
    }

    /// KML 2.3 ATC-149 (Google's gx:LatLonQuad says the same): four positions, counterclockwise
    /// from the image's lower-left corner, enclosing a convex quadrilateral (no interior angle
    /// over 180°). Longitudes are unwrapped, so a quad across the antimeridian is judged as drawn.
    private mutating func checkQuad(_ frame: KMLValidator.Frame) {
        guard let corners = frame.coordinates else { return }  // no coordinates: reported as a missing child
        guard corners.count == 4 else {
            ats(.error, .kmlLatlonquad, "LatLonQuad has \(corners.count) positions; it needs exactly four corners", frame)
            return
        }
        let points = KMLATSChecks.unwrappedLongitudes(corners)
        let area = ringTwiceSignedArea(count: 4) { points[$0] }
        if area < 0 {
            ats(.error, .kmlLatlonquad, "LatLonQuad corners run clockwise; they go counterclockwise from the image's lower-left corner", frame)
        } else if area == 0 {
            ats(.error, .kmlLatlonquad, "LatLonQuad corners enclose no area", frame)
        } else {
            for index in 0..<4 {
                let a = points[index], b = points[(index + 1) % 4], c = points[(index + 2) % 4]
                let turn = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
                if turn < 0 {
                    ats(.error, .kmlLatlonquad, "LatLonQuad is not convex: its corner \(((index + 1) % 4) + 1) turns inward (an interior angle over 180°)", frame)
                    break
                }
            }
        }
    }
}

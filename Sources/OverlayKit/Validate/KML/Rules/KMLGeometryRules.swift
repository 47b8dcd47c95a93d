import OverlayModel

extension KMLValidator.Walk {
    /// Geometry rules: altitude modes of geometries (ATC 12, 13, 43, 48), a Polygon's
    /// orientation (KML 2.3 ATC-301, level 3), MultiGeometry (ATC 66), a Placemark's geometry
    /// (ATC 67).
    mutating func checkGeometryRules(_ frame: KMLValidator.Frame) {
        switch frame.name {
        case "Point", "LineString", "LinearRing", "Polygon":
            checkAltitudeUse(frame)
            if frame.name == "Polygon" { checkOrientation(frame) }
        case "MultiGeometry":
            // ATC 66 (level 2).
            let parts = frame.childCounts.filter { KMLATSChecks.geometries.contains($0.key) }.values.reduce(0, +)
            if parts < 2 { ats(.warning, .kmlMultigeometrySingle, "MultiGeometry holds \(parts) geometr\(parts == 1 ? "y" : "ies"); it should hold two or more", frame) }
        case "Placemark":
            // ATC 67 (level 2).
            if !frame.childCounts.keys.contains(where: KMLATSChecks.geometries.contains) {
                ats(.warning, .kmlPlacemarkNoGeometry, "Placemark has no geometry", frame)
            }
        default:
            break
        }
    }

    /// Geometry: ATC 12 (extrude needs a height), ATC 13 (tessellate needs clampToGround),
    /// ATC 48 (level 2: a ring in a Polygon has none of extrude, tessellate, altitudeMode),
    /// ATC 43 (level 2: heights when the altitude mode uses them).
    private mutating func checkAltitudeUse(_ frame: KMLValidator.Frame) {
        let values = frame.values
        let inPolygon = frame.name == "LinearRing" && (stack.last?.name == "outerBoundaryIs" || stack.last?.name == "innerBoundaryIs")
        if inPolygon {
            let present = ["extrude", "tessellate", "altitudeMode"].filter { frame.childCounts[$0] != nil }
            if !present.isEmpty {
                ats(.warning, .kmlRingInPolygonMembers, "a LinearRing in a Polygon should not have <\(present.joined(separator: ">, <"))> (the Polygon's apply)", frame)
            }
            return
        }
        let mode = values["altitudeMode"] ?? values["gx:altitudeMode"] ?? "clampToGround"
        let clamped = mode == "clampToGround" || mode == "clampToSeaFloor"
        if KMLATSChecks.isTrue(values["extrude"]) && clamped {
            ats(.warning, .kmlExtrudeClamped, "<\(frame.qualifiedName)> is extruded but its altitudeMode is \(mode), so it has no height to extrude from", frame)
        }
        if KMLATSChecks.isTrue(values["tessellate"]) && mode != "clampToGround" && frame.name != "Point" {
            ats(.warning, .kmlTessellateAltitude, "<\(frame.qualifiedName)> is tessellated but its altitudeMode is \(mode); tessellation needs clampToGround", frame)
        }
        if values["altitudeMode"] != nil || values["gx:altitudeMode"] != nil, !clamped {
            let flat: Bool
            if frame.name == "Polygon" {
                flat = frame.rings.contains { $0.coordinates.contains { $0.altitude == nil } }
            } else {
                flat = frame.coordinates?.contains { $0.altitude == nil } ?? false
            }
            if flat {
                ats(.warning, .kmlCoordinatesAltitudeMissing, "<\(frame.qualifiedName)> altitudeMode is \(mode) but some positions have no altitude", frame)
            }
        }
    }

    /// KML 2.3 ATC-301 (level 3): the outer boundary runs counterclockwise, the interior to its
    /// left (as the KML Reference and ISO 19107 orient a surface). Judged on longitude and
    /// latitude (unwrapped across the antimeridian); a ring without area is left to the
    /// geometry checks.
    private mutating func checkOrientation(_ frame: KMLValidator.Frame) {
        guard KMLRuleCatalog.level(of: .kmlPolygonOrientation) <= atsLevel, frame.hasOuter, let outer = frame.rings.first,
              outer.coordinates.count >= 4 else { return }
        let points = KMLATSChecks.unwrappedLongitudes(outer.coordinates)
        if ringTwiceSignedArea(count: points.count, { points[$0] }) < 0 {
            report(.note, .kmlPolygonOrientation, "the outer boundary runs clockwise; KML orients it counterclockwise (interior to the left)",
                   line: outer.line, path: outer.path, needle: "<coordinates")
        }
    }
}

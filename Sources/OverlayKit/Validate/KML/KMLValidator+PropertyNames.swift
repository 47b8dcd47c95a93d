import OverlayModel

/// The property names the KML reader would give each feature, fed to the reader's own
/// `KMLPropertyBuilder`, so `validate` reports the same name collisions (`kml.duplicate-property`)
/// that `convert` warns about (docs/kml.md "Property names").
extension KMLValidator.Walk {
    /// Elements the reader turns into features.
    static let featureElements: Set<String> = ["Placemark", "GroundOverlay", "NetworkLink", "ScreenOverlay", "PhotoOverlay"]
    /// Elements whose `altitudeMode`, `extrude` and `tessellate` become feature properties.
    static let geometryElements: Set<String> = ["Point", "LineString", "LinearRing", "Polygon", "gx:Track", "gx:MultiTrack"]

    /// Records the property name `frame` (just taken off the stack) gives its feature, if any;
    /// a closing feature adds its collisions to the file's.
    mutating func noteProperty(of frame: KMLValidator.Frame) {
        if Self.featureElements.contains(frame.name) {
            guard var builder = frame.propertyNames else { return }
            if frame.name != "Placemark" { builder.setField("@geometry-type", .null) }
            propertyCollisions.add(builder.collisions, unnamed: builder.unnamedCount,
                                   at: xml.location(line: frame.line, needle: "<" + frame.qualifiedName, kmlPath: frame.path))
            return
        }
        guard let parent = stack.last,
              let featureIndex = stack.lastIndex(where: { Self.featureElements.contains($0.name) }),
              stack[featureIndex].propertyNames != nil else { return }
        let depth = stack.count - 1 - featureIndex  // 0: frame is a child of the feature
        let isOverlay = stack[featureIndex].name != "Placemark"
        switch (depth, parent.name, frame.name) {
        case (0, _, "name"), (0, _, "description"), (0, _, "address"), (0, _, "phoneNumber"):
            // The reader leaves an empty element out.
            if frame.hasAnyText || !frame.childCounts.isEmpty { stack[featureIndex].propertyNames?.setField(frame.name, .null) }
        case (0, _, "visibility"), (0, _, "altitude"), (0, _, "drawOrder"), (0, _, "altitudeMode"):
            stack[featureIndex].propertyNames?.setField(frame.name, .null)
        case (0, _, "TimeStamp"):
            stack[featureIndex].propertyNames?.setField("timestamp", .null)
        case (0, _, "TimeSpan"):
            stack[featureIndex].propertyNames?.setField("timespan", .null)
        case (0, _, "Icon") where isOverlay:
            stack[featureIndex].propertyNames?.setField("icon", .null)
        case (0, _, "Link"), (0, _, "Url"):
            if isOverlay { stack[featureIndex].propertyNames?.setField("href", .null) }
        case (1, "ExtendedData", "Data"):
            stack[featureIndex].propertyNames?.appendData(frame.attributes["name"], .null)
        case (1, "ExtendedData", "SchemaData"):
            break
        case (1, "ExtendedData", _):
            stack[featureIndex].propertyNames?.appendData(frame.qualifiedName, .null)
        case (2, "SchemaData", "SimpleData"):
            stack[featureIndex].propertyNames?.appendData(frame.attributes["name"], .null)
        case (2, "SchemaData", "gx:SimpleArrayData"):
            stack[featureIndex].propertyNames?.appendCoordinateArray(frame.attributes["name"], [])
        case (_, _, "extrude"), (_, _, "tessellate"), (_, _, "altitudeMode"), (_, _, "gx:altitudeMode"):
            if depth > 0, Self.geometryElements.contains(parent.name) {
                stack[featureIndex].propertyNames?.setField(frame.name == "gx:altitudeMode" ? "altitudeMode" : frame.name, .null)
            }
        default:
            break
        }
    }
}

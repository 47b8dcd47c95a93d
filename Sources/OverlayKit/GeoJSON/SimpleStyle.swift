import OverlayModel

/// The simplestyle-spec 1.1.0 properties (`stroke`, `stroke-width`, `stroke-opacity`, `fill`,
/// `fill-opacity`, `marker-color`, `marker-size`, `marker-symbol`) and the model's `Style`.
public enum SimpleStyle {
    /// The property names simplestyle defines.
    public static let keys: Set<String> = ["stroke", "stroke-width", "stroke-opacity", "fill", "fill-opacity",
                                           "marker-color", "marker-size", "marker-symbol"]

    /// Not simplestyle: `"outline": false` carries KML's `<PolyStyle><outline>0</outline>` (a
    /// polygon drawn without its outline; lines of the same style keep their stroke), so tiles,
    /// GeoJSON and the round trip back to KML keep it. `render`'s style sheets use the same
    /// name, and the MapLibre style leaves such polygons' outlines out.
    public static let outlineKey = "outline"

    /// The style the properties describe, or nil when they set none.
    public static func style(from properties: JSONObject?) -> Style? {
        // Every name read here starts with f, m, s or o: most properties are passed over on one byte.
        guard let properties, properties.members.contains(where: {
            let first = $0.key.utf8.first
            return (first == UInt8(ascii: "f") || first == UInt8(ascii: "m") || first == UInt8(ascii: "s") || first == UInt8(ascii: "o"))
                && (keys.contains($0.key) || $0.key == outlineKey)
        }) else { return nil }
        var style = Style()
        if case .bool(let outline)? = properties[outlineKey] { style.outline = outline }
        if let stroke = properties["stroke"]?.stringValue.flatMap(RGBAColor.init(hex:)) {
            style.strokeColor = stroke.withOpacity(properties["stroke-opacity"]?.doubleValue ?? stroke.opacity)
        } else if let opacity = properties["stroke-opacity"]?.doubleValue {
            style.strokeColor = RGBAColor(red: 0x55, green: 0x55, blue: 0x55).withOpacity(opacity)
        }
        style.strokeWidth = properties["stroke-width"]?.doubleValue
        if let fill = properties["fill"]?.stringValue.flatMap(RGBAColor.init(hex:)) {
            // simplestyle-spec: fill-opacity defaults to 0.6.
            style.fillColor = fill.withOpacity(properties["fill-opacity"]?.doubleValue ?? 0.6)
        } else if let opacity = properties["fill-opacity"]?.doubleValue {
            style.fillColor = RGBAColor(red: 0x55, green: 0x55, blue: 0x55).withOpacity(opacity)
        }
        let markerColor = properties["marker-color"]?.stringValue.flatMap(RGBAColor.init(hex:))
        let symbol = properties["marker-symbol"]?.stringValue
        let size = properties["marker-size"]?.stringValue
        if markerColor != nil || symbol != nil || size != nil {
            style.icon = IconStyle(color: markerColor, symbol: symbol, size: size)
        }
        return style.isEmpty ? nil : style
    }

    /// The simplestyle properties that express a style (only the fields it sets).
    public static func properties(for style: Style) -> JSONObject {
        var properties = JSONObject()
        if let stroke = style.strokeColor {
            properties.append("stroke", .string(stroke.hexRGB))
            if stroke.alpha != 255 { properties.append("stroke-opacity", .number(rounded(stroke.opacity))) }
        }
        if let width = style.strokeWidth { properties.append("stroke-width", .number(width)) }
        if let fill = style.fillColor, style.fill != false {
            properties.append("fill", .string(fill.hexRGB))
            properties.append("fill-opacity", .number(rounded(fill.opacity)))
        } else if style.fill == false {
            properties.append("fill-opacity", .number(0))
        }
        if style.outline == false { properties.append(outlineKey, .bool(false)) }
        if let icon = style.icon {
            if let color = icon.color { properties.append("marker-color", .string(color.hexRGB)) }
            if let size = icon.size { properties.append("marker-size", .string(size)) }
            if let symbol = icon.symbol { properties.append("marker-symbol", .string(symbol)) }
        }
        return properties
    }

    /// `properties` with the simplestyle members that express `style` added where absent, so
    /// a KML style travels with the feature's properties (GeoJSON output, tiles). A style
    /// read from these very properties (GeoJSON in) adds nothing; a property already there wins.
    public static func properties(_ properties: JSONObject?, carrying style: Style?) -> JSONObject? {
        guard let style, SimpleStyle.style(from: properties) != style else { return properties }
        var result = properties
        for member in self.properties(for: style) where result?[member.key] == nil {
            if result == nil { result = JSONObject() }
            result!.append(member.key, member.value)
        }
        return result
    }

    /// Opacity to 4 decimals: alpha has 8 bits, so more digits only add noise.
    private static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

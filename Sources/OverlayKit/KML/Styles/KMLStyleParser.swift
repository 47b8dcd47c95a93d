import OverlayModel

/// A KML `StyleMap`: where its normal and highlight styles come from.
struct KMLStyleMap: Hashable {
    /// A Pair's style: a `styleUrl` or an inline `Style`.
    enum Source: Hashable {
        case url(String)
        case inline(Style)
    }

    var normal: Source?
    var highlight: Source?
}

/// Reads `Style` and `StyleMap` elements into the model's `Style` (`aabbggrr` colors → RGBA).
///
/// `LineStyle` → stroke color and width; `PolyStyle` → fill color, `fill`, `outline`;
/// `IconStyle` → icon href, scale, heading, hotSpot, color; `LabelStyle` → label color and
/// scale. `BalloonStyle` and `ListStyle` only shape Google Earth's UI and are reported once as
/// not kept.
struct KMLStyleParser {
    let xml: XMLStreamReader
    /// Called with (element name, line) for a style part that is not kept.
    let dropped: (String, Int) -> Void
    /// Called with (message, line) for a value that could not be read.
    let invalid: (String, Int) -> Void

    /// Reads the `Style` the reader is on.
    func parseStyle() throws -> Style {
        var style = Style()
        try xml.forEachChild { name in
            switch name {
            case "LineStyle":
                try xml.forEachChild { field in
                    switch field {
                    case "color": style.strokeColor = try color()
                    case "width": style.strokeWidth = try number("LineStyle/width")
                    case "colorMode": try keepDefaultColorMode()
                    default: dropped("LineStyle/\(field)", xml.line); try xml.skipElement()
                    }
                }
            case "PolyStyle":
                try xml.forEachChild { field in
                    switch field {
                    case "color": style.fillColor = try color()
                    case "fill": style.fill = try flag()
                    case "outline": style.outline = try flag()
                    case "colorMode": try keepDefaultColorMode()
                    default: dropped("PolyStyle/\(field)", xml.line); try xml.skipElement()
                    }
                }
            case "IconStyle":
                var icon = style.icon ?? IconStyle()
                try xml.forEachChild { field in
                    switch field {
                    case "color": icon.color = try color()
                    case "scale": icon.scale = try number("IconStyle/scale")
                    case "heading": icon.heading = try number("IconStyle/heading")
                    case "Icon":
                        try xml.forEachChild { part in
                            if part == "href" {
                                icon.href = try xml.readText().kmlTrimmed
                            } else {
                                dropped("Icon/\(part)", xml.line)
                                try xml.skipElement()
                            }
                        }
                    case "hotSpot":
                        let x = xml.attribute("x").flatMap { Double($0.kmlTrimmed) } ?? 0.5
                        let y = xml.attribute("y").flatMap { Double($0.kmlTrimmed) } ?? 0.5
                        icon.hotSpot = IconStyle.HotSpot(x: x, y: y, xUnits: xml.attribute("xunits") ?? "fraction",
                                                         yUnits: xml.attribute("yunits") ?? "fraction")
                        try xml.skipElement()
                    case "colorMode": try keepDefaultColorMode()
                    default: dropped("IconStyle/\(field)", xml.line); try xml.skipElement()
                    }
                }
                style.icon = icon
            case "LabelStyle":
                var label = style.label ?? LabelStyle()
                try xml.forEachChild { field in
                    switch field {
                    case "color": label.color = try color()
                    case "scale": label.scale = try number("LabelStyle/scale")
                    case "colorMode": try keepDefaultColorMode()
                    default: dropped("LabelStyle/\(field)", xml.line); try xml.skipElement()
                    }
                }
                style.label = label
            default:
                dropped(name, xml.line)
                try xml.skipElement()
            }
        }
        return style
    }

    /// Reads the `StyleMap` the reader is on.
    func parseStyleMap() throws -> KMLStyleMap {
        var map = KMLStyleMap()
        try xml.forEachChild { name in
            guard name == "Pair" else {
                dropped("StyleMap/\(name)", xml.line)
                try xml.skipElement()
                return
            }
            var key: String?
            var source: KMLStyleMap.Source?
            try xml.forEachChild { field in
                switch field {
                case "key": key = try xml.readText().kmlTrimmed
                case "styleUrl": source = .url(try xml.readText().kmlTrimmed)
                case "Style": source = .inline(try parseStyle())
                default: dropped("Pair/\(field)", xml.line); try xml.skipElement()
                }
            }
            switch key {
            case "normal": map.normal = source
            case "highlight": map.highlight = source
            default: invalid("StyleMap Pair key '\(key ?? "")' is neither normal nor highlight; pair ignored", xml.line)
            }
        }
        return map
    }

    private func color() throws -> RGBAColor? {
        let line = xml.line
        let text = try xml.readText()
        guard let color = KMLStyleParser.color(text) else {
            invalid("'\(text.kmlTrimmed)' is not a KML color (aabbggrr)", line)
            return nil
        }
        return color
    }

    /// `colorMode` random is not reproducible, so only `normal` is meaningful here.
    private func keepDefaultColorMode() throws {
        let line = xml.line
        if try xml.readText().kmlTrimmed == "random" { dropped("colorMode random", line) }
    }

    private func number(_ what: String) throws -> Double? {
        let line = xml.line
        let text = try xml.readText().kmlTrimmed
        guard let value = Double(text), value.isFinite else {
            invalid("\(what) '\(text)' is not a number", line)
            return nil
        }
        return value
    }

    private func flag() throws -> Bool? {
        let line = xml.line
        let text = try xml.readText()
        guard let value = KMLStyleParser.bool(text) else {
            invalid("'\(text.kmlTrimmed)' is not a KML boolean (0, 1, false, true)", line)
            return nil
        }
        return value
    }

    /// KML `aabbggrr` (optional `#`); 6- and 3-digit forms are read as CSS `rrggbb`/`rgb`, as
    /// some writers emit them.
    static func color(_ text: String) -> RGBAColor? {
        let digits = text.kmlTrimmed.hasPrefix("#") ? String(text.kmlTrimmed.dropFirst()) : text.kmlTrimmed
        switch digits.count {
        case 8: return RGBAColor(kml: digits)
        case 6, 3: return RGBAColor(hex: digits)
        default: return nil
        }
    }

    /// KML booleans: `1`/`true` and `0`/`false`.
    static func bool(_ text: String) -> Bool? {
        switch text.kmlTrimmed.lowercased() {
        case "1", "true": true
        case "0", "false": false
        default: nil
        }
    }
}

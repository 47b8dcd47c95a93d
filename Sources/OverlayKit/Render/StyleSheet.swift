import OverlayModel

/// `--style FILE.json`: defaults and property-matching rules that override feature styles.
///
/// ```json
/// {
///   "default": { "stroke": "#444444", "stroke-width": 1 },
///   "rules": [
///     { "where": { "type": "lake" }, "style": { "fill": "#4a90d9", "fill-opacity": 0.6 } },
///     { "where": { "$kind": ["polyline", "multipolyline"], "highway": true },
///       "style": { "stroke-dasharray": [6, 3], "level": "aboveLabels" } }
///   ]
/// }
/// ```
///
/// `default` applies under every feature's own style; each rule whose `where` matches applies
/// over it, later rules over earlier ones. A `where` member matches when the feature's
/// property of that name equals the value (numbers compare numerically), or equals any
/// element of an array value; `$kind` matches the shape kind (`polygon`, `multipolygon`,
/// `polyline`, `multipolyline`, `circle`, `annotation`, `collection`). An empty or absent
/// `where` matches every feature. Style keys are listed in `StylePatch.keys`; unknown keys
/// and wrong values are errors with their line, column and JSON Pointer.
public struct StyleSheet: Hashable, Sendable {
    /// Applied under each feature's own style.
    public var defaults: StylePatch?
    /// Applied over each feature's own style, in order, when they match.
    public var rules: [Rule]

    /// One rule: when every condition holds for a feature's properties, its patch applies.
    public struct Rule: Hashable, Sendable {
        /// Property name (or `$kind`) → accepted values.
        public var conditions: [(key: String, values: [JSONValue])]
        /// The fields this rule sets.
        public var style: StylePatch

        /// A rule matching features whose property `key` has one of `values`, for every condition.
        public init(conditions: [(key: String, values: [JSONValue])], style: StylePatch) {
            self.conditions = conditions
            self.style = style
        }

        public static func == (a: Rule, b: Rule) -> Bool {
            a.style == b.style && a.conditions.elementsEqual(b.conditions) { $0.key == $1.key && $0.values == $1.values }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(style)
            for condition in conditions {
                hasher.combine(condition.key)
                hasher.combine(condition.values)
            }
        }

        /// True when every condition holds for the feature.
        public func matches(_ feature: Feature) -> Bool {
            conditions.allSatisfy { condition in
                let value: JSONValue?
                if condition.key == "$kind" {
                    value = feature.shape.map { .string($0.kind.rawValue) }
                } else {
                    value = feature.properties?[condition.key]
                }
                guard let value else { return false }
                return condition.values.contains { StyleSheet.equal($0, value) }
            }
        }
    }

    /// A style sheet of defaults (under every feature's own style) and rules (over it, in order).
    public init(defaults: StylePatch? = nil, rules: [Rule] = []) {
        self.defaults = defaults
        self.rules = rules
    }

    /// `style` with every matching rule applied in order.
    public func apply(to style: RenderStyle, for feature: Feature) -> RenderStyle {
        var result = style
        for rule in rules where rule.matches(feature) { result = rule.style.apply(to: result) }
        return result
    }

    /// Reads a style sheet file.
    /// - Throws: `Diagnostic` with file, line, column and JSON Pointer of the first problem.
    public init(path: String) throws {
        try self.init(input: try ByteInput(path: path))
    }

    /// Reads a style sheet from any input.
    public init(input: ByteInput) throws {
        let scanner = JSONScanner(input: input, initialCapacity: 1 << 14)
        let reader = StyleSheetReader(scanner: scanner)
        self = try reader.read()
    }

    /// The pin scale simplestyle's `marker-size` names.
    static func markerScale(forSize size: String) -> Double? {
        switch size {
        case "small": 0.75
        case "medium": 1
        case "large": 1.5
        default: nil
        }
    }

    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }
}

/// Style changes from a style sheet: each field that is set replaces the current one.
public struct StylePatch: Hashable, Sendable {
    /// The keys a style object may hold.
    public static let keys = ["stroke", "stroke-opacity", "stroke-width", "stroke-dasharray", "stroke-linecap",
                              "stroke-linejoin", "outline", "fill", "fill-opacity", "fill-rule", "marker-color",
                              "marker-size", "label-color", "label-size", "level"]

    /// Line color.
    public var strokeColor: RGBAColor?
    /// Line opacity 0…1, applied to the line color in effect.
    public var strokeOpacity: Double?
    /// Line width in screen points.
    public var strokeWidth: Double?
    /// Dash pattern in screen points (on, off, …).
    public var lineDash: [Double]?
    /// Line end style.
    public var lineCap: LineCap?
    /// Line corner style.
    public var lineJoin: LineJoin?
    /// Whether polygons get an outline.
    public var outline: Bool?
    /// Fill color.
    public var fillColor: RGBAColor?
    /// Fill opacity 0…1, applied to the fill color in effect.
    public var fillOpacity: Double?
    /// Fill rule for overlapping rings.
    public var fillRule: FillRule?
    /// Point marker color.
    public var markerColor: RGBAColor?
    /// Point marker size, as a multiple of the default.
    public var markerScale: Double?
    /// Label text color.
    public var labelColor: RGBAColor?
    /// Label text size in screen points.
    public var labelSize: Double?
    /// Drawing level (above roads or above labels).
    public var level: OverlayLevel?

    /// A patch that changes nothing.
    public init() {}

    /// `style` with the fields this patch sets replaced; an opacity applies to the color in
    /// effect after this patch's color.
    public func apply(to style: RenderStyle) -> RenderStyle {
        var result = style
        if let strokeColor { result.strokeColor = strokeColor }
        if let strokeOpacity { result.strokeColor = result.strokeColor.withOpacity(strokeOpacity) }
        if let strokeWidth { result.strokeWidth = strokeWidth }
        if let lineDash { result.lineDash = lineDash }
        if let lineCap { result.lineCap = lineCap }
        if let lineJoin { result.lineJoin = lineJoin }
        if let outline { result.outline = outline }
        if let fillColor { result.fillColor = fillColor }
        if let fillOpacity { result.fillColor = result.fillColor.withOpacity(fillOpacity) }
        if let fillRule { result.fillRule = fillRule }
        if let markerColor { result.markerColor = markerColor }
        if let markerScale { result.markerScale = markerScale }
        if let labelColor { result.labelColor = labelColor }
        if let labelSize { result.labelSize = labelSize }
        if let level { result.level = level }
        return result
    }
}

/// Reads the style sheet format with the streaming JSON scanner, checking each value where it
/// stands so errors point at it.
private struct StyleSheetReader {
    let scanner: JSONScanner

    func read() throws -> StyleSheet {
        var sheet = StyleSheet()
        try object { key, start in
            switch key {
            case "default":
                sheet.defaults = try patch()
            case "rules":
                try array(start: start) { _ in sheet.rules.append(try rule()) }
            default:
                throw scanner.error(.styleUnknownKey, "unknown style sheet member '\(key)'; expected 'default' or 'rules'", at: start)
            }
        }
        if let extra = try scanner.peekSignificant() {
            throw scanner.unexpected(extra, expecting: "the end of the style sheet")
        }
        return sheet
    }

    /// Reads an object, calling `member` with each key and the offset of its value.
    private func object(_ member: (String, Int) throws -> Void) throws {
        let start = scanner.absolutePosition
        guard let byte = try scanner.peekSignificant() else {
            throw scanner.error(.jsonUnexpectedEnd, "input ended where an object was expected", at: start)
        }
        guard byte == UInt8(ascii: "{") else { throw scanner.unexpected(byte, expecting: "an object") }
        scanner.position += 1
        if try scanner.peekSignificant() == UInt8(ascii: "}") {
            scanner.position += 1
            return
        }
        repeat {
            let key = try scanner.readKey()
            scanner.path.append(.key(key))
            _ = try scanner.peekSignificant()
            try member(key, scanner.absolutePosition)
            scanner.path.removeLast()
        } while try scanner.commaOrClose(UInt8(ascii: "}"))
    }

    private func array(start: Int, _ element: (Int) throws -> Void) throws {
        guard let byte = try scanner.peekSignificant() else {
            throw scanner.error(.jsonUnexpectedEnd, "input ended where an array was expected", at: start)
        }
        guard byte == UInt8(ascii: "[") else { throw scanner.unexpected(byte, expecting: "an array") }
        scanner.position += 1
        if try scanner.peekSignificant() == UInt8(ascii: "]") {
            scanner.position += 1
            return
        }
        var index = 0
        repeat {
            scanner.path.append(.index(index))
            _ = try scanner.peekSignificant()
            try element(index)
            scanner.path.removeLast()
            index += 1
        } while try scanner.commaOrClose(UInt8(ascii: "]"))
    }

    private func rule() throws -> StyleSheet.Rule {
        var conditions = [(key: String, values: [JSONValue])]()
        var style: StylePatch?
        let ruleStart = scanner.absolutePosition
        try object { key, start in
            switch key {
            case "where":
                try object { property, valueStart in
                    let value = try scanner.readValue()
                    switch value {
                    case .object:
                        throw scanner.error(.styleBadCondition, "a condition value must be a string, number, boolean, null or an array of them", at: valueStart)
                    case .array(let values):
                        if values.contains(where: { if case .object = $0 { true } else if case .array = $0 { true } else { false } }) {
                            throw scanner.error(.styleBadCondition, "a condition array may hold only strings, numbers, booleans or null", at: valueStart)
                        }
                        conditions.append((property, values))
                    default:
                        conditions.append((property, [value]))
                    }
                }
            case "style":
                style = try patch()
            default:
                throw scanner.error(.styleUnknownKey, "unknown rule member '\(key)'; expected 'where' or 'style'", at: start)
            }
        }
        guard let style else {
            throw scanner.error(.styleMissingStyle, "the rule has no 'style' object", at: ruleStart)
        }
        return StyleSheet.Rule(conditions: conditions, style: style)
    }

    private func patch() throws -> StylePatch {
        var patch = StylePatch()
        try object { key, start in
            let value = try scanner.readValue()
            func fail(_ expected: String) -> Diagnostic {
                scanner.error(.styleBadValue, "'\(key)' must be \(expected)", at: start)
            }
            func color() throws -> RGBAColor {
                guard let text = value.stringValue else { throw fail("a color such as \"#3366cc\" or \"none\"") }
                if text == "none" { return RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
                guard let color = RGBAColor(hex: text) else { throw fail("a color such as \"#3366cc\" or \"none\"") }
                return color
            }
            func number(_ range: ClosedRange<Double>, _ expected: String) throws -> Double {
                guard let number = value.doubleValue, range.contains(number) else { throw fail(expected) }
                return number
            }
            func word<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
                guard let text = value.stringValue, let result = T(rawValue: text) else {
                    throw fail("one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
                }
                return result
            }
            switch key {
            case "stroke": patch.strokeColor = try color()
            case "stroke-opacity": patch.strokeOpacity = try number(0...1, "a number from 0 to 1")
            case "stroke-width": patch.strokeWidth = try number(0...1000, "a width in points from 0 to 1000")
            case "stroke-dasharray":
                guard case .array(let items) = value else { throw fail("an array of non-negative lengths in points") }
                let lengths = items.compactMap(\.doubleValue)
                guard lengths.count == items.count, lengths.allSatisfy({ $0 >= 0 && $0.isFinite }) else {
                    throw fail("an array of non-negative lengths in points")
                }
                patch.lineDash = lengths
            case "stroke-linecap": patch.lineCap = try word(LineCap.self)
            case "stroke-linejoin": patch.lineJoin = try word(LineJoin.self)
            case "outline":
                guard let flag = value.boolValue else { throw fail("true or false") }
                patch.outline = flag
            case "fill": patch.fillColor = try color()
            case "fill-opacity": patch.fillOpacity = try number(0...1, "a number from 0 to 1")
            case "fill-rule": patch.fillRule = try word(FillRule.self)
            case "marker-color": patch.markerColor = try color()
            case "marker-size":
                guard let scale = value.stringValue.flatMap(StyleSheet.markerScale(forSize:)) else {
                    throw fail("\"small\", \"medium\" or \"large\"")
                }
                patch.markerScale = scale
            case "label-color": patch.labelColor = try color()
            case "label-size": patch.labelSize = try number(0...500, "a font size in points from 0 to 500")
            case "level": patch.level = try word(OverlayLevel.self)
            default:
                throw scanner.error(.styleUnknownKey, "unknown style key '\(key)'; known keys: "
                    + StylePatch.keys.joined(separator: ", "), at: start)
            }
        }
        return patch
    }
}

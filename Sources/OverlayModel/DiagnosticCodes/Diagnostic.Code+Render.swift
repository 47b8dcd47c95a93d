// Rendering SVG and PNG, and style sheets.

extension Diagnostic.Code {
    /// `render.bad-option` (usage): A render option is outside its range (size, scale, zoom, angles, distances).
    public static let renderBadOption = Diagnostic.Code("render.bad-option", kind: .usage)
    /// `render.cairo-failed` (data): cairo could not draw or encode the image.
    public static let renderCairoFailed = Diagnostic.Code("render.cairo-failed", kind: .data)
    /// `render.empty` (finding): The input has no features; the image is blank.
    public static let renderEmpty = Diagnostic.Code("render.empty", kind: .finding)
    /// `render.png-decode-failed` (data): An icon image is not a PNG cairo can decode.
    public static let renderPngDecodeFailed = Diagnostic.Code("render.png-decode-failed", kind: .data)
    /// `render.view-too-small` (usage): The view cannot show the data: the padding leaves no room, or fitting would need a zoom below −1.
    public static let renderViewTooSmall = Diagnostic.Code("render.view-too-small", kind: .usage)
    /// `style.bad-condition` (data): A style sheet condition holds a value of the wrong type.
    public static let styleBadCondition = Diagnostic.Code("style.bad-condition", kind: .data)
    /// `style.bad-value` (data): A style sheet value has the wrong type or range.
    public static let styleBadValue = Diagnostic.Code("style.bad-value", kind: .data)
    /// `style.missing-style` (data): A style sheet rule has no 'style' object.
    public static let styleMissingStyle = Diagnostic.Code("style.missing-style", kind: .data)
    /// `style.unknown-key` (data): A style sheet names a member it does not know.
    public static let styleUnknownKey = Diagnostic.Code("style.unknown-key", kind: .data)

    /// The codes above, in order, for ``allDeclared``.
    static let renderCodes: [Diagnostic.Code] = [
        .renderBadOption,
        .renderCairoFailed,
        .renderEmpty,
        .renderPngDecodeFailed,
        .renderViewTooSmall,
        .styleBadCondition,
        .styleBadValue,
        .styleMissingStyle,
        .styleUnknownKey,
    ]
}

import OverlayModel

extension KMLValidator.Walk {
    /// Style rules: a styleUrl names a style by its fragment with an allowed scheme (ATC 6), an ItemIcon has an href (ATC 37).
    mutating func checkStyleRules(_ frame: KMLValidator.Frame, text: String) {
        let has = { (child: String) in frame.childCounts[child] != nil }
        switch frame.name {
        case "styleUrl":
            // ATC 6: a fragment naming the style; absolute URLs only http(s) or file.
            if !text.contains("#") {
                ats(.error, .kmlStyleUrlFragment, "styleUrl '\(text.prefix(60))' has no #fragment naming a style", frame)
            }
            if let scheme = KMLATSChecks.scheme(of: text), !["http", "https", "file"].contains(scheme) {
                ats(.error, .kmlStyleUrlScheme, "styleUrl '\(text.prefix(60))' uses the \(scheme): scheme; the ATS allows http and file", frame)
            }
        case "ItemIcon":
            // ATC 37.
            if !has("href") { ats(.error, .kmlItemIconHref, "ItemIcon has no <href>", frame) }
        default:
            break
        }
    }
}

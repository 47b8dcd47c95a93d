import OverlayModel

extension KMLValidator.Walk {
    /// Style rules: a styleUrl names a style by its fragment with an allowed scheme (ATC 6), an
    /// ItemIcon has an href (ATC 37) and uses the fetch states only on a NetworkLink (KML 2.3
    /// ATC-136).
    mutating func checkStyleRules(_ frame: KMLValidator.Frame, text: String) {
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
            if frame.childCounts["href"] == nil { ats(.error, .kmlItemIconHref, "ItemIcon has no <href>", frame) }
            checkItemIconState(frame)
        default:
            break
        }
    }

    /// KML 2.3 ATC-136 (2): the states `error` and `fetching0`–`fetching2` describe a link being
    /// fetched, so an ItemIcon using them styles a NetworkLink. Decided for a Style inside a
    /// feature (ListStyle → Style → feature); a shared style (a child of Document) may serve any
    /// feature and is not judged. A warning: the state has no effect elsewhere.
    private mutating func checkItemIconState(_ frame: KMLValidator.Frame) {
        guard let state = frame.values["state"] else { return }
        let fetchStates: Set<Substring> = ["error", "fetching0", "fetching1", "fetching2"]
        let used = state.split(whereSeparator: \.isWhitespace).filter(fetchStates.contains)
        guard !used.isEmpty, stack.count >= 3, stack[stack.count - 1].name == "ListStyle", stack[stack.count - 2].name == "Style"
        else { return }
        let feature = stack[stack.count - 3].name
        guard KMLATSChecks.features.contains(feature), feature != "Document", feature != "NetworkLink" else { return }
        ats(.warning, .kmlItemIconState,
            "ItemIcon state '\(used.joined(separator: " "))' describes fetching a link, but this style belongs to a <\(feature)>, not a NetworkLink", frame)
    }

    /// A StyleMap, when it ends: each Pair has a key (the schema's table) and a styleUrl, Style
    /// or StyleMap (ATC 36); and, at level 2, the map holds two Pairs, one `normal` and one
    /// `highlight` (ATC 68).
    mutating func checkStyleMap(_ frame: KMLValidator.Frame) {
        for pair in frame.pairs where !pair.hasStyle {
            report(.error, .kmlStylemapPair, "Pair has none of <styleUrl>, <Style>, <StyleMap>", line: pair.line, path: pair.path,
                   needle: "<Pair")
        }
        let keys = frame.pairs.map { $0.key ?? "normal" }
        if keys.sorted() != ["highlight", "normal"] {
            let found = keys.isEmpty ? "no Pair" : keys.map { "'\($0)'" }.joined(separator: ", ")
            ats(.warning, .kmlStylemapKeys, "StyleMap should hold two Pairs, one 'normal' and one 'highlight'; found \(found)", frame)
        }
    }
}

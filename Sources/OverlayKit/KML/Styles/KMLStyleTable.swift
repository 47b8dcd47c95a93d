import OverlayModel

/// The shared styles of a KML document by id, and `styleUrl` resolution.
///
/// A `styleUrl` of `#id` names a `Style` (normal style only) or a `StyleMap` (normal and
/// highlight, each a `styleUrl` or an inline `Style`). Anything else (`other.kml#id`,
/// `http://…#id`) is external and never fetched.
struct KMLStyleTable {
    private var styles: [String: Style] = [:]
    private var maps: [String: KMLStyleMap] = [:]

    /// How a `styleUrl` reads.
    enum Reference: Equatable {
        case local(String)
        case external(String)
    }

    /// The resolution of a reference.
    struct Resolved {
        var normal: Style?
        var highlight: Style?
        /// Local ids that were referenced but not defined.
        var missing: [String] = []
        /// External references, not fetched.
        var external: [String] = []
    }

    mutating func define(_ style: Style, id: String) { styles[id] = style }
    mutating func define(_ map: KMLStyleMap, id: String) { maps[id] = map }

    static func reference(_ url: String) -> Reference {
        let url = url.kmlTrimmed
        if url.hasPrefix("#") { return .local(String(url.dropFirst())) }
        // A bare name without path or scheme is taken as a local id, as Google Earth does.
        if !url.contains("#") && !url.contains("/") && !url.contains(":") && !url.contains(".") { return .local(url) }
        return .external(url)
    }

    /// True when every local id reachable from `url` is defined (so resolving now gives the
    /// final answer). External references count as resolvable: they are never fetched.
    func isResolvable(_ url: String, depth: Int = 0) -> Bool {
        guard depth < 8 else { return true }
        switch KMLStyleTable.reference(url) {
        case .external: return true
        case .local(let id):
            if styles[id] != nil { return true }
            guard let map = maps[id] else { return false }
            return isResolvable(map, depth: depth + 1)
        }
    }

    func isResolvable(_ map: KMLStyleMap, depth: Int = 0) -> Bool {
        for source in [map.normal, map.highlight] {
            if case .url(let url)? = source, !isResolvable(url, depth: depth + 1) { return false }
        }
        return true
    }

    /// The styles `url` names. A cycle of StyleMaps stops after 8 steps.
    func resolve(_ url: String, depth: Int = 0) -> Resolved {
        guard depth < 8 else { return Resolved() }
        switch KMLStyleTable.reference(url) {
        case .external(let url):
            return Resolved(external: [url])
        case .local(let id):
            if let style = styles[id] { return Resolved(normal: style) }
            guard let map = maps[id] else { return Resolved(missing: [id]) }
            return resolve(map, depth: depth + 1)
        }
    }

    func resolve(_ map: KMLStyleMap, depth: Int = 0) -> Resolved {
        var result = Resolved()
        func side(_ source: KMLStyleMap.Source?) -> Style? {
            switch source {
            case nil: return nil
            case .inline(let style)?: return style
            case .url(let url)?:
                let inner = resolve(url, depth: depth + 1)
                result.missing += inner.missing
                result.external += inner.external
                return inner.normal
            }
        }
        result.normal = side(map.normal)
        result.highlight = side(map.highlight)
        return result
    }
}

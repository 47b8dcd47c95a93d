import Foundation
import OverlayModel

/// KML entries of a KMZ reached through `NetworkLink`s whose `href` names an entry of the same
/// archive (`<href>within.kml</href>`, `<href>files/part.kml</href>`): an archive entry is not a
/// network fetch, so Google Earth and GDAL read them, and so does this.
///
/// Rule: the link feature is kept; the features of the linked KML follow it, their folder path
/// prefixed with the link's. Hrefs resolve relative to the KML that holds the link; a URL with a
/// scheme, an absolute path or one leaving the archive names no entry (those links stay
/// unfetched, with `kml.not-fetched`). Each entry is read at most once (a second link or a cycle
/// back to an entry already read gives `kmz.link-repeated`), and links nest at most
/// `maximumDepth` deep (`kmz.link-too-deep`). A relative image href (a GroundOverlay's `icon`, an
/// icon style) in a linked KML in a folder is rewritten to the archive path it names, so the
/// image entry goes with it as it does for the main KML. Memory: one open reader per level.
struct KMZNetworkLinks {
    /// How deep links may nest below the main KML (a link in a linked KML is depth 2).
    static let maximumDepth = 16

    private let resources: KMZResources
    private let mainEntry: String
    private let archiveName: String
    /// Entries already read (the main KML included): each is read at most once.
    private var readEntries: Set<String>
    /// The linked KMLs being read, innermost last.
    private var open: [(reader: KMLReader, entry: String, folderPrefix: [String])] = []
    private var warnings: [Diagnostic] = []

    /// The entries besides the main KML whose features were read.
    var entriesRead: Set<String> { readEntries.subtracting([mainEntry]) }

    init(resources: KMZResources, mainEntry: String, archiveName: String) {
        self.resources = resources
        self.mainEntry = mainEntry
        self.archiveName = archiveName
        readEntries = [mainEntry]
    }

    /// The `.kml` entry a link's `href` names, resolved against the KML entry `base`; nil for
    /// anything else (the link then stays unfetched).
    func linkResolver(relativeTo base: String) -> (String) -> String? {
        let resolve = resolver(relativeTo: base)
        return { href in resolve(href).flatMap { $0.lowercased().hasSuffix(".kml") ? $0 : nil } }
    }

    /// The entry path `href` names, resolved against the KML entry `base`; nil for anything that
    /// is not an entry of this archive.
    func resolver(relativeTo base: String) -> (String) -> String? {
        let resources = resources, mainEntry = mainEntry
        return { href in
            guard let path = Self.entryPath(href, relativeTo: base) else { return nil }
            return path == mainEntry || resources.contains(path) ? path : nil
        }
    }

    /// `href` as an archive path relative to the directory of `base`; nil for URLs with a scheme,
    /// absolute paths, fragments only, and `..` leaving the archive.
    static func entryPath(_ href: String, relativeTo base: String) -> String? {
        var text = href.trimmingCharacters(in: .whitespacesAndNewlines)
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        guard !text.isEmpty, !text.hasPrefix("/"), !text.contains(":"), !text.contains("\\") else { return nil }
        let decoded = text.removingPercentEncoding ?? text
        var parts = base.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        for part in decoded.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case ".", "": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default:
                parts.append(String(part))
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// The next feature: from the innermost open linked KML, else from `main`; a link to an
    /// entry opens that entry, read right after the link.
    mutating func next(after main: KMLParserCore) throws -> Feature? {
        while true {
            let feature: Feature
            if var top = open.last {
                guard var linked = try top.reader.next() else {
                    warnings += top.reader.core.takeWarnings()
                    open.removeLast()
                    continue
                }
                open[open.count - 1] = top
                linked.folderPath = top.folderPrefix + linked.folderPath
                if top.entry.contains("/") { rebaseImages(of: &linked, from: top.entry) }
                feature = linked
            } else {
                guard let mainFeature = try main.nextFeature() else { return nil }
                feature = mainFeature
            }
            try follow(feature, from: open.last?.entry ?? mainEntry)
            return feature
        }
    }

    /// The warnings of the linked KMLs read so far.
    mutating func takeWarnings() -> [Diagnostic] {
        var taken = warnings
        warnings.removeAll()
        for index in open.indices { taken += open[index].reader.core.takeWarnings() }
        return taken
    }

    /// Opens the entry a NetworkLink feature names, if it is one of this archive's.
    private mutating func follow(_ feature: Feature, from entry: String) throws {
        guard feature.properties?["@geometry-type"]?.stringValue == "networklink",
              let href = feature.properties?["href"]?.stringValue,
              let target = linkResolver(relativeTo: entry)(href) else { return }
        guard !readEntries.contains(target) else {
            warnings.append(Diagnostic(.warning, code: .kmzLinkRepeated,
                                       message: "<NetworkLink> to \(href) names \(target), which is already read (a second link or a cycle); "
                                        + "its features are not repeated",
                                       location: feature.location))
            return
        }
        guard open.count < Self.maximumDepth else {
            warnings.append(Diagnostic(.warning, code: .kmzLinkTooDeep,
                                       message: "<NetworkLink> to \(href) nests more than \(Self.maximumDepth) linked KML files deep; "
                                        + "\(target) is not read",
                                       location: feature.location))
            return
        }
        readEntries.insert(target)
        var reader = try resources.kmlReader(forEntry: target, displayName: "\(archiveName)/\(target)")
        reader.core.archiveEntry = linkResolver(relativeTo: target)
        reader.resources = nil
        open.append((reader, target, feature.folderPath))
    }

    /// A relative image href in a KML inside a folder of the archive, as the archive path it names.
    private func rebaseImages(of feature: inout Feature, from entry: String) {
        let resolve = resolver(relativeTo: entry)
        if let icon = feature.properties?["icon"]?.stringValue, let path = resolve(icon) {
            feature.properties?["icon"] = .string(path)
        }
        for keyPath in [\Feature.style, \Feature.highlightStyle] {
            if let href = feature[keyPath: keyPath]?.icon?.href, let path = resolve(href) {
                feature[keyPath: keyPath]?.icon?.href = path
            }
        }
    }
}

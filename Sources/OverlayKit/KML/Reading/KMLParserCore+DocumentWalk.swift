import OverlayModel

// The document walk: the root, `Document`s and `Folder`s (their names and indexes for KML
// paths), shared styles and Schemas, and each feature element handed to `parseFeature`.
extension KMLParserCore {
    func nextFeature() throws -> Feature? {
        while true {
            if let feature = releaseReady() { return feature }
            if finished { return nil }
            guard try xml.read() else {
                finished = true
                if let collisions = propertyCollisions.diagnostic { warnings.append(collisions) }
                if !rootSeen {
                    throw Diagnostic(.error, code: .kmlEmpty, message: "input holds no KML element",
                                     location: xml.location(line: 1))
                }
                continue
            }
            switch xml.kind {
            case .element:
                try handleElement()
            case .endElement:
                if let top = containers.last, top.depth == xml.depth { containers.removeLast() }
            default:
                break
            }
        }
    }

    private func handleElement() throws {
        let name = xml.localName
        guard rootSeen else {
            rootSeen = true
            // A fragment whose root is a feature (no <kml>) is read as that one feature.
            if ["Placemark", "GroundOverlay", "NetworkLink", "ScreenOverlay", "PhotoOverlay"].contains(name) {
                queue.append(try parseFeature(kind: name, index: 1))
                return
            }
            guard ["kml", "Document", "Folder"].contains(name) else {
                throw Diagnostic(.error, code: .kmlNotKml, message: "the root element is <\(xml.qualifiedName)>, not <kml>",
                                 location: xml.location(line: xml.line, needle: "<" + xml.qualifiedName))
            }
            if !xml.isEmptyElement { containers.append(Container(name: name, depth: xml.depth, isFolder: name == "Folder", folderName: "")) }
            return
        }
        let index = nextIndex(of: name)
        switch name {
        case "Document", "Folder":
            if !xml.isEmptyElement {
                containers.append(Container(name: "\(name)[\(index)]", depth: xml.depth, isFolder: name == "Folder", folderName: ""))
            }
        case "name" where containers.last?.isFolder == true:
            containers[containers.count - 1].folderName = try xml.readText()
        case "name" where documentName == nil && containers.last?.name.hasPrefix("Document") == true
            && containers.filter({ $0.name.hasPrefix("Document") || $0.isFolder }).count == 1:
            documentName = try xml.readText()
        case "ExtendedData" where containers.last?.name.hasPrefix("Document") == true
            && containers.filter({ $0.name.hasPrefix("Document") || $0.isFolder }).count == 1:
            try parseDocumentExtendedData()
        case "Placemark", "GroundOverlay", "NetworkLink", "ScreenOverlay", "PhotoOverlay":
            let pending = try parseFeature(kind: name, index: index)
            queue.append(pending)
        case "Style":
            let line = xml.line
            let id = xml.attribute("id")
            let style = try styleParser().parseStyle()
            if let id { styles.define(style, id: id) } else { report(.kmlUnusedStyle, "a shared <Style> without id can never be used; skipped", line: line, once: "Style-without-id") }
        case "StyleMap":
            let line = xml.line
            let id = xml.attribute("id")
            let map = try styleParser().parseStyleMap()
            if let id { styles.define(map, id: id) } else { report(.kmlUnusedStyle, "a shared <StyleMap> without id can never be used; skipped", line: line, once: "StyleMap-without-id") }
        case "CascadingStyle":
            // Google Earth's newer shared style: <gx:CascadingStyle kml:id="…"><Style>…</Style>.
            let line = xml.line
            let id = xml.attribute("id") ?? xml.attribute("kml:id")
            var style: Style?
            try xml.forEachChild { child in
                if child == "Style" { style = try styleParser().parseStyle() } else { try skipReported(child, in: "gx:CascadingStyle") }
            }
            if let id, let style { styles.define(style, id: id) } else if id == nil {
                report(.kmlUnusedStyle, "a <gx:CascadingStyle> without id can never be used; skipped", line: line, once: "CascadingStyle-without-id")
            }
        case "Schema":
            try parseSchema()
        case _ where legacyPlacemarks.fields(ofElement: name) != nil:
            report(.kmlLegacyMarkup, "<\(xml.qualifiedName)> is a placemark declared by <Schema parent=\"Placemark\">, "
                   + "pre-KML 2.2 markup (Google Earth 5.x); read as a Placemark with its fields typed by the Schema",
                   line: xml.line, once: "legacy-placemark", needle: "<" + xml.qualifiedName)
            queue.append(try parseFeature(kind: "Placemark", index: index, legacyFields: legacyPlacemarks.fields(ofElement: name)))
        default:
            let line = xml.line
            let qualified = xml.qualifiedName
            let known = ["name", "open", "visibility", "description", "Snippet", "snippet", "LookAt", "Camera", "Region",
                         "author", "link", "address", "phoneNumber", "AddressDetails", "ExtendedData", "TimeSpan",
                         "TimeStamp", "styleUrl", "NetworkLinkControl", "Tour", "balloonVisibility", "Update"]
            let what = known.contains(name) ? "is not an overlay and is not kept" : "is not a KML element this reader knows; skipped"
            report(.kmlIgnoredElement, "<\(qualified)> in <\(containers.last.map { $0.name } ?? "kml")> \(what)",
                   line: line, once: "container:" + qualified, needle: "<" + qualified)
            try xml.skipElement()
        }
    }

    private func nextIndex(of name: String) -> Int {
        guard !containers.isEmpty else { return 1 }
        let count = (containers[containers.count - 1].childCounts[name] ?? 0) + 1
        containers[containers.count - 1].childCounts[name] = count
        return count
    }

    var currentPath: String {
        "/" + containers.map(\.name).joined(separator: "/")
    }

    var folderPath: [String] {
        containers.filter(\.isFolder).map(\.folderName)
    }

    func styleParser() -> KMLStyleParser {
        KMLStyleParser(xml: xml, dropped: { [unowned self] name, line in
            report(.kmlIgnoredElement, "<\(name)> in a style is not kept", line: line, once: "style:" + name)
        }, invalid: { [unowned self] message, line in
            report(.kmlInvalidValue, message, line: line)
        })
    }
}

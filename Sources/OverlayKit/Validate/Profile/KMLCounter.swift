import OverlayModel

/// Counts what profiles measure in a KML document, in one streaming pass: features
/// (Placemarks and Ground, Screen and PhotoOverlays), NetworkLinks, how deeply elements nest,
/// and its layers as GDAL's KML driver reads them (each Document or Folder holding Placemarks
/// of its own; a layer's name is its container's `<name>`). Memory: the open containers.
struct KMLCounter {
    let xml: XMLStreamReader
    let file: String?
    let needs: [ProfileMeasure: Set<Int64>]

    /// A counter over `input`, whose places name `name`.
    init(input: ByteInput, name: String?, needs: [ProfileMeasure: Set<Int64>]) throws {
        xml = try XMLStreamReader(input: input, name: name)
        file = name
        self.needs = needs
    }

    static let features: Set<String> = ["Placemark", "GroundOverlay", "ScreenOverlay", "PhotoOverlay"]

    /// An open Document or Folder: its Placemarks, its name, where it starts.
    private struct Container {
        var placemarks: Int64 = 0
        var name: String?
        var line: Int
        var tag: String
        var readingName = false

        init(line: Int, tag: String) {
            self.line = line
            self.tag = tag
        }
    }

    /// A running count and where it first passed each threshold asked for.
    private struct Tally {
        var value: Int64 = 0
        var passed: [Int64: SourceLocation] = [:]

        mutating func add(_ thresholds: Set<Int64>?, _ place: () -> SourceLocation) {
            value += 1
            guard let thresholds else { return }
            // threshold + 1 overflows at Int64.max; value is at least 1 here.
            for threshold in thresholds where value - 1 == threshold { passed[threshold] = place() }
        }

        var measured: ProfileMeasurement.Value { .init(value: value, passed: passed) }
    }

    /// The counts so far, as elements open and close.
    private struct State {
        var features = Tally(), links = Tally(), layers = Tally(), duplicates = Tally()
        var depth: Int64 = 0, deepest: Int64 = 0
        var depthPassed: [Int64: SourceLocation] = [:]
        var containers: [Container] = []
        var elementNames: [String] = []
        var layerNames: Set<String> = []
        var largestLayer: (count: Int64, name: String?) = (0, nil)
        var text: [UInt8] = []
    }

    /// Reads the document to its end and stores the counts.
    /// - Throws: `Diagnostic` `kml.xml-syntax` when the XML is not well-formed (the format rules
    ///   report where).
    func count(into measurement: inout ProfileMeasurement) throws {
        var state = State()
        while try xml.read() {
            switch xml.kind {
            case .element:
                open(&state)
                if xml.isEmptyElement { close(&state) }
            case .endElement:
                close(&state)
            case .text:
                if state.containers.last?.readingName == true { xml.withValueBytes { state.text.append(contentsOf: $0) } }
            default:
                break
            }
        }
        measurement.values[.features] = state.features.measured
        measurement.values[.networkLinks] = state.links.measured
        measurement.values[.layers] = state.layers.measured
        measurement.values[.duplicateLayerNames] = state.duplicates.measured
        measurement.values[.layerFeatures] = .init(value: state.largestLayer.count, item: state.largestLayer.name.map { "layer '\($0)'" })
        measurement.values[.elementDepth] = .init(value: state.deepest, passed: state.depthPassed)
    }

    /// An element starts: depth, features, links, a container or its name.
    private func open(_ state: inout State) {
        let local = xml.localName
        let isKML = KMLElementRules.name(local: local, namespace: xml.namespaceURI) == local
        let here = { xml.location(line: xml.line, needle: "<" + xml.qualifiedName) }
        state.depth += 1
        state.deepest = max(state.deepest, state.depth)
        for threshold in needs[.elementDepth] ?? [] where state.depth - 1 == threshold && state.depthPassed[threshold] == nil {
            state.depthPassed[threshold] = here()
        }
        if isKML && Self.features.contains(local) {
            state.features.add(needs[.features], here)
            if local == "Placemark", !state.containers.isEmpty { state.containers[state.containers.count - 1].placemarks += 1 }
        }
        if isKML && local == "NetworkLink" { state.links.add(needs[.networkLinks], here) }
        if isKML && local == "name", state.elementNames.last == "Document" || state.elementNames.last == "Folder",
           !state.containers.isEmpty, state.containers[state.containers.count - 1].name == nil {
            state.containers[state.containers.count - 1].readingName = true
            state.text = []
        }
        state.elementNames.append(isKML ? local : "")
        if isKML && (local == "Document" || local == "Folder") { state.containers.append(Container(line: xml.line, tag: xml.qualifiedName)) }
    }

    /// An element ends: a container's name, or a container that is a layer.
    private func close(_ state: inout State) {
        state.depth -= 1
        let name = state.elementNames.popLast() ?? ""
        if name == "name", !state.containers.isEmpty, state.containers[state.containers.count - 1].readingName {
            state.containers[state.containers.count - 1].readingName = false
            state.containers[state.containers.count - 1].name = String(decoding: state.text, as: UTF8.self).kmlTrimmed
        }
        guard name == "Document" || name == "Folder", let container = state.containers.popLast(), container.placemarks > 0 else { return }
        let place = xml.location(line: container.line, needle: "<" + container.tag)
        state.layers.add(needs[.layers]) { place }
        if !state.layerNames.insert(container.name ?? "").inserted { state.duplicates.add(needs[.duplicateLayerNames]) { place } }
        if container.placemarks > state.largestLayer.count { state.largestLayer = (container.placemarks, container.name) }
    }
}

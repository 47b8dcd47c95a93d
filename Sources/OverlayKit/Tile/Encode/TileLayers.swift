import OverlayModel

/// Which MVT layer each input feature goes to: the layer of the input it was read from
/// (tippecanoe's `-l` / `-L NAME:FILE`), unless its `"tippecanoe": {"layer": NAME}` member
/// names another.
///
/// While an input is read its features are marked ``inputLayer``; the input's name replaces
/// the mark once it is known, so an input read in parts on several threads needs no name.
package struct TileLayers: Sendable {
    /// The mark of a feature that goes to the layer of its input.
    static let inputLayer = UInt16.max
    /// The most layers a run makes; a `tippecanoe` member naming one more sends its feature to
    /// its input's layer (and is counted in ``namesOverLimit``). MVT readers slow down with
    /// thousands of layers, and a hostile input could name one per feature.
    package static let maximumCount = 1000

    /// Layer names by index, in the order they were first met.
    package private(set) var names = [String]()
    private var indexByName = [String: UInt16]()
    /// By input position: the feature's layer index, or ``inputLayer``.
    private var bySource = [UInt16]()
    /// Features whose `tippecanoe` member named a layer (used or not).
    package private(set) var namedInMembers = 0
    /// Features whose member named a layer beyond ``maximumCount`` (sent to their input's layer).
    package private(set) var namesOverLimit = 0

    /// No features yet.
    init() {}

    /// Whether every feature goes to one layer.
    package var isSingleLayer: Bool { names.count <= 1 }

    /// The layer index of the feature at input position `source`; ``inputLayer`` before the
    /// input's layer is named.
    @inline(__always)
    package func layer(of source: Int) -> Int { Int(bySource[source]) }

    /// Reads the next input feature's `tippecanoe` member.
    mutating func add(_ feature: Feature) {
        guard case .object(let member)? = feature.foreignMembers["tippecanoe"],
              case .string(let name)? = member["layer"], !name.isEmpty else {
            bySource.append(Self.inputLayer)
            return
        }
        namedInMembers += 1
        if let index = index(of: name) {
            bySource.append(index)
        } else {
            namesOverLimit += 1
            bySource.append(Self.inputLayer)
        }
    }

    /// The index of the layer `name`, made when new; nil past ``maximumCount``.
    private mutating func index(of name: String) -> UInt16? {
        if let known = indexByName[name] { return known }
        guard names.count < Self.maximumCount else { return nil }
        return register(name)
    }

    /// Appends the layers of the features that follow (a later part or a later input).
    mutating func append(_ later: TileLayers) {
        let remap = later.names.map { self.index(of: $0) ?? Self.inputLayer }
        bySource.reserveCapacity(bySource.count + later.bySource.count)
        for layer in later.bySource {
            let mapped = layer == Self.inputLayer ? Self.inputLayer : remap[Int(layer)]
            // A name the later part made that no longer fits: its features go to their input's layer.
            if mapped == Self.inputLayer && layer != Self.inputLayer { namesOverLimit += 1 }
            bySource.append(mapped)
        }
        namedInMembers += later.namedInMembers
        namesOverLimit += later.namesOverLimit
    }

    /// The index of the layer `name`, made when new (an input's own layer is made even past
    /// ``maximumCount``); an input registers its layer before it is read so it comes before the
    /// layers its members name.
    @discardableResult
    mutating func register(_ name: String) -> UInt16 {
        if let known = indexByName[name] { return known }
        let index = UInt16(names.count)
        names.append(name)
        indexByName[name] = index
        return index
    }

    /// Sends the features from input position `start` on that are marked ``inputLayer`` to
    /// the layer `name` (their input's).
    mutating func assignInputLayer(_ name: String, from start: Int = 0) {
        guard bySource[start...].contains(Self.inputLayer) else { return }
        let index = register(name)
        for position in start..<bySource.count where bySource[position] == Self.inputLayer { bySource[position] = index }
    }

    /// Forgets layers no feature went to (an input with no features), keeping the order.
    mutating func removeUnused() {
        var used = [Bool](repeating: false, count: names.count)
        for layer in bySource where Int(layer) < used.count { used[Int(layer)] = true }
        guard used.contains(false) else { return }
        var remap = [UInt16](repeating: Self.inputLayer, count: names.count)
        var kept = [String]()
        for (index, name) in names.enumerated() where used[index] {
            remap[index] = UInt16(kept.count)
            kept.append(name)
        }
        for position in bySource.indices where bySource[position] != Self.inputLayer {
            bySource[position] = remap[Int(bySource[position])]
        }
        names = kept
        indexByName = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, UInt16($0)) })
    }
}

/// The vector layers of a run and which one each feature goes to: the layer of the input it was
/// read from (tippecanoe's `-l` / `-L NAME:FILE`), unless its `"tippecanoe": {"layer": NAME}`
/// member names another.
///
/// While an input is read (maybe in parts, on several threads) each feature gets an index into
/// its part's names, or ``inputLayer`` for "its input's layer", which has no name yet. Joining
/// the parts, naming the input's layer and dropping layers no feature went to each give a remap
/// (old index → new index) for the features already tagged: the features carry their index
/// (`FeatureTags.layer`), so no table by input position is kept.
package struct TileLayers: Sendable, Codable {
    /// The mark of a feature that goes to the layer of its input.
    package static let inputLayer = UInt16.max
    /// The most layers a run makes; a `tippecanoe` member naming one more sends its feature to
    /// its input's layer (and is counted in ``namesOverLimit``). MVT readers slow down with
    /// thousands of layers, and a hostile input could name one per feature.
    package static let maximumCount = 1000

    /// Layer names by index, in the order they were first met.
    package private(set) var names = [String]()
    private var indexByName = [String: UInt16]()
    /// Features per layer index, and features marked ``inputLayer``.
    private var counts = [Int]()
    private var inputLayerCount = 0
    /// Features whose `tippecanoe` member named a layer (used or not).
    package private(set) var namedInMembers = 0
    /// Features whose member named a layer beyond ``maximumCount`` (sent to their input's layer).
    package private(set) var namesOverLimit = 0

    /// No features yet.
    init() {}

    /// What is wrong with a table read back from a work file (a distributed run's shard
    /// summary or plan), or nil: the names unique and indexed as listed, one count per name,
    /// counts not negative (their sizes are checked with every other integer there).
    package var readBackProblem: String? {
        guard names.count < Int(Self.inputLayer), counts.count == names.count, indexByName.count == names.count,
              names.indices.allSatisfy({ indexByName[names[$0]] == UInt16($0) }) else {
            return "layers whose names, indexes and counts disagree"
        }
        guard (counts + [inputLayerCount, namedInMembers, namesOverLimit]).allSatisfy({ $0 >= 0 }) else {
            return "a negative layer count"
        }
        return nil
    }

    /// The names a tile of these layers is encoded with: the layers', or `layer` when there is none.
    package func encodedNames(default layer: String) -> [String] { names.isEmpty ? [layer] : names }

    /// Reads the next input feature's `tippecanoe` member; returns its layer index, or ``inputLayer``.
    mutating func add(_ feature: Feature) -> UInt16 {
        guard case .object(let member)? = feature.foreignMembers["tippecanoe"],
              case .string(let name)? = member["layer"], !name.isEmpty else {
            inputLayerCount += 1
            return Self.inputLayer
        }
        namedInMembers += 1
        guard let index = index(of: name) else {
            namesOverLimit += 1
            inputLayerCount += 1
            return Self.inputLayer
        }
        counts[Int(index)] += 1
        return index
    }

    /// The index of the layer `name`, made when new; nil past ``maximumCount``.
    private mutating func index(of name: String) -> UInt16? {
        if let known = indexByName[name] { return known }
        guard names.count < Self.maximumCount else { return nil }
        return register(name)
    }

    /// Takes in the layers of the features that follow (a later part or a later input) and
    /// returns the remap of their indices into this table's (``inputLayer`` stays itself).
    mutating func append(_ later: TileLayers) -> [UInt16] {
        var remap = [UInt16]()
        for (index, name) in later.names.enumerated() {
            let mapped = self.index(of: name) ?? Self.inputLayer
            remap.append(mapped)
            if mapped == Self.inputLayer {
                // A name the later part made that no longer fits: its features go to their input's layer.
                namesOverLimit += later.counts[index]
                inputLayerCount += later.counts[index]
            } else {
                counts[Int(mapped)] += later.counts[index]
            }
        }
        inputLayerCount += later.inputLayerCount
        namedInMembers += later.namedInMembers
        namesOverLimit += later.namesOverLimit
        return remap
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
        counts.append(0)
        return index
    }

    /// Names the layer of the features marked ``inputLayer`` so far: `name` (their input's).
    /// Returns its index, which those features take.
    @discardableResult
    mutating func assignInputLayer(_ name: String) -> UInt16 {
        let index = register(name)
        counts[Int(index)] += inputLayerCount
        inputLayerCount = 0
        return index
    }

    /// Forgets layers no feature went to (an input with no features), keeping the order;
    /// returns the remap of the old indices (nil when nothing changed).
    mutating func removeUnused() -> [UInt16]? {
        guard counts.contains(0) else { return nil }
        var remap = [UInt16](repeating: Self.inputLayer, count: names.count)
        var kept = [String](), keptCounts = [Int]()
        for (index, name) in names.enumerated() where counts[index] > 0 {
            remap[index] = UInt16(kept.count)
            kept.append(name)
            keptCounts.append(counts[index])
        }
        names = kept
        counts = keptCounts
        indexByName = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, UInt16($0)) })
        return remap
    }
}

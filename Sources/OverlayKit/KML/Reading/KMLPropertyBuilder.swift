import OverlayModel

/// One feature's properties as the KML reader builds them, every name unique
/// (docs/kml.md "Property names"):
///
/// - a value from KML's own elements (`name`, `visibility`, `timestamp`, `extrude`, `icon`, …,
///   a *field*) keeps its name; setting it again replaces it (each element appears once);
/// - a value from `ExtendedData` (`Data`, `SimpleData`, foreign elements) keeps its name unless
///   a field or an earlier value has it; then it takes the first free `name_2`, `name_3`, …
///   (`JSONObject.uniqueName`). A field read after an ExtendedData value of its name moves
///   that value to the suffixed name instead, so the rule does not depend on element order;
/// - a `Data` or `SimpleData` without a `name` attribute is named `unnamed` (then `unnamed_2`, …).
///
/// Members keep the order they were read in, so a file without collisions reads exactly as
/// before.
struct KMLPropertyBuilder {
    /// The name given to a `Data`/`SimpleData` that has no `name` attribute.
    static let unnamedKey = "unnamed"

    /// The properties so far.
    var object: JSONObject {
        guard !arrays.isEmpty, let index = storage.members.firstIndex(where: { $0.key == Self.arraysKey }) else { return storage }
        var object = storage
        object.members[index].value = .object(arrays)
        return object
    }
    /// The members, with a placeholder for `coordinateProperties` while `arrays` grows.
    private var storage = JSONObject()
    private static let arraysKey = "coordinateProperties"
    /// The `coordinateProperties` members (track times, SimpleArrayData), kept apart so each
    /// added array costs O(1).
    private var arrays = JSONObject()
    private var arrayKeys: Set<String> = []
    /// Every name in `object` but those of `schemaIDs`, so a placemark of 100,000 Data costs
    /// O(n), not O(n²).
    private var keys: Set<String> = []
    /// The first names put in `keys` (at most 8, in no order; `keysOverflow` once there were
    /// more): a SchemaData value's name is compared with these instead of hashed.
    private var smallKeys: [String] = []
    private var keysOverflow = false
    /// The names of SchemaData values appended by id (`appendSchemaValue`), not in `keys`: a bit
    /// per id of `schemaNames`. A country placemark's 71 values hashed their names into `keys`
    /// (20 M instructions of a 12 MB KML's 667 M on the reading thread, issue 50).
    private var schemaNames: KMLSchemaFieldCache.Names?
    private var schemaIDs: [UInt64] = []
    private var schemaIDCount = 0
    /// Names set from KML's own elements.
    private var fieldKeys: Set<String> = []
    /// The next suffix to try per repeated name (`JSONObject.uniqueName(for:from:isTaken:)`).
    private var nextSuffix: [String: Int] = [:]
    /// Names that collided in this feature, in order of first collision (each once).
    private(set) var collisions: [String] = []
    private var collided: Set<String> = []
    /// How many values had no name.
    private(set) var unnamedCount = 0
    /// ExtendedData values moved to a suffixed name by a later field: (old name, new name).
    private(set) var moves: [(from: String, to: String)] = []

    /// An empty builder.
    init() {}

    /// An empty builder with room for `count` properties (a hint; more still fit).
    init(expecting count: Int) {
        guard count > 0 else { return }
        let bounded = min(count, 4_096)
        storage.members.reserveCapacity(bounded)
        keys.reserveCapacity(bounded)
    }

    /// How many properties there are so far.
    var count: Int { storage.members.count }

    /// True when there are no properties.
    var isEmpty: Bool { storage.isEmpty }

    /// Reads a member; setting one is setting a *field* (see the type's rules). Setting nil
    /// removes the first member of that name (the reader consumes its conventions this way).
    subscript(key: String) -> JSONValue? {
        get {
            guard contains(key) else { return nil }
            return key == Self.arraysKey && !arrays.isEmpty ? .object(arrays) : storage[key]
        }
        set {
            guard let newValue else {
                remove([key])
                return
            }
            setField(key, newValue)
        }
    }

    /// Removes the members with these names, in one pass.
    mutating func remove(_ names: Set<String>) {
        guard names.contains(where: { contains($0) }) else { return }
        materialize()
        storage.members.removeAll { names.contains($0.key) }
        if names.contains(Self.arraysKey) {
            arrays = JSONObject()
            arrayKeys = []
        }
        keys.subtract(names)
        smallKeys.removeAll { names.contains($0) }
        fieldKeys.subtract(names)
    }

    /// Whether a member has this name.
    private func contains(_ key: String) -> Bool {
        keys.contains(key) || schemaContains(key)
    }

    /// Whether a value appended by id has this name.
    private func schemaContains(_ key: String) -> Bool {
        guard schemaIDCount > 0, let id = schemaNames?.index[key] else { return false }
        return id >> 6 < schemaIDs.count && schemaIDs[id >> 6] & (1 << UInt64(id & 63)) != 0
    }

    /// Adds a name to `keys` (and to `smallKeys` while there is room); false when it was there.
    @discardableResult
    private mutating func insertKey(_ key: String) -> Bool {
        guard keys.insert(key).inserted else { return false }
        if smallKeys.count < 8 { smallKeys.append(key) } else { keysOverflow = true }
        return true
    }

    /// Moves the names of the values appended by id into `keys`, before any change that
    /// reads `keys` alone.
    private mutating func materialize() {
        guard schemaIDCount > 0, let names = schemaNames else { return }
        for (word, bits) in schemaIDs.enumerated() where bits != 0 {
            for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 { insertKey(names.keys[word << 6 | bit]) }
        }
        schemaIDs.removeAll(keepingCapacity: true)
        schemaIDCount = 0
    }

    /// Sets a value read from one of KML's own elements (see the type's rules).
    mutating func setField(_ key: String, _ value: JSONValue) {
        if schemaContains(key) { materialize() }
        if keys.contains(key), !fieldKeys.contains(key), let index = storage.members.firstIndex(where: { $0.key == key }) {
            // An ExtendedData value got here first: it moves aside, the field takes the name.
            let moved = freeName(for: key)
            storage.members[index].key = moved
            insertKey(moved)
            moves.append((key, moved))
            noteCollision(key)
            storage.append(key, value)
        } else if keys.contains(key) {
            storage[key] = value
        } else {
            storage.append(key, value)
            insertKey(key)
        }
        fieldKeys.insert(key)
    }

    /// Appends a value read from ExtendedData under `name` (nil: the element had no name),
    /// or under the first free suffixed name; returns the name used.
    @discardableResult
    mutating func appendData(_ name: String?, _ value: JSONValue) -> String {
        var key = name ?? KMLPropertyBuilder.unnamedKey
        if name == nil { unnamedCount += 1 }
        if schemaContains(key) { materialize() }
        // One hash per value when the name is free.
        if !insertKey(key) {
            if name != nil { noteCollision(key) }
            key = freeName(for: key)
            insertKey(key)
        }
        storage.append(key, value)
        return key
    }

    /// `appendData(entry.key, value)` for a SchemaData value whose field `entry` is in `names`:
    /// when its name is free, the name is marked by the entry's id, not hashed (the usual case:
    /// 71 per country placemark). Returns the name used.
    @discardableResult
    mutating func appendSchemaValue(_ entry: KMLSchemaFieldCache.Entry, in names: KMLSchemaFieldCache.Names,
                                    _ value: JSONValue) -> String {
        guard let id = entry.id else { return appendData(entry.key, value) }
        if schemaNames !== names {
            materialize()
            schemaNames = names
        }
        let word = id >> 6
        let bit: UInt64 = 1 << UInt64(id & 63)
        let taken = word < schemaIDs.count && schemaIDs[word] & bit != 0
        let free = !taken && (keysOverflow ? !keys.contains(entry.key) : !smallKeys.contains(entry.key))
        guard free else { return appendData(entry.key, value) }
        if word >= schemaIDs.count { schemaIDs.append(contentsOf: repeatElement(0, count: word + 1 - schemaIDs.count)) }
        schemaIDs[word] |= bit
        schemaIDCount += 1
        storage.append(entry.key, value)
        return entry.key
    }

    /// Adds a per-position array (`SimpleArrayData`) to the `coordinateProperties` field under
    /// `name`, or the first free suffixed name; returns the name used.
    @discardableResult
    mutating func appendCoordinateArray(_ name: String?, _ values: [JSONValue]) -> String {
        var key = name ?? KMLPropertyBuilder.unnamedKey
        if name == nil { unnamedCount += 1 }
        if arrayKeys.contains(key) {
            if name != nil { noteCollision(key) }
            key = freeArrayName(for: key)
        }
        addArray(key, .array(values), first: false)
        return key
    }

    /// Puts a track's `when` times first in `coordinateProperties`, beside any arrays already
    /// there (an array named `times` moves to `times_2`).
    mutating func setTimes(_ times: JSONValue) {
        if arrayKeys.contains("times") {
            noteCollision("times")
            let moved = freeArrayName(for: "times")
            if let index = arrays.members.firstIndex(where: { $0.key == "times" }) { arrays.members[index].key = moved }
            arrayKeys.insert(moved)
        }
        addArray("times", times, first: true)
    }

    /// Adds one `coordinateProperties` member; the field itself takes its place among the
    /// properties when the first one comes.
    private mutating func addArray(_ key: String, _ value: JSONValue, first: Bool) {
        if !fieldKeys.contains(Self.arraysKey) || arrays.isEmpty { setField(Self.arraysKey, .object(JSONObject())) }
        if first { arrays.members.insert(JSONObject.Member(key: key, value: value), at: 0) } else { arrays.append(key, value) }
        arrayKeys.insert(key)
    }

    /// The first free `key_2`, … among the `coordinateProperties` members.
    private mutating func freeArrayName(for key: String) -> String {
        var suffix = nextSuffix["coordinateProperties/" + key] ?? 2
        let name = JSONObject.uniqueName(for: key, from: &suffix) { arrayKeys.contains($0) }
        nextSuffix["coordinateProperties/" + key] = suffix
        return name
    }

    /// The first free `key_2`, `key_3`, … of this feature.
    private mutating func freeName(for key: String) -> String {
        var suffix = nextSuffix[key] ?? 2
        let name = JSONObject.uniqueName(for: key, from: &suffix) { contains($0) }
        nextSuffix[key] = suffix
        return name
    }

    private mutating func noteCollision(_ key: String) {
        if collided.insert(key).inserted { collisions.append(key) }
    }
}

/// The property-name collisions of one file, reported once at its end (docs/kml.md "Property
/// names"); the reader and `validate` share it so both say the same.
struct KMLPropertyCollisions {
    /// Names that collided, in order of first collision, with how many features had it.
    private var names: [(name: String, features: Int)] = []
    private var index: [String: Int] = [:]
    private var unnamed = 0
    private var first: SourceLocation?

    /// Adds one feature's collisions.
    mutating func add(_ collisions: [String], unnamed unnamedCount: Int, at location: @autoclosure () -> SourceLocation?) {
        guard !collisions.isEmpty || unnamedCount > 0 else { return }
        if first == nil { first = location() }
        unnamed += unnamedCount
        for name in collisions {
            if let position = index[name] { names[position].features += 1 } else {
                index[name] = names.count
                names.append((name, 1))
            }
        }
    }

    /// The warning for the file (at its first collision), or nil when every name was unique.
    var diagnostic: Diagnostic? {
        guard !names.isEmpty || unnamed > 0 else { return nil }
        var parts: [String] = []
        if !names.isEmpty {
            let listed = names.prefix(20).map { "'\($0.name)' (\($0.features) feature\($0.features == 1 ? "" : "s"))" }
            parts.append("property names used twice in one feature: " + listed.joined(separator: ", ")
                         + (names.count > 20 ? " and \(names.count - 20) more" : "")
                         + "; KML's own elements keep the name, ExtendedData values take the first free name_2, name_3, …")
        }
        if unnamed > 0 {
            parts.append("\(unnamed) Data/SimpleData without a name read as '\(KMLPropertyBuilder.unnamedKey)'")
        }
        return Diagnostic(.warning, code: .kmlDuplicateProperty, message: parts.joined(separator: "; "), location: first)
    }
}

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
    private(set) var object = JSONObject()
    /// Names set from KML's own elements.
    private var fieldKeys: Set<String> = []
    /// Names that collided in this feature, in order of first collision (each once).
    private(set) var collisions: [String] = []
    /// How many values had no name.
    private(set) var unnamedCount = 0
    /// ExtendedData values moved to a suffixed name by a later field: (old name, new name).
    private(set) var moves: [(from: String, to: String)] = []

    /// True when there are no properties.
    var isEmpty: Bool { object.isEmpty }

    /// Reads a member; setting one is setting a *field* (see the type's rules). Setting nil
    /// removes the first member of that name (the reader consumes its conventions this way).
    subscript(key: String) -> JSONValue? {
        get { object[key] }
        set {
            guard let newValue else {
                object[key] = nil
                fieldKeys.remove(key)
                return
            }
            setField(key, newValue)
        }
    }

    /// Sets a value read from one of KML's own elements (see the type's rules).
    mutating func setField(_ key: String, _ value: JSONValue) {
        if !fieldKeys.contains(key), let index = object.members.firstIndex(where: { $0.key == key }) {
            // An ExtendedData value got here first: it moves aside, the field takes the name.
            let moved = JSONObject.uniqueName(for: key) { name in object.members.contains { $0.key == name } }
            object.members[index].key = moved
            moves.append((key, moved))
            noteCollision(key)
            object.append(key, value)
        } else {
            object[key] = value
        }
        fieldKeys.insert(key)
    }

    /// Appends a value read from ExtendedData under `name` (nil: the element had no name),
    /// or under the first free suffixed name; returns the name used.
    @discardableResult
    mutating func appendData(_ name: String?, _ value: JSONValue) -> String {
        var key = name ?? KMLPropertyBuilder.unnamedKey
        if name == nil { unnamedCount += 1 }
        if object.members.contains(where: { $0.key == key }) {
            if name != nil { noteCollision(key) }
            key = JSONObject.uniqueName(for: key) { candidate in object.members.contains { $0.key == candidate } }
        }
        object.append(key, value)
        return key
    }

    /// Adds a per-position array (`SimpleArrayData`) to the `coordinateProperties` field under
    /// `name`, or the first free suffixed name; returns the name used.
    @discardableResult
    mutating func appendCoordinateArray(_ name: String?, _ values: [JSONValue]) -> String {
        var arrays = object["coordinateProperties"]?.objectValue ?? JSONObject()
        var key = name ?? KMLPropertyBuilder.unnamedKey
        if name == nil { unnamedCount += 1 }
        if arrays[key] != nil {
            if name != nil { noteCollision(key) }
            key = JSONObject.uniqueName(for: key) { arrays[$0] != nil }
        }
        arrays.append(key, .array(values))
        setField("coordinateProperties", .object(arrays))
        return key
    }

    /// Puts a track's `when` times first in `coordinateProperties`, beside any arrays already
    /// there (an array named `times` moves to `times_2`).
    mutating func setTimes(_ times: JSONValue) {
        var arrays = object["coordinateProperties"]?.objectValue ?? JSONObject()
        if arrays["times"] != nil {
            noteCollision("times")
            let moved = JSONObject.uniqueName(for: "times") { arrays[$0] != nil }
            if let index = arrays.members.firstIndex(where: { $0.key == "times" }) { arrays.members[index].key = moved }
        }
        arrays.members.insert(JSONObject.Member(key: "times", value: times), at: 0)
        setField("coordinateProperties", .object(arrays))
    }

    private mutating func noteCollision(_ key: String) {
        if !collisions.contains(key) { collisions.append(key) }
    }
}

/// The property-name collisions of one file, reported once at its end (docs/kml.md "Property
/// names"); the reader and `validate` share it so both say the same.
struct KMLPropertyCollisions {
    /// Names that collided, in order of first collision, with how many features had it.
    private var names: [(name: String, features: Int)] = []
    private var unnamed = 0
    private var first: SourceLocation?

    /// Adds one feature's collisions.
    mutating func add(_ collisions: [String], unnamed unnamedCount: Int, at location: @autoclosure () -> SourceLocation?) {
        guard !collisions.isEmpty || unnamedCount > 0 else { return }
        if first == nil { first = location() }
        unnamed += unnamedCount
        for name in collisions {
            if let index = names.firstIndex(where: { $0.name == name }) { names[index].features += 1 } else {
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
        return Diagnostic(.warning, code: "kml.duplicate-property", message: parts.joined(separator: "; "), location: first)
    }
}

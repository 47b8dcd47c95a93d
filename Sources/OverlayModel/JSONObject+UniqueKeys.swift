/// The one rule for member names that would repeat (docs/kml.md "Property names"): the first
/// member keeps its name, each later one takes the first free `name_2`, `name_3`, … — free
/// meaning no member of the object has it. Nothing is dropped, and every name written is unique.
extension JSONObject {
    /// The name a member called `key` takes when `isTaken(key)`: the first of `key_2`, `key_3`,
    /// … that is not taken (`key` itself when it is free). Ends: the taken names are finite, so
    /// at most that many candidates are tried.
    public static func uniqueName(for key: String, isTaken: (String) -> Bool) -> String {
        var suffix = 2
        return uniqueName(for: key, from: &suffix, isTaken: isTaken)
    }

    /// `uniqueName(for:isTaken:)` trying suffixes from `suffix` on, and leaving `suffix` past the
    /// one used: a caller naming many repeats of one name keeps it per name, so n repeats cost
    /// O(n) tries, not O(n²) (hostile input repeats a name 100,000 times).
    public static func uniqueName(for key: String, from suffix: inout Int, isTaken: (String) -> Bool) -> String {
        guard isTaken(key) else { return key }
        while isTaken("\(key)_\(suffix)") { suffix += 1 }
        defer { suffix += 1 }
        return "\(key)_\(suffix)"
    }

    /// True when some name appears twice. O(n²) up to 16 members, O(n) beyond; allocates
    /// nothing for small objects.
    public var hasDuplicateKeys: Bool {
        hasDuplicateKeys(besides: [])
    }

    /// True when some name appears twice, or is one of `reserved` (members the enclosing
    /// writer emits itself, such as a Feature's `type`).
    public func hasDuplicateKeys(besides reserved: [String]) -> Bool {
        guard members.count + reserved.count > 1, !members.isEmpty else { return false }
        if members.count <= 16 {
            for index in members.indices {
                let key = members[index].key
                if reserved.contains(key) { return true }
                for earlier in 0..<index where members[earlier].key == key { return true }
            }
            return false
        }
        // Reserved at its final size: grown by doubling, the set rehashed every name again
        // (a KML placemark's 71 properties: 24 M of a 12 MB file's 54 M in this check).
        var seen = Set<String>(minimumCapacity: members.count + reserved.count)
        for key in reserved { seen.insert(key) }
        return !members.allSatisfy { seen.insert($0.key).inserted }
    }

    /// Renames every member whose name repeats an earlier one's (or one of `reserved`) to the
    /// first free `name_2`, `name_3`, …, keeping every member and its place. Returns the
    /// (original, new) names, empty when every name was already unique.
    @discardableResult
    public mutating func renameDuplicateKeys(besides reserved: [String] = []) -> [(original: String, renamed: String)] {
        guard hasDuplicateKeys(besides: reserved) else { return [] }
        // Free means free in the whole object (a later `a_2` keeps its name), and among the
        // names handed out so far.
        let original = Set(members.map(\.key))
        var used = Set<String>(reserved)
        var renames: [(original: String, renamed: String)] = []
        var nextSuffix: [String: Int] = [:]
        for index in members.indices {
            let key = members[index].key
            if used.insert(key).inserted { continue }
            var suffix = nextSuffix[key] ?? 2
            let renamed = JSONObject.uniqueName(for: key, from: &suffix) { used.contains($0) || original.contains($0) }
            nextSuffix[key] = suffix
            used.insert(renamed)
            members[index].key = renamed
            renames.append((key, renamed))
        }
        return renames
    }
}

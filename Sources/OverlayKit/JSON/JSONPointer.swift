/// RFC 6901 JSON Pointers, the `/features/3/geometry` paths diagnostics carry.
enum JSONPointer {
    /// One reference token: `~` becomes `~0` and `/` becomes `~1`, in that order of meaning.
    static func escape(_ key: String) -> String {
        guard key.contains(where: { $0 == "~" || $0 == "/" }) else { return key }
        var text = ""
        for character in key {
            text += character == "~" ? "~0" : character == "/" ? "~1" : String(character)
        }
        return text
    }

    /// The pointer of a path of member names and indices, or nil for the root (whose pointer,
    /// "", says nothing to a reader).
    static func make(_ components: [String]) -> String? {
        guard !components.isEmpty else { return nil }
        return components.map { "/" + escape($0) }.joined()
    }
}

/// tippecanoe's users write a short option's value attached (`-zg`, `-z14`, `-r1`, `-M500000`,
/// `-oout.pmtiles`); argument-parser reads `-zg` as the flags `-z -g`. For `tile` and
/// `tile-join`, every short option that takes a value is split into option and value before
/// parsing, so both spellings work in both commands (`HostileEdgeCommandTests` checks these tables
/// against the commands' own options).
enum TippecanoeSpelling {
    /// Per command, its short options that take a value.
    static let valueOptions: [String: Set<Character>] = [
        "tile": ["o", "z", "Z", "l", "L", "t", "x", "y", "T", "n", "N", "A", "b", "M", "O", "r", "B"],
        "tile-join": ["o", "z", "Z", "l", "L", "R", "x", "y", "n"],
    ]

    /// tippecanoe's two-letter `-a` options that `tile` has, by their long name.
    static let twoLetterOptions: [String: String] = ["-ab": "--detect-shared-borders"]

    /// `arguments` (without the program name) with attached short-option values split off.
    static func expanded(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, let options = valueOptions[command] else { return arguments }
        var result = [command]
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument == "--" {
                result.append(argument)
                result += rest
                break
            }
            if let long = twoLetterOptions[argument] {
                result.append(long)
                continue
            }
            let characters = Array(argument)
            if characters.count > 2, characters[0] == "-", options.contains(characters[1]),
               characters[2] != "=", characters[2] != "-" || characters.count > 3 {
                result += [String(characters[0...1]), String(characters[2...])]
            } else {
                result.append(argument)
            }
        }
        return result
    }
}

/// tippecanoe's users write a short option's value attached (`-zg`, `-z14`, `-r1`, `-M500000`);
/// argument-parser reads `-zg` as the flags `-z -g`. For `tile`, these options are split into
/// option and value before parsing, so both spellings work.
enum TippecanoeSpelling {
    /// Short `tile` options that take a value.
    static let valueOptions: Set<Character> = ["z", "Z", "r", "B", "M", "O"]

    /// tippecanoe's two-letter `-a` options that `tile` has, by their long name.
    static let twoLetterOptions: [String: String] = ["-ab": "--detect-shared-borders"]

    /// `arguments` (without the program name) with attached short-option values split off.
    static func expanded(_ arguments: [String]) -> [String] {
        guard arguments.first == "tile" else { return arguments }
        var result = ["tile"]
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
            if characters.count > 2, characters[0] == "-", valueOptions.contains(characters[1]),
               characters[2] != "=", characters[2] != "-" || characters.count > 3 {
                result += [String(characters[0...1]), String(characters[2...])]
            } else {
                result.append(argument)
            }
        }
        return result
    }
}

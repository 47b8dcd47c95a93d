/// tippecanoe's users write a short option's value attached (`-zg`, `-z14`, `-r1`, `-M500000`,
/// `-oout.pmtiles`); argument-parser reads `-zg` as the flags `-z -g`. For `tile` and
/// `tile-join`, every short option that takes a value is split into option and value before
/// parsing, so both spellings work in both commands (`HostileEdgeCommandTests` checks these tables
/// against the commands' own options).
enum TippecanoeSpelling {
    /// Per command, its short options that take a value.
    static let valueOptions: [String: Set<Character>] = [
        "tile": ["o", "e", "z", "Z", "l", "L", "t", "x", "y", "T", "n", "N", "A", "b", "M", "O", "r", "B"],
        "tile-join": ["o", "z", "Z", "l", "L", "R", "x", "y", "n"],
    ]

    /// tippecanoe's two-letter options (`-ab`, `-pk`, …) that `tile` has, by their long name.
    static let twoLetterOptions: [String: String] = [
        "-ab": "--detect-shared-borders", "-pk": "--no-tile-size-limit", "-pf": "--no-feature-limit",
        "-pt": "--no-tiny-polygon-reduction",
    ]

    /// tippecanoe options `tile` does not take, each with what to write instead: a user's habit
    /// gets a pointer, not "Unknown option" (docs/tile.md, "tippecanoe's options").
    static let equivalents: [String: String] = [
        "-S": "tippecanoe's --simplification (a factor); tile's nearest is --tolerance N, in tile units (default 3)",
        "--simplification": "tippecanoe's -S (a factor); tile's nearest is --tolerance N, in tile units (default 3)",
        "-d": "tippecanoe's --full-detail (detail at the max zoom, 2^N units); tile's --extent 2^N sets every zoom's (-d 12 is --extent 4096)",
        "--full-detail": "tippecanoe's -d (detail at the max zoom, 2^N units); tile's --extent 2^N sets every zoom's (-d 12 is --extent 4096)",
        "-D": "tippecanoe's --low-detail; tile has one detail for every zoom: --extent 2^N",
        "--low-detail": "tippecanoe's -D; tile has one detail for every zoom: --extent 2^N",
        "-m": "tippecanoe's --minimum-detail; tile has one detail for every zoom (--extent) and a tile budget (--max-tile-bytes)",
        "-pC": "tippecanoe's --no-tile-compression; tile directories hold uncompressed tiles already, PMTiles and MBTiles gzip theirs (as their readers expect)",
        "--no-tile-compression": "tippecanoe's -pC; tile directories hold uncompressed tiles already, PMTiles and MBTiles gzip theirs (as their readers expect)",
        "-rg": "tippecanoe's drop-rate guess; tile takes --drop-rate RATE (default 2.5), and -Bg guesses the base zoom",
        "-ps": "tippecanoe's --no-line-simplification; tile's nearest is --tolerance 0",
        "--no-line-simplification": "tippecanoe's -ps; tile's nearest is --tolerance 0",
        "-ac": "tippecanoe's --coalesce; tile merges only over budget: --coalesce-densest-as-needed or --coalesce-smallest-as-needed",
        "-as": "tippecanoe's --drop-densest-as-needed spelled short; tile's is --drop-densest-as-needed",
        "-an": "tippecanoe's --drop-smallest-as-needed spelled short; tile's is --drop-smallest-as-needed",
        "-aC": "tippecanoe's --cluster-densest-as-needed; tile's nearest is --cluster-distance PX",
        "-j": "tippecanoe's --feature-filter (Mapbox GL JSON filters); tile's is --where EXPR, the filter --where language",
        "--feature-filter": "tippecanoe's -j (Mapbox GL JSON filters); tile's is --where EXPR, the filter --where language",
    ]

    /// The first tippecanoe option of `arguments` that `command` does not take, with its
    /// equivalent, as a usage message; nil when there is none (or after `--`).
    static func unsupported(_ arguments: [String]) -> String? {
        guard arguments.first == "tile" else { return nil }
        for argument in arguments.dropFirst() {
            if argument == "--" { return nil }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            // `-d12`, `-S10`: a short option with its value attached.
            let attached = !name.hasPrefix("--") && name.count > 2 && name.dropFirst(2).allSatisfy(\.isNumber)
            if let equivalent = equivalents[name] ?? (attached ? equivalents[String(name.prefix(2))] : nil) {
                return "\(name) is \(equivalent) (docs/tile.md, \"tippecanoe's options\")"
            }
        }
        return nil
    }

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

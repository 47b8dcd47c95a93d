import Foundation

/// Which folder of a source tree uses which, read from the code: every top-level type a folder
/// declares (struct, enum, class, protocol, typealias, actor; not private ones, which no other
/// file can name), then every whole-word use of those names in the other folders' files, with
/// comments and string literal text left out (interpolated code counts). Member-level uses
/// (an extension method, a free function) are not seen; type names are what a reader follows.
struct FolderDependencies {
    /// Folder → folders whose types its files name → one example ("Type in Folder/File.swift").
    var uses: [String: [String: String]] = [:]
    /// Swift files in a folder the table has no row for (files at the root are not filed).
    var unfiled: [String] = []

    /// Reads every `.swift` file under `root`; a file belongs to the longest of `folders` its
    /// path starts with (so `KML/Reading` owns `KML/Reading/x.swift`, `KML` owns `KML/KMZ.swift`).
    init(root: URL, folders: [String]) throws {
        var sources: [(path: String, folder: String, code: String)] = []
        let prefix = root.standardizedFileURL.path + "/"
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            guard path.contains("/") else { continue }
            guard let folder = Self.folder(of: path, among: folders) else {
                unfiled.append(path)
                continue
            }
            sources.append((path, folder, Self.code(of: try String(contentsOf: url, encoding: .utf8))))
        }
        sources.sort { $0.path < $1.path }
        var owner: [Substring: String] = [:]
        for source in sources {
            for name in Self.declaredTypes(in: source.code) { owner[Substring(name)] = source.folder }
        }
        for source in sources {
            for name in Self.identifiers(in: source.code).sorted() {
                guard let other = owner[name], other != source.folder,
                      uses[source.folder]?[other] == nil else { continue }
                uses[source.folder, default: [:]][other] = "\(name) in \(source.path)"
            }
        }
        unfiled.sort()
    }

    /// The longest folder that `path` lies in, or nil.
    static func folder(of path: String, among folders: [String]) -> String? {
        folders.filter { path.hasPrefix($0 + "/") }.max { $0.count < $1.count }
    }

    /// Names of the top-level, non-private types declared in `code` (comments already removed).
    static func declaredTypes(in code: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        var names: [String] = []
        for line in code.split(separator: "\n", omittingEmptySubsequences: true) {
            // Top level: the declaration starts in column 0 (nested types are indented).
            guard let first = line.first, first.isLetter || first == "@" else { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" || $0 == "<" || $0 == "{" })
            guard let kindIndex = words.firstIndex(where: { kinds.contains($0) }), kindIndex + 1 < words.count else { continue }
            let modifiers = words[..<kindIndex]
            guard modifiers.allSatisfy({ $0.hasPrefix("@") || Self.modifiers.contains($0) }),
                  !modifiers.contains("private"), !modifiers.contains("fileprivate") else { continue }
            names.append(String(words[kindIndex + 1]))
        }
        return names
    }

    private static let modifiers: Set<Substring> = [
        "public", "package", "internal", "private", "fileprivate", "final", "indirect", "open", "nonisolated",
    ]

    /// Every identifier in `code`.
    static func identifiers(in code: String) -> Set<Substring> {
        var names = Set<Substring>()
        var start: String.Index?
        for index in code.indices {
            let character = code[index]
            let isPart = character == "_" || character.isLetter || character.isNumber
            if isPart, start == nil { start = index }
            if !isPart, let begin = start {
                if !code[begin].isNumber { names.insert(code[begin..<index]) }
                start = nil
            }
        }
        if let begin = start, !code[begin].isNumber { names.insert(code[begin...]) }
        return names
    }

    /// `source` with comments (nested block comments too) and string literal text replaced by
    /// spaces, keeping line breaks and the code inside string interpolations `\( … )`.
    static func code(of source: String) -> String {
        let characters = Array(source.unicodeScalars)
        var output = String.UnicodeScalarView()
        // Open string literals (innermost last): quote count (1 or 3) and raw-string `#` count,
        // and how many parentheses are open in the interpolation being read inside it.
        struct Literal { var quotes: Int; var hashes: Int; var interpolationDepth: Int }
        var literals: [Literal] = []
        var index = 0
        func starts(_ text: String, at position: Int) -> Bool {
            let scalars = Array(text.unicodeScalars)
            guard position + scalars.count <= characters.count else { return false }
            return Array(characters[position..<position + scalars.count]) == scalars
        }
        func blank(_ count: Int) {
            for offset in 0..<count where index + offset < characters.count {
                output.append(characters[index + offset] == "\n" ? "\n" : " ")
            }
            index += count
        }
        while index < characters.count {
            let inCode = literals.last.map { $0.interpolationDepth > 0 } ?? true
            if inCode {
                if starts("//", at: index) {
                    while index < characters.count && characters[index] != "\n" { blank(1) }
                } else if starts("/*", at: index) {
                    var depth = 0
                    repeat {
                        if starts("/*", at: index) { depth += 1; blank(2) }
                        else if starts("*/", at: index) { depth -= 1; blank(2) }
                        else { blank(1) }
                    } while depth > 0 && index < characters.count
                } else if characters[index] == "#" || characters[index] == "\"" {
                    var hashes = 0
                    while index + hashes < characters.count && characters[index + hashes] == "#" { hashes += 1 }
                    guard index + hashes < characters.count, characters[index + hashes] == "\"" else {
                        output.append(characters[index]); index += 1; continue
                    }
                    let quotes = starts("\"\"\"", at: index + hashes) ? 3 : 1
                    blank(hashes + quotes)
                    literals.append(Literal(quotes: quotes, hashes: hashes, interpolationDepth: 0))
                } else {
                    if var literal = literals.popLast() {
                        if characters[index] == "(" { literal.interpolationDepth += 1 }
                        if characters[index] == ")" { literal.interpolationDepth -= 1 }
                        literals.append(literal)
                        // The parenthesis that closes an interpolation belongs to the string.
                        if literal.interpolationDepth == 0 { blank(1); continue }
                    }
                    output.append(characters[index])
                    index += 1
                }
                continue
            }
            // Inside a literal's text.
            let literal = literals[literals.count - 1]
            let escape = "\\" + String(repeating: "#", count: literal.hashes)
            let closing = String(repeating: "\"", count: literal.quotes) + String(repeating: "#", count: literal.hashes)
            if starts(escape + "(", at: index) {
                blank(escape.unicodeScalars.count + 1)
                literals[literals.count - 1].interpolationDepth = 1
            } else if starts(escape, at: index) {
                blank(escape.unicodeScalars.count + 1)
            } else if starts(closing, at: index) {
                blank(closing.unicodeScalars.count)
                literals.removeLast()
            } else if literal.quotes == 1 && characters[index] == "\n" {
                literals.removeLast()  // An unterminated one-line literal ends at its line.
                blank(1)
            } else {
                blank(1)
            }
        }
        return String(output)
    }
}

/// docs/design.md's table of which folder may use which: one row per folder,
/// `| \`Folder/\` | what it holds | \`Other/\`, … or "model only" |`.
struct FolderTable {
    /// Folder (without its trailing slash) → the folders it may use.
    var allowed: [String: Set<String>] = [:]

    /// Reads the rows of the first table whose header starts with `| folder |`.
    init(markdown: String) {
        var inTable = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| folder |") { inTable = true; continue }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { if !allowed.isEmpty { break } else { continue } }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let folder = Self.folders(in: cells[1]).first else { continue }
            allowed[folder] = Set(Self.folders(in: cells[cells.count - 2]))
        }
    }

    /// The backquoted folder names (`` `Name/` ``, `` `A/B/` ``) in a cell, without the slash.
    static func folders(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.hasSuffix("/") && !$0.element.contains(" ") }
            .map { String($0.element.dropLast()) }
    }

    /// The groups of folders that use each other in a cycle (strongly connected components of
    /// two or more folders), each sorted, sorted by their first folder.
    func cycles() -> [[String]] {
        var index = [String: Int](), lowLink = [String: Int](), stack = [String](), onStack = Set<String>()
        var next = 0, components = [[String]]()
        func connect(_ folder: String) {
            index[folder] = next; lowLink[folder] = next; next += 1
            stack.append(folder); onStack.insert(folder)
            for other in allowed[folder, default: []].sorted() where allowed[other] != nil {
                if index[other] == nil {
                    connect(other)
                    lowLink[folder] = min(lowLink[folder]!, lowLink[other]!)
                } else if onStack.contains(other) {
                    lowLink[folder] = min(lowLink[folder]!, index[other]!)
                }
            }
            guard lowLink[folder] == index[folder] else { return }
            var component = [String]()
            while let top = stack.popLast() {
                onStack.remove(top)
                component.append(top)
                if top == folder { break }
            }
            if component.count > 1 { components.append(component.sorted()) }
        }
        for folder in allowed.keys.sorted() where index[folder] == nil { connect(folder) }
        return components.sorted { $0[0] < $1[0] }
    }

    /// Every way the table and the code disagree, one sentence each naming the folders.
    func disagreements(with dependencies: FolderDependencies) -> [String] {
        var problems = dependencies.unfiled.map { "\($0) is in a folder docs/design.md's table has no row for" }
        for (folder, used) in dependencies.uses.sorted(by: { $0.key < $1.key }) {
            for (other, example) in used.sorted(by: { $0.key < $1.key }) where !(allowed[folder]?.contains(other) ?? false) {
                problems.append("\(folder)/ uses \(other)/ (\(example)) but docs/design.md's table does not list it")
            }
        }
        for (folder, others) in allowed.sorted(by: { $0.key < $1.key }) {
            for other in others.sorted() where dependencies.uses[folder]?[other] == nil {
                problems.append("docs/design.md's table lets \(folder)/ use \(other)/, but no file of \(folder)/ does")
            }
        }
        return problems
    }
}

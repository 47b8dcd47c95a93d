import Foundation

/// The runnable code blocks of a Markdown file (README, docs/*.md, DocC articles), as the doc
/// tests see them. Which fences count and how a block is marked is written down in README.md,
/// "Tests": `sh`/`bash`/`shell` blocks are commands, `console` blocks are `$ ` commands followed
/// by the standard output they print, `swift` blocks are library snippets; an HTML comment
/// `<!-- doc-test: … -->` before a fence says what else to expect.
struct DocBlock: Equatable {
    /// One command of a shell or console block.
    struct Command: Equatable {
        /// The 1-based line of the Markdown file where the command starts.
        var line: Int
        /// The command as bash runs it (continuation lines joined).
        var text: String
        /// For console blocks, the standard output shown after the command (`...` stands for
        /// any number of lines); nil when none is shown.
        var expectedOutput: [String]?
    }

    /// The fence's language (first word of its info string), lowercased.
    var language: String
    /// The 1-based line of the opening fence.
    var line: Int
    /// The block's lines, without the fence's indentation.
    var body: [String]
    /// Shell commands (empty for other languages).
    var commands: [Command]
    /// The exit status every command must end with (`exit N`; default 0).
    var expectedStatus: Int32 = 0
    /// What the block needs: executables on PATH, paths (with a `/`) relative to the package
    /// root, `python3:module` for Python modules. Missing ones skip the block, saying why.
    var needs: [String] = []
    /// Why the block is not run at all (`skip: reason`), or nil.
    var skipReason: String?
    /// The step of .ci/run that runs the block (`ci NAME`: the README's set-up and tests,
    /// which install packages and build), or nil.
    var ciStep: String?

    /// Whether the block holds commands the doc test runs.
    var isShell: Bool { ["sh", "bash", "shell", "console"].contains(language) }

    /// A marker directive the test does not know, with its line: a typo must not silently
    /// turn a check off.
    struct BadMarker: Error, CustomStringConvertible {
        var line: Int
        var text: String
        var description: String { "line \(line): unknown doc-test directive '\(text)' (know: exit N; needs …; ci STEP; skip: reason)" }
    }

    /// The fenced blocks of `markdown`, in file order.
    static func blocks(in markdown: String) throws -> [DocBlock] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks = [DocBlock]()
        var pendingMarker: Marker?
        var index = 0
        while index < lines.count {
            let raw = lines[index]
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!-- doc-test:") && trimmed.hasSuffix("-->") {
                pendingMarker = try parseMarker(trimmed, line: index + 1)
                index += 1
                continue
            }
            guard let fence = fencePrefix(trimmed) else {
                index += 1
                continue
            }
            let indentation = raw.prefix { $0 == " " }.count
            let info = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
            let language = info.split(separator: " ").first.map { $0.lowercased() } ?? ""
            var body = [String]()
            var end = index + 1
            while end < lines.count {
                let candidate = lines[end].trimmingCharacters(in: .whitespaces)
                if candidate.hasPrefix(fence) && candidate.allSatisfy({ $0 == fence.first }) { break }
                body.append(String(lines[end].dropFirst(min(indentation, lines[end].prefix { $0 == " " }.count))))
                end += 1
            }
            var block = DocBlock(language: language, line: index + 1, body: body, commands: [])
            if let marker = pendingMarker {
                block.expectedStatus = marker.status
                block.needs = marker.needs
                block.skipReason = marker.skip
                block.ciStep = marker.ciStep
                pendingMarker = nil
            }
            block.commands = language == "console"
                ? consoleCommands(body, firstLine: index + 2)
                : (block.isShell ? shellCommands(body, firstLine: index + 2) : [])
            blocks.append(block)
            index = end + 1
        }
        return blocks
    }

    /// "```" or "~~~" (or longer) when the line opens or closes a fence.
    private static func fencePrefix(_ line: String) -> String? {
        for mark in ["`", "~"] where line.hasPrefix(String(repeating: mark, count: 3)) {
            return String(line.prefix { String($0) == mark })
        }
        return nil
    }

    /// What a marker says.
    private struct Marker {
        var status: Int32 = 0
        var needs: [String] = []
        var skip: String?
        var ciStep: String?
    }

    private static func parseMarker(_ text: String, line: Int) throws -> Marker {
        let content = text.dropFirst("<!-- doc-test:".count).dropLast("-->".count)
        var marker = Marker()
        // `skip:` takes the rest of the marker as its reason (which may hold ";").
        var directives = String(content)
        if let skip = directives.range(of: "skip:") {
            marker.skip = directives[skip.upperBound...].trimmingCharacters(in: .whitespaces)
            directives = String(directives[..<skip.lowerBound])
        }
        for part in directives.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            if part.hasPrefix("exit "), let status = Int32(part.dropFirst("exit ".count)) {
                marker.status = status
            } else if part.hasPrefix("ci "), !part.dropFirst("ci ".count).contains(" ") {
                marker.ciStep = String(part.dropFirst("ci ".count))
            } else if part.hasPrefix("needs ") {
                marker.needs += part.dropFirst("needs ".count).split(separator: " ").map(String.init)
            } else {
                throw BadMarker(line: line, text: part)
            }
        }
        return marker
    }

    /// Logical lines of a shell block: comments and blank lines left out, `\` continuations joined.
    private static func shellCommands(_ body: [String], firstLine: Int) -> [Command] {
        var commands = [Command]()
        var current: Command?
        for (offset, line) in body.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil && (trimmed.isEmpty || trimmed.hasPrefix("#")) { continue }
            var command = current ?? Command(line: firstLine + offset, text: "")
            if trimmed.hasSuffix("\\") {
                command.text += trimmed.dropLast().trimmingCharacters(in: .whitespaces) + " "
                current = command
            } else {
                command.text += trimmed
                commands.append(command)
                current = nil
            }
        }
        if let current { commands.append(current) }
        return commands
    }

    /// `$ ` lines of a console block, each with the output lines that follow it.
    private static func consoleCommands(_ body: [String], firstLine: Int) -> [Command] {
        var commands = [Command]()
        for (offset, line) in body.enumerated() {
            if line.hasPrefix("$ ") {
                commands.append(Command(line: firstLine + offset, text: String(line.dropFirst(2)), expectedOutput: nil))
            } else if !commands.isEmpty {
                commands[commands.count - 1].expectedOutput = (commands[commands.count - 1].expectedOutput ?? []) + [line]
            }
        }
        return commands
    }

    /// Whether `actual` output lines match `expected`, where an expected line `...` stands for
    /// any number of lines (including none).
    static func output(_ actual: [String], matches expected: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            let rest = Array(expected.dropFirst())
            return (0...actual.count).contains { output(Array(actual.dropFirst($0)), matches: rest) }
        }
        guard let head = actual.first, head == first else { return false }
        return output(Array(actual.dropFirst()), matches: Array(expected.dropFirst()))
    }
}

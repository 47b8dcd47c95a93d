import Foundation
import OverlayModel

extension DiffReport {
    /// The Markdown report for a pull-request comment: a heading with the summary, then one
    /// table per class that has changes (feature, place, what changed), each capped at
    /// `rowsPerClass` rows with a count of the rest.
    static func markdown(_ result: DiffResult, rowsPerClass: Int) -> String {
        let summary = result.summary
        var text = "### overlaykit diff: `\(result.oldName ?? "stdin")` → `\(result.newName ?? "stdin")`\n\n"
        if summary.changes == 0 {
            return text + "No changes (\(summary.unchanged) features the same).\n"
        }
        let counts = FeatureChange.Kind.allCases.filter { summary.count($0) > 0 }.map { "\(summary.count($0)) \($0.rawValue)" }
        text += "**\(summary.changes) change\(summary.changes == 1 ? "" : "s")**: \(counts.joined(separator: ", ")); \(summary.unchanged) unchanged.\n"
        for kind in FeatureChange.Kind.allCases {
            let changes = result.changes(kind)
            guard !changes.isEmpty else { continue }
            text += "\n#### \(kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()) (\(changes.count))\n\n"
            text += "| feature | where | what |\n|---|---|---|\n"
            for change in changes.prefix(max(0, rowsPerClass)) {
                let place = change.location.map { "`\($0)`" + ($0.documentPath.flatMap { $0.isEmpty ? nil : " `\($0)`" } ?? "") } ?? ""
                text += "| \(cell(name(change))) | \(cell(place)) | \(cell(what(change))) |\n"
            }
            if changes.count > rowsPerClass { text += "\n… and \(changes.count - max(0, rowsPerClass)) more \(kind.rawValue).\n" }
        }
        return text
    }

    /// A change's description without its class and name.
    private static func what(_ change: FeatureChange) -> String {
        let full = describe(change), prefix = change.kind.rawValue + " " + name(change)
        var rest = full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
        if rest.hasPrefix(": ") { rest.removeFirst(2) }
        if rest.hasPrefix(" (") && rest.hasSuffix(")") { rest = String(rest.dropFirst(2).dropLast()) }
        return rest
    }

    /// Text safe in a table cell: pipes escaped, line breaks as spaces.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}

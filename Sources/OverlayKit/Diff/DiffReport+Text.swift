import OverlayModel

extension DiffReport {
    /// The text report: the two inputs with their feature counts and the summary (as
    /// `git diff --stat` opens), then one `file:line:col: change … (path)` line per change.
    static func text(_ result: DiffResult) -> String {
        let summary = result.summary
        var text = "--- \(result.oldName ?? "<stdin>") (\(summary.oldFeatures) features)\n"
        text += "+++ \(result.newName ?? "<stdin>") (\(summary.newFeatures) features)\n"
        text += summaryLine(summary) + "\n"
        for change in result.changes {
            if let location = change.location { text += "\(location): " }
            text += describe(change)
            if let path = change.location?.documentPath, !path.isEmpty { text += " (\(path))" }
            text += "\n"
        }
        return text
    }
}

import OverlayModel

/// Formats a diff: `text` (a summary, then one `file:line:col` line per change), `json`
/// (`Schemas/diff-report.schema.json`), `sarif` (SARIF 2.1.0, for code scanning on a pull
/// request) and `markdown` (a table per class for a pull-request comment). Deterministic: the
/// same result gives the same bytes.
public enum DiffReport {
    /// The output formats of `overlaykit diff --format`.
    public enum Format: String, CaseIterable, Sendable {
        /// A summary and one line per change, for people and editors.
        case text
        /// One JSON object following `Schemas/diff-report.schema.json`, for scripts.
        case json
        /// SARIF 2.1.0, for GitHub code scanning.
        case sarif
        /// Markdown tables, for a pull-request comment.
        case markdown
    }

    /// `result` in `format`; `markdownRows` caps each Markdown table (the rest are counted).
    public static func render(_ result: DiffResult, as format: Format, markdownRows: Int = 50) -> String {
        switch format {
        case .text: text(result)
        case .json: json(result)
        case .sarif: sarif(result)
        case .markdown: markdown(result, rowsPerClass: markdownRows)
        }
    }

    /// `3 changes: 1 added, 1 removed, 1 modified, 0 moved; 97 unchanged`.
    public static func summaryLine(_ summary: DiffSummary) -> String {
        let classes = FeatureChange.Kind.allCases.map { "\(summary.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        return "\(summary.changes) change\(summary.changes == 1 ? "" : "s"): \(classes); \(summary.unchanged) unchanged"
    }

    /// What a change is, in one line without its place: `modified tiergarten: geometry moved
    /// 12.3 m, area +1,200 m²; properties: name "A" → "B"`.
    public static func describe(_ change: FeatureChange) -> String {
        var text = change.kind.rawValue + " " + name(change)
        switch change.kind {
        case .added, .removed:
            if let feature = change.new ?? change.old { text += " (" + shapeSummary(feature.shape) + ")" }
        case .modified, .moved:
            var parts: [String] = []
            if let geometry = change.geometry { parts.append("geometry " + describe(geometry)) }
            if !change.properties.isEmpty { parts.append("properties " + change.properties.map(describe).joined(separator: ", ")) }
            if !change.style.isEmpty { parts.append("style " + change.style.map(describe).joined(separator: ", ")) }
            if let folders = change.folders { parts.append("folder " + folderName(folders.old) + " → " + folderName(folders.new)) }
            text += ": " + parts.joined(separator: "; ")
        }
        return text
    }

    /// The key value or id, quoted when it would read as words; `(no id)` for content matches.
    static func name(_ change: FeatureChange) -> String {
        guard let label = change.label else {
            let name = (change.new ?? change.old)?.properties?["name"]?.stringValue
            return name.map { "feature named \(jsonText(.string($0)))" } ?? "feature without id"
        }
        return label.contains(" ") || label.isEmpty ? jsonText(.string(label)) : label
    }

    /// `polygon, 5 vertices` (or `no geometry`).
    static func shapeSummary(_ shape: Shape?) -> String {
        guard let shape else { return "no geometry" }
        return "\(shape.kind.rawValue), \(shape.vertexCount) \(shape.vertexCount == 1 ? "vertex" : "vertices")"
    }

    /// `moved 12.3 m, area +1200 m², 5 → 6 vertices`.
    static func describe(_ geometry: GeometryChange) -> String {
        var parts: [String] = []
        if geometry.oldKind != geometry.newKind {
            parts.append("\(geometry.oldKind?.rawValue ?? "none") → \(geometry.newKind?.rawValue ?? "none")")
        } else {
            parts.append("moved \(metres(geometry.hausdorffMetres)) m")
        }
        if geometry.areaChange != 0 { parts.append("area \(signed(geometry.areaChange)) m²") }
        if geometry.lengthChange != 0 { parts.append("length \(signed(geometry.lengthChange)) m") }
        if geometry.oldVertices != geometry.newVertices { parts.append("\(geometry.oldVertices) → \(geometry.newVertices) vertices") }
        return parts.joined(separator: ", ")
    }

    /// `name "A" → "B"`, `+height 12`, `-note "x"`.
    static func describe(_ change: ValueChange) -> String {
        switch (change.old, change.new) {
        case (nil, let new?): "+\(change.key) \(jsonText(new))"
        case (let old?, nil): "-\(change.key) \(jsonText(old))"
        case (let old?, let new?): "\(change.key) \(jsonText(old)) → \(jsonText(new))"
        case (nil, nil): change.key
        }
    }

    static func folderName(_ path: [String]) -> String { path.isEmpty ? "(top level)" : path.joined(separator: "/") }

    /// A value as compact JSON, numbers with the fewest digits.
    static func jsonText(_ value: JSONValue) -> String {
        var bytes = JSONBytes(capacity: 64)
        bytes.appendValue(value)
        return String(decoding: bytes.bytes, as: UTF8.self)
    }

    /// Metres to 0.1 m below 100 m, whole metres above.
    static func metres(_ value: Double) -> String {
        value < 100 ? String((value * 10).rounded() / 10) : String(Int64(value.rounded()))
    }

    /// A signed whole number (`+1200`, `-35`), or one decimal below 10.
    static func signed(_ value: Double) -> String {
        let magnitude = abs(value)
        let digits = magnitude < 10 ? String((magnitude * 10).rounded() / 10) : String(Int64(magnitude.rounded()))
        return (value < 0 ? "-" : "+") + digits
    }
}

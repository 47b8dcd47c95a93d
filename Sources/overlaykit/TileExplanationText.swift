import OverlayKit
import OverlayModel

/// `tile --explain`'s report: the tile's sizes against its budget, a count per outcome with what
/// it means, and up to `perOutcome` features of each, by input position, id and name.
struct TileExplanationText {
    let explanation: TileExplanation
    var perOutcome = 10

    init(_ explanation: TileExplanation) { self.explanation = explanation }

    static let meanings: [TileExplanation.Outcome: String] = [
        .kept: "written (clipped and simplified for the zoom)",
        .thinned: "not drawn at this zoom: points thinned by --drop-rate below the base zoom",
        .outsideZoomRange: "outside the feature's own tippecanoe minzoom/maxzoom",
        .filteredAtZoom: "--where (naming $zoom) does not hold at this zoom",
        .drawnAsStandIn: "too small to draw; drawn as a stand-in square or short line holding the added-up size",
        .tooSmall: "too small to draw; its size was added up into a stand-in drawn elsewhere in the tile",
        .degenerate: "fewer than 4 points (rings) or 2 (lines), or no area, even at full detail",
        .clustered: "merged into a cluster point (--cluster-distance)",
        .droppedForBudget: "dropped to keep the tile within --max-tile-bytes / --max-tile-features",
        .coalescedForBudget: "merged into a neighbour to keep the tile within its budget",
    ]

    var text: String {
        let tile = explanation.tile
        let budget = explanation.budget
        var lines = ["tile \(tile.z)/\(tile.x)/\(tile.y) (max zoom \(explanation.maxZoom)): \(explanation.entries.count) input feature parts reach it",
                     "written: \(explanation.writtenFeatures) features, \(explanation.encodedBytes) bytes, "
                        + "\(explanation.compressedBytes) gzip (budget: \(budget.maxBytes.map { "\($0) bytes" } ?? "no byte limit"), "
                        + "\(budget.maxFeatures.map { "\($0) features" } ?? "no feature limit"), \(budget.strategy.rawValue))"]
        if explanation.statistics.clusters > 0 {
            lines.append("clusters: \(explanation.statistics.clusters) standing for \(explanation.statistics.clusteredPoints) points")
        }
        let counts = explanation.counts
        for outcome in TileExplanation.Outcome.allCases {
            guard let count = counts[outcome] else { continue }
            lines.append("")
            lines.append("\(outcome.rawValue): \(count) — \(Self.meanings[outcome] ?? "")")
            for entry in explanation.entries.lazy.filter({ $0.outcome == outcome }).prefix(perOutcome) {
                var description = "  #\(entry.inputIndex)"
                if let id = entry.attributes.id { description += " id=\(Self.short(id))" }
                if let name = entry.attributes.properties?["name"] ?? entry.attributes.properties?["NAME"] {
                    description += " name=\(Self.short(name))"
                }
                lines.append(description)
            }
            if count > perOutcome { lines.append("  … and \(count - perOutcome) more") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func short(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text.count > 40 ? String(text.prefix(40)) + "…" : text
        case .integer(let number): return "\(number)"
        case .number(let number): return "\(number)"
        case .bool(let flag): return "\(flag)"
        case .null: return "null"
        case .array, .object: return "…"
        }
    }
}

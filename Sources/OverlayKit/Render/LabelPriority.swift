import OverlayModel

/// How important a point's label is (MapKit's `displayPriority`), read from a feature property
/// (`RenderOptions.labelPriority`, `--label-priority`): labels are placed from the most
/// important down, and one that would overlap a label already placed is left out. Numbers
/// compare as numbers, strings in Unicode order (so `"M 7.1 …"` ranks above `"M 5.9 …"`); a
/// number ranks above any string, and a missing property, `null`, a boolean, an array or an
/// object ranks below both. Equal priorities keep input order.
struct LabelPriority: Sendable {
    private enum Rank: Int8 { case none = 0, text = 1, number = 2 }

    private let rank: Rank
    private let number: Double
    private let text: String

    /// The priority of every label when no property is named: all equal, so input order decides.
    static let inputOrder = LabelPriority(rank: .none, number: 0, text: "")

    private init(rank: Rank, number: Double, text: String) {
        self.rank = rank
        self.number = number
        self.text = text
    }

    /// The priority the property `key` gives `feature` (`inputOrder` for nil).
    init(of feature: Feature, key: String?) {
        guard let key, let value = feature.properties?[key] else {
            self = .inputOrder
            return
        }
        switch value {
        case .integer, .number:
            self.init(rank: .number, number: value.doubleValue ?? 0, text: "")
        case .string(let text):
            self.init(rank: .text, number: 0, text: text)
        default:
            self = .inputOrder
        }
    }

    /// True when a label of this priority is placed before one of `other`'s (input order breaks
    /// ties, so this is false for equal priorities).
    func placedBefore(_ other: LabelPriority) -> Bool {
        if rank != other.rank { return rank.rawValue > other.rank.rawValue }
        switch rank {
        case .none: return false
        case .number: return number > other.number
        case .text: return text > other.text
        }
    }
}

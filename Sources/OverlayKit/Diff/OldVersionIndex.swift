import OverlayModel

/// The old version as `diff` holds it while reading the new one: per feature its identity's
/// 128-bit digest and the hashes of its four parts, never the feature. About 60 bytes a
/// feature (a million features: ~60 MB with the table); a feature without id or key also
/// joins two chains, by geometry and by attributes (properties and style), so an edited one
/// can still be paired with its new version (`matchEdited`).
struct OldVersionIndex {
    /// The old features of one identity not yet matched, as a chain through `next`.
    private struct Chain {
        var first: Int32
        var last: Int32
    }

    private var chains: [Digest128: Chain] = [:]
    private var next: [Int32] = []
    /// Features without id or key by geometry hash, then by properties-and-style hash.
    private var byGeometry = SecondaryChains(), byAttributes = SecondaryChains()
    private var digests: [ComparableFeature.Digest] = []
    /// Whether each old feature (by ordinal) has a counterpart in the new version.
    private(set) var matched: [Bool] = []

    /// Old features indexed.
    var count: Int { digests.count }

    /// Adds the next old feature.
    mutating func add(_ feature: ComparableFeature) {
        let ordinal = Int32(truncatingIfNeeded: digests.count)
        digests.append(feature.digest)
        next.append(-1)
        matched.append(false)
        let key = feature.identity.digest
        if let chain = chains[key] {
            next[Int(chain.last)] = ordinal
            chains[key] = Chain(first: chain.first, last: ordinal)
        } else {
            chains[key] = Chain(first: ordinal, last: ordinal)
        }
        if case .content = feature.identity {
            byGeometry.add(ordinal, key: feature.digest.geometry)
            byAttributes.add(ordinal, key: feature.attributesDigest)
        }
    }

    /// Pairs a new feature without id or key that matched nothing with the first unmatched
    /// old feature without id or key of the same geometry, else of the same properties and
    /// style: one edit of a feature without an id is a modification, not a removal and an
    /// addition. Returns the old ordinal.
    mutating func matchEdited(_ feature: ComparableFeature) -> Int? {
        guard case .content = feature.identity else { return nil }
        let found = byGeometry.takeFirst(key: feature.digest.geometry, skipping: matched)
            ?? byAttributes.takeFirst(key: feature.attributesDigest, skipping: matched)
        if let found { matched[found] = true }
        return found
    }

    /// The outcome of looking a new feature up.
    enum Match {
        /// No unmatched old feature has its identity.
        case none
        /// The old feature of this ordinal, the same in every part.
        case same(Int)
        /// The old feature of this ordinal, different in some part.
        case different(Int)
    }

    /// Matches `feature` with the first unmatched old feature of its identity, in file order
    /// (so duplicates pair up in order).
    mutating func match(_ feature: ComparableFeature) -> Match {
        let key = feature.identity.digest
        guard let chain = chains[key] else { return .none }
        let ordinal = Int(chain.first)
        let following = next[ordinal]
        chains[key] = following < 0 ? nil : Chain(first: following, last: chain.last)
        matched[ordinal] = true
        return digests[ordinal] == feature.digest ? .same(ordinal) : .different(ordinal)
    }
}

/// Ordinals chained by one hash, taken from the front in file order.
private struct SecondaryChains {
    private var heads: [Int: Int32] = [:]
    private var tails: [Int: Int32] = [:]
    private var next: [Int32] = []

    /// Chains `ordinal` (the next ordinal of the index) under `key`.
    mutating func add(_ ordinal: Int32, key: Int) {
        while next.count <= Int(ordinal) { next.append(-1) }
        if let tail = tails[key] { next[Int(tail)] = ordinal } else { heads[key] = ordinal }
        tails[key] = ordinal
    }

    /// The first ordinal under `key` not yet matched; matched ones met on the way are dropped
    /// from the chain, so each is passed over once in all.
    mutating func takeFirst(key: Int, skipping matched: [Bool]) -> Int? {
        guard var ordinal = heads[key] else { return nil }
        while ordinal >= 0, matched[Int(ordinal)] { ordinal = next[Int(ordinal)] }
        guard ordinal >= 0 else {
            heads[key] = nil
            tails[key] = nil
            return nil
        }
        let following = next[Int(ordinal)]
        if following < 0 {
            heads[key] = nil
            tails[key] = nil
        } else {
            heads[key] = following
        }
        return Int(ordinal)
    }
}

/// The ids the KML writer makes up — shared `Style`s `s1`, `s2`, …, `StyleMap`s `m1`, …,
/// `Schema`s `p1`, … — kept apart from every id the features bring, so the document never holds
/// one `xs:ID` twice (the OGC schema rejects that; docs/kml.md "Writing").
///
/// The features' ids are only all known at the end, after the placemarks naming the made-up
/// ids have been spooled. So placemarks name them by a placeholder byte (0x01 style, 0x02
/// StyleMap, 0x03 Schema, then the number; the writer escapes every control character, so
/// these bytes occur nowhere else), and the body is copied with each placeholder replaced by
/// the first prefix of `s`, `s_`, `s__`, … (likewise `m`, `p`) whose ids are all free.
/// Feature ids are kept as 64-bit hashes (`KMLIDSet`), 8 bytes each.
struct KMLGeneratedIDs {
    /// What a made-up id names; the raw value is its placeholder byte.
    enum Kind: UInt8, CaseIterable {
        case style = 1, styleMap = 2, schema = 3

        /// The prefix used when no feature id is in the way.
        var base: String {
            switch self {
            case .style: "s"
            case .styleMap: "m"
            case .schema: "p"
            }
        }
    }

    private var featureIDs = KMLIDSet()

    /// Records a feature's id; false when an earlier feature already had it.
    mutating func claim(_ id: String) -> Bool {
        guard !featureIDs.contains(id) else { return false }
        featureIDs.insert(id)
        return true
    }

    /// The prefix for `count` ids of `kind`: the base, with as few `_` after it as keep every
    /// id `prefix1` … `prefix<count>` clear of the features' ids. Ends: each prefix rejected
    /// is in the way of at least one distinct feature id.
    func prefix(for kind: Kind, count: Int) -> String {
        var prefix = kind.base
        while (1...max(count, 1)).contains(where: { featureIDs.contains(prefix + String($0)) }) { prefix += "_" }
        return prefix
    }

    /// Copies `chunk` through `write` with each placeholder byte replaced by its prefix
    /// (indexed by `Kind.rawValue`). Chunks without placeholders go through untouched.
    static func copy(_ chunk: UnsafeRawBufferPointer, prefixes: [[UInt8]], write: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard chunk.contains(where: { $0 >= 1 && $0 <= 3 }) else { return try write(chunk) }
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count + 1024)
        for byte in chunk {
            if byte >= 1 && byte <= 3 { out += prefixes[Int(byte)] } else { out.append(byte) }
        }
        try out.withUnsafeBytes { try write($0) }
    }
}

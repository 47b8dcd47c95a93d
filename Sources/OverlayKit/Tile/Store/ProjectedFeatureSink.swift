import OverlayModel

/// Where projected features go instead of memory, one input feature at a time: its pieces
/// (already copied across the antimeridian, in the order west copies, feature, east copies),
/// its tags and id and properties (`AttributeCodec` bytes), and its anchor.
protocol ProjectedFeatureSink: AnyObject {
    func write(_ pieces: AntimeridianWrap.Pieces, source: Int, tags: FeatureTags, attributes: [UInt8],
               anchor: (key: UInt64, pointsOnly: Bool)?) throws
}

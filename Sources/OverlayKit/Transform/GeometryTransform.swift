import OverlayModel

/// Clip then simplify, one feature at a time (what `convert --clip/--zoom` runs), counting
/// everything it removes so the caller can report it.
public struct GeometryTransform: Sendable {
    /// The clip to apply first, if any.
    public var clip: RectClip?
    /// The simplifier to apply after clipping, if any.
    public var simplifier: ShapeSimplifier?
    /// What clipping removed so far.
    public private(set) var clipCounts = RectClip.Counts()
    /// What simplification removed so far.
    public private(set) var simplifyCounts = ShapeSimplifier.Counts()
    /// Features not written because nothing of their shape was left.
    public private(set) var droppedFeatures = 0

    /// A transform that clips (when `clip` is set) and then simplifies (when `simplifier` is set).
    public init(clip: RectClip?, simplifier: ShapeSimplifier?) {
        self.clip = clip
        self.simplifier = simplifier
    }

    /// The feature with its shape clipped and simplified, or nil when nothing is left.
    /// Features without a shape pass through.
    public mutating func apply(_ feature: Feature) -> Feature? {
        guard var shape = feature.shape else { return feature }
        if let clip {
            guard let clipped = clip.clip(shape, counts: &clipCounts) else {
                droppedFeatures += 1
                return nil
            }
            shape = clipped
        }
        if let simplifier {
            guard let simplified = simplifier.simplify(shape, counts: &simplifyCounts) else {
                droppedFeatures += 1
                return nil
            }
            shape = simplified
        }
        var result = feature
        result.shape = shape
        return result
    }

    /// A note saying what was removed, or nil when nothing was.
    public var summary: Diagnostic? {
        var parts = [String]()
        if clip != nil && (clipCounts.shapesOutside > 0 || clipCounts.droppedRings > 0 || clipCounts.circlesAsPolygons > 0) {
            parts.append("clip: \(clipCounts.shapesOutside) shapes outside the rect, \(clipCounts.droppedRings) rings "
                + "degenerate after clipping, \(clipCounts.circlesAsPolygons) cut circles written as polygons")
        }
        if simplifier != nil && (simplifyCounts.droppedRings > 0 || simplifyCounts.droppedLines > 0 || simplifyCounts.repairedRings > 0) {
            parts.append("simplify: \(simplifyCounts.droppedRings) rings and \(simplifyCounts.droppedLines) lines smaller "
                + "than the tolerance dropped, \(simplifyCounts.repairedRings) rings simplified less to stay valid "
                + "(\(simplifyCounts.verticesIn) → \(simplifyCounts.verticesOut) vertices)")
        }
        guard !parts.isEmpty || droppedFeatures > 0 else { return nil }
        return Diagnostic(.note, code: .convertGeometry,
                          message: "\(droppedFeatures) features left empty and not written; " + parts.joined(separator: "; "))
    }
}

import OverlayModel

/// Clip then simplify, one feature at a time (what `convert --clip/--zoom` runs), counting
/// everything it removes so the caller can report it.
public struct GeometryTransform: Sendable {
    /// The clip to apply first, if any.
    public var clip: RectClip?
    /// The simplifier to apply after clipping, if any.
    public var simplifier: ShapeSimplifier?
    /// Simplifies every feature's polygons together instead, keeping shared borders shared
    /// (only through `apply(all:)`, which needs every feature at once).
    public var sharedBorders: SharedBorderSimplifier?
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

    /// Every feature clipped, then simplified: together with `sharedBorders` when it is set,
    /// else one at a time as `apply(_:)`. Features with nothing left are not returned.
    public mutating func apply(all features: [Feature]) -> [Feature] {
        guard let sharedBorders else { return features.compactMap { apply($0) } }
        var clipped = [Feature]()
        clipped.reserveCapacity(features.count)
        for feature in features {
            guard let clip, let shape = feature.shape else {
                clipped.append(feature)
                continue
            }
            guard let shape = clip.clip(shape, counts: &clipCounts) else {
                droppedFeatures += 1
                continue
            }
            var result = feature
            result.shape = shape
            clipped.append(result)
        }
        var output = [Feature]()
        for simplified in sharedBorders.simplify(clipped, counts: &simplifyCounts) {
            if let simplified { output.append(simplified) } else { droppedFeatures += 1 }
        }
        return output
    }

    /// A note saying what was removed, or nil when nothing was.
    public var summary: Diagnostic? {
        var parts = [String]()
        if clip != nil && (clipCounts.shapesOutside > 0 || clipCounts.droppedRings > 0 || clipCounts.circlesAsPolygons > 0) {
            parts.append("clip: \(clipCounts.shapesOutside) shapes outside the rect, \(clipCounts.droppedRings) rings "
                + "degenerate after clipping, \(clipCounts.circlesAsPolygons) cut circles written as polygons")
        }
        if (simplifier != nil || sharedBorders != nil) && (simplifyCounts.droppedRings > 0 || simplifyCounts.droppedLines > 0 || simplifyCounts.repairedRings > 0) {
            parts.append("simplify: \(simplifyCounts.droppedRings) rings and \(simplifyCounts.droppedLines) lines smaller "
                + "than the tolerance dropped, \(simplifyCounts.repairedRings) rings simplified less to stay valid "
                + "(\(simplifyCounts.verticesIn) → \(simplifyCounts.verticesOut) vertices)")
        }
        guard !parts.isEmpty || droppedFeatures > 0 else { return nil }
        return Diagnostic(.note, code: .convertGeometry,
                          message: "\(droppedFeatures) features left empty and not written; " + parts.joined(separator: "; "))
    }
}

import OverlayModel

/// What changed between the two versions of one matched feature: geometry beyond the
/// tolerance (Hausdorff metres, area and length change), properties, style, folders.
enum FeatureComparison {
    /// The change from `old` to `new`, or nil when they are the same under `options`: a
    /// geometry that moved no farther than `options.tolerance` (when it is above 0) is the same.
    static func change(label: String?, old: Feature, new: Feature, options: DiffOptions) -> FeatureChange? {
        let before = ComparableFeature(old, options: options), after = ComparableFeature(new, options: options)
        var change = FeatureChange(kind: .modified, label: label, old: old, new: new)
        if before.geometry != after.geometry {
            let distance: Double
            if let oldShape = old.shape, let newShape = new.shape {
                distance = HausdorffDistance.metres(oldShape, newShape)
            } else {
                distance = .infinity  // a geometry gained or lost
            }
            let kindChanged = old.shape?.kind != new.shape?.kind
            if options.tolerance == 0 || distance > options.tolerance || kindChanged {
                let oldMeasures = GeometryMeasures(old.shape), newMeasures = GeometryMeasures(new.shape)
                change.geometry = GeometryChange(
                    hausdorffMetres: distance.isFinite ? distance : 0,
                    areaChange: newMeasures.area - oldMeasures.area, lengthChange: newMeasures.length - oldMeasures.length,
                    oldKind: old.shape?.kind, newKind: new.shape?.kind,
                    oldVertices: old.shape?.vertexCount ?? 0, newVertices: new.shape?.vertexCount ?? 0)
            }
        }
        change.properties = ValueChange.changes(from: before.properties, to: after.properties)
        change.style = ValueChange.changes(from: before.style, to: after.style)
        if before.folders != after.folders { change.folders = FolderChange(old: before.folders, new: after.folders) }
        let modified = change.geometry != nil || !change.properties.isEmpty || !change.style.isEmpty
        if !modified {
            guard change.folders != nil else { return nil }
            change.kind = .moved
        }
        return change
    }
}

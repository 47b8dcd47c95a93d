import OverlayModel

/// The two versions drawn in one picture with `render`'s camera and renderer: added features
/// in green, removed in red, a modified feature's old version dashed and its new one solid in
/// orange (a moved one in orange too), and a legend of three labelled pins in the lower left.
/// Unchanged features are not drawn. The camera fits the changes unless the options fix it.
public struct DiffPicture {
    /// Added features.
    public static let addedColor = RGBAColor(red: 0x1e, green: 0xa0, blue: 0x3c)
    /// Removed features.
    public static let removedColor = RGBAColor(red: 0xdc, green: 0x1e, blue: 0x1e)
    /// Modified and moved features, old and new.
    public static let modifiedColor = RGBAColor(red: 0xff, green: 0x8c, blue: 0x00)

    /// Size, camera (fitted to the changes by default) and background; bearing and pitch are
    /// used as given, the legend assumes neither.
    public var options: RenderOptions

    /// A picture with these options.
    public init(options: RenderOptions = RenderOptions()) { self.options = options }

    /// The changes as features styled in their class's colour, old versions first.
    public static func features(for result: DiffResult) -> [Feature] {
        var below: [Feature] = [], above: [Feature] = []
        for change in result.changes {
            switch change.kind {
            case .added: if let new = change.new { above.append(styled(new, addedColor, dashed: false)) }
            case .removed: if let old = change.old { below.append(styled(old, removedColor, dashed: false)) }
            case .modified, .moved:
                if change.kind == .modified, let old = change.old { below.append(styled(old, modifiedColor, dashed: true)) }
                if let new = change.new { above.append(styled(new, modifiedColor, dashed: false)) }
            }
        }
        return below + above
    }

    /// Draws `result` into `output` (PNG or SVG) and commits it.
    /// - Throws: `render.bad-option`, `render.view-too-small` (usage), `render.cairo-failed`,
    ///   the output's write errors.
    public func render(_ result: DiffResult, to output: ByteOutput, format: SnapshotStream.Format) throws -> RenderReport {
        try options.validate()
        var features = Self.features(for: result)
        var fixed = options
        let camera = if case .fit = options.camera, features.isEmpty {
            options.resolveCamera(fitting: MapRect(west: -180, south: -60, east: 180, north: 75))
        } else {
            options.resolveCamera(for: features)
        }
        fixed.camera = .centered(camera.center, zoom: camera.zoom)
        features += legend(camera: camera)
        var source = FeatureArraySource(features)
        return try MapRenderer(options: fixed, format: format).render(&source, to: output)
    }

    /// Three pins with their class as label, 24 points apart, in the lower left.
    private func legend(camera: RenderCamera) -> [Feature] {
        let perPoint = Zoom.mapPointsPerScreenPoint(atZoom: camera.zoom)
        let center = camera.centerPoint
        let entries: [(String, RGBAColor)] = [("added", Self.addedColor), ("removed", Self.removedColor), ("modified", Self.modifiedColor)]
        return entries.enumerated().map { index, entry in
            let x = center.x + (20 - Double(options.width) / 2) * perPoint
            let y = center.y + (Double(options.height) / 2 - 28 - Double(entries.count - 1 - index) * 24) * perPoint
            let coordinate = Coordinate(MapPoint(x: x, y: y))
            return Feature(properties: ["name": .string(entry.0)],
                           shape: .annotation(PointAnnotation(coordinate: coordinate, title: entry.0)),
                           style: Style(icon: IconStyle(color: entry.1), label: LabelStyle(color: RGBAColor(red: 0x20, green: 0x20, blue: 0x20))))
        }
    }

    /// `feature` drawn in `color`: lines 3 points wide, polygons filled at 35 % (15 % for an
    /// old version, which is dashed), pins in the colour; no label, no other style.
    private static func styled(_ feature: Feature, _ color: RGBAColor, dashed: Bool) -> Feature {
        var feature = feature
        feature.properties = JSONObject()
        feature.style = Style(strokeColor: color, strokeWidth: 3, lineDash: dashed ? [6, 4] : nil,
                              fillColor: color.withOpacity(dashed ? 0.15 : 0.35), icon: IconStyle(color: color))
        feature.highlightStyle = nil
        feature.level = .aboveLabels
        feature.shape = feature.shape.map(untitled)
        return feature
    }

    private static func untitled(_ shape: Shape) -> Shape {
        switch shape {
        case .annotation(var annotation):
            annotation.title = nil
            annotation.subtitle = nil
            return .annotation(annotation)
        case .collection(let collection):
            return .collection(ShapeCollection(members: collection.members.map(untitled), origin: collection.origin))
        default:
            return shape
        }
    }
}

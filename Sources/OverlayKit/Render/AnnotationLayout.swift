#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// One point annotation's device position and look, as `FeatureMarker` hands it over.
struct PointMark: Sendable {
    var x: Double
    var y: Double
    var color: RGBAColor
    /// Device pixels per pin unit.
    var size: Double
    /// The title drawn beside the pin, if any.
    var label: String?
    var labelColor: RGBAColor
    /// Label font size in device pixels.
    var fontSize: Double
}

/// Measures text as it will be drawn (cairo's advance width), so labels are placed in the boxes
/// the backends then draw them in.
protocol TextMeasuring {
    /// The advance width in device pixels of `text` at `fontSize` device pixels.
    func advance(of text: String, fontSize: Double, bold: Bool) -> Double
}

/// Decides what of the point annotations is drawn, as MapKit shows annotations: every pin is
/// drawn (MapKit's default `displayPriority` is `required`) unless points are clustered, and
/// titles are shown only where they collide with nothing (a marker's adaptive title
/// visibility): placed by `LabelPriority`, then input order, right of the pin or else left of it,
/// wholly on the picture, each label that would overlap one already placed (or a cluster) is
/// left out and counted. With a cluster distance, points closer
/// than it on the picture become clusters with their count (`MKClusterAnnotation`).
///
/// Memory is bounded by the picture, not the number of points: pins of one look whose tips fall
/// in one device pixel are drawn once (the last, which would be on top), only the first label
/// by priority of each device pixel competes (the others would collide with it wherever it is
/// placed), and clusters are bounded by the picture's area over the distance squared.
struct AnnotationLayout {
    private struct Entry {
        var mark: PointMark
        /// The feature's own title, nil when its number names it (`FeatureTitle`).
        var name: String?
        /// The feature's number, 1-based.
        var number: Int
        var priority: LabelPriority
        /// Input order of the point (features, then points within a feature).
        var sequence: Int

        var title: String { name ?? FeatureTitle.numbered(number) }
    }

    private struct PinKey: Hashable {
        var pixel: Int64
        var color: RGBAColor
        var size: Double
    }

    private let clusterDistance: Double
    private let pixelWidth: Double
    private let pixelHeight: Double
    /// Device pixels per screen point.
    private let scale: Double
    private var sequence = 0
    /// What became of the points.
    private(set) var counts = RenderReport.AnnotationCounts()
    /// Without clustering: the pin drawn for each pixel and look, and the label candidate of
    /// each pixel.
    private var pins: [Entry] = []
    private var pinSlots: [PinKey: Int] = [:]
    private var candidates: [Entry] = []
    private var candidateSlots: [Int64: Int] = [:]
    /// With clustering: the clusters and the first point of each.
    private var clusters: ScreenClusters
    private var firstPoints: [Entry] = []

    /// A layout for a picture `pixelWidth` × `pixelHeight` device pixels at `scale` device pixels
    /// per point; `clusterDistance` (screen points, 0 for none) groups points.
    init(clusterDistance: Double, pixelWidth: Int, pixelHeight: Int, scale: Double) {
        self.clusterDistance = clusterDistance * scale
        self.pixelWidth = Double(pixelWidth)
        self.pixelHeight = Double(pixelHeight)
        self.scale = scale
        clusters = ScreenClusters(distance: max(clusterDistance * scale, 1e-9))
    }

    private var isClustering: Bool { clusterDistance > 0 }

    /// Takes one point of the feature numbered `number` (1-based) whose own title is `name`
    /// (`FeatureTitle.named`).
    mutating func add(_ mark: PointMark, name: String?, number: Int, priority: LabelPriority) {
        sequence += 1
        counts.points += 1
        let entry = Entry(mark: mark, name: name, number: number, priority: priority, sequence: sequence)
        if isClustering {
            let (_, isNew) = clusters.add(x: mark.x, y: mark.y)
            if isNew { firstPoints.append(entry) }
            return
        }
        let pixel = AnnotationLayout.pixelKey(mark.x, mark.y)
        placePin(entry, pixel: pixel)
        guard AnnotationLayout.printable(mark.label) != nil else { return }
        offerLabel(entry, pixel: pixel)
    }

    /// One pin per pixel and look: a later point's pin replaces the earlier one's.
    private mutating func placePin(_ entry: Entry, pixel: Int64) {
        let key = PinKey(pixel: pixel, color: entry.mark.color, size: entry.mark.size)
        if let slot = pinSlots[key] {
            pins[slot] = entry
            counts.coalescedPins += 1
        } else {
            pinSlots[key] = pins.count
            pins.append(entry)
        }
    }

    /// One label candidate per pixel: the earlier stays unless the later's priority places it
    /// first; the other is left out.
    private mutating func offerLabel(_ entry: Entry, pixel: Int64) {
        if let slot = candidateSlots[pixel] {
            counts.labelsLeftOut += 1
            if entry.priority.placedBefore(candidates[slot].priority) { candidates[slot] = entry }
        } else {
            candidateSlots[pixel] = candidates.count
            candidates.append(entry)
        }
    }

    /// Takes the points of `later`, a layout of the input that follows this one's (a later part
    /// of a file, whose feature numbers start after `featuresBefore` features): the layout is
    /// then the one that would have taken both parts' points in order. Pins of one pixel and look
    /// keep the later; a pixel's label candidate stays the earlier unless the later's priority
    /// places it first, exactly as `add` decides. Without clustering only: greedy clusters
    /// depend on the order in which every point arrives (`canAppend`).
    mutating func append(_ later: AnnotationLayout, featuresBefore: Int) {
        precondition(!isClustering && !later.isClustering, "AnnotationLayout.append with clustering")
        func moved(_ entry: Entry) -> Entry {
            var entry = entry
            entry.sequence += sequence
            entry.number += featuresBefore
            return entry
        }
        for pin in later.pins { placePin(moved(pin), pixel: AnnotationLayout.pixelKey(pin.mark.x, pin.mark.y)) }
        for candidate in later.candidates {
            offerLabel(moved(candidate), pixel: AnnotationLayout.pixelKey(candidate.mark.x, candidate.mark.y))
        }
        sequence += later.sequence
        counts.points += later.counts.points
        counts.coalescedPins += later.counts.coalescedPins
        counts.labelsLeftOut += later.counts.labelsLeftOut
    }

    /// False when points are clustered: then a layout cannot be joined from parts (`append`).
    var canAppend: Bool { !isClustering }

    /// The pins and clusters (bottom to top, one drawing each) and the labels placed over them.
    /// Call once, after the last point.
    mutating func finish(measuring measure: some TextMeasuring) -> (annotations: [FeatureDrawing], labels: [DrawPart]) {
        var drawings = [FeatureDrawing]()
        var grid = CollisionGrid(width: pixelWidth, height: pixelHeight, cellSize: 64 * scale)
        var labelCandidates = candidates
        if isClustering {
            var marks = [FeatureDrawing]()
            var singles = [Entry]()
            for (index, cluster) in clusters.clusters.enumerated() {
                let first = firstPoints[index]
                guard cluster.count > 1 else {
                    singles.append(first)
                    continue
                }
                let mark = clusterMark(cluster, color: first.mark.color, measure: measure)
                grid.insert(mark.box)
                marks.append(FeatureDrawing(title: "\(cluster.count) points: \(first.title), …", parts: [.cluster(mark)]))
                counts.clusters += 1
                counts.clusteredPoints += cluster.count
            }
            counts.pins = singles.count
            drawings = singles.map(AnnotationLayout.pinDrawing) + marks
            labelCandidates = singles.filter { AnnotationLayout.printable($0.mark.label) != nil }
        } else {
            counts.pins = pins.count
            drawings = pins.sorted { $0.sequence < $1.sequence }.map(AnnotationLayout.pinDrawing)
        }
        labelCandidates.sort {
            $0.priority.placedBefore($1.priority) || (!$1.priority.placedBefore($0.priority) && $0.sequence < $1.sequence)
        }
        var labels = [DrawPart]()
        for entry in labelCandidates {
            guard let text = AnnotationLayout.printable(entry.mark.label) else { continue }
            if let label = place(text, of: entry.mark, on: &grid, measure: measure) {
                labels.append(.label(label))
                counts.labelsPlaced += 1
            } else {
                counts.labelsLeftOut += 1
            }
        }
        return (drawings, labels)
    }

    /// Places a pin's label right of its head, else left of it (MapLibre's variable anchors),
    /// wherever it lies wholly on the picture and clear of every box placed; nil when neither
    /// side is free. A side whose start (a box with no text yet) already collides is rejected
    /// before the text is shaped, so crowded labels cost no text measuring.
    private func place(_ text: String, of mark: PointMark, on grid: inout CollisionGrid,
                       measure: some TextMeasuring) -> PlacedLabel? {
        let baseline = mark.y + PinShape.headY * mark.size + mark.fontSize / 3
        let right = mark.x + PinShape.labelX * mark.size, left = mark.x - PinShape.labelX * mark.size
        var label = PlacedLabel(text: text, x: right, y: baseline, width: 0, color: mark.labelColor, fontSize: mark.fontSize)
        let rightOpen = !grid.collides(label.box)
        label.x = left
        let leftOpen = !grid.collides(label.box)
        guard rightOpen || leftOpen else { return nil }
        let width = measure.advance(of: text, fontSize: mark.fontSize, bold: false)
        label.width = width
        for (open, x) in [(rightOpen, right), (leftOpen, left - width)] where open {
            label.x = x
            let box = label.box
            if grid.holdsWhole(box) && !grid.collides(box) {
                grid.insert(box)
                return label
            }
        }
        return nil
    }

    private static func pinDrawing(_ entry: Entry) -> FeatureDrawing {
        let mark = entry.mark
        return FeatureDrawing(title: entry.title, parts: [.pin(x: mark.x, y: mark.y, color: mark.color, size: mark.size)])
    }

    /// A cluster's disc: a little larger than a pin's head, growing with the count's digits
    /// and always wide enough for the count.
    private func clusterMark(_ cluster: ScreenClusters.Cluster, color: RGBAColor, measure: some TextMeasuring) -> ClusterMark {
        let text = ClusterMark.abbreviated(cluster.count)
        let fontSize = 11 * scale
        let textWidth = measure.advance(of: text, fontSize: fontSize, bold: true)
        let radius = max((12 + 2.5 * log10(Double(cluster.count))) * scale, textWidth / 2 + 5 * scale)
        let center = cluster.center
        return ClusterMark(x: center.x, y: center.y, radius: radius, color: color, text: text, fontSize: fontSize,
                           textWidth: textWidth, outlineWidth: 2 * scale)
    }

    /// The label text with the characters no font draws (controls, noncharacters) left out;
    /// nil when nothing is left.
    static func printable(_ label: String?) -> String? {
        guard let label, !label.isEmpty else { return nil }
        let scalars = label.unicodeScalars
        guard scalars.contains(where: AnnotationLayout.isUndrawable) else { return label }
        let kept = String(String.UnicodeScalarView(scalars.filter { !AnnotationLayout.isUndrawable($0) }))
        return kept.isEmpty ? nil : kept
    }

    private static func isUndrawable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7f || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// The device pixel a position lies in, as one key. Positions lie inside the picture's
    /// margin; they are clamped all the same.
    private static func pixelKey(_ x: Double, _ y: Double) -> Int64 {
        func cell(_ value: Double) -> Int64 {
            let cell = value.rounded(.down)
            return cell.isNaN ? 0 : Int64(max(-1_000_000_000, min(1_000_000_000, cell)))
        }
        return cell(x) &* 4_294_967_311 &+ cell(y)
    }
}

extension PlacedLabel {
    /// The em fractions a label's box reaches above and below its baseline: DejaVu Sans's
    /// ascent and descent, which hold every glyph it draws, accents included.
    static let ascent = 0.93, descent = 0.24

    /// The box the label occupies: its advance width by the font's ascent and descent, grown by
    /// half the halo's width on every side. Placed labels' boxes never come within
    /// `CollisionGrid.gap` of each other.
    var box: ScreenBox {
        let halo = fontSize * PinShape.haloWidthPerFontSize / 2
        return ScreenBox(minX: x - halo, minY: y - PlacedLabel.ascent * fontSize - halo,
                         maxX: x + width + halo, maxY: y + PlacedLabel.descent * fontSize + halo)
    }
}

extension ClusterMark {
    /// The disc's bounding box, outline included.
    var box: ScreenBox {
        let reach = radius + outlineWidth / 2
        return ScreenBox(minX: x - reach, minY: y - reach, maxX: x + reach, maxY: y + reach)
    }

    /// A count as supercluster (and MapLibre's cluster layers) abbreviate it: 1234 → "1.2k",
    /// 12345 → "12k"; below 1000 the number.
    static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\(Int((Double(count) / 1000).rounded()))k" }
        if count >= 1000 {
            let tenths = Int((Double(count) / 100).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k"
        }
        return "\(count)"
    }
}

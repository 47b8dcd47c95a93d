import OverlayModel

/// Checks that the polygons of a set of features form a coverage (`validate --coverage`): no two
/// features' polygons overlap, borders they share have the same vertices on both sides, and
/// (with a gap width) no gap narrower than it separates them. GEOS's `CoverageValidator` and
/// GDAL's `check-coverage` ask the same; the approach follows theirs:
///
/// 1. Every edge is matched with the same edge of another feature's polygon: walked the other
///    way it is a shared border and valid; walked the same way, both polygons lie on the same
///    side of it (`coverage.overlap`).
/// 2. Edges left unmatched (the coverage's outline, and every place that is wrong) are tested
///    against the unmatched edges of other features near them (a grid): a crossing is an
///    overlap; touching at a point that is not a vertex of both, or running together along part
///    of an edge, is a border without shared vertices (`coverage.unmatched-border`: simplifying
///    the polygons one by one opens a gap there); with `gapWidth`, two edges closer than it that
///    run side by side for longer than it are a gap (`coverage.gap`).
/// 3. A vertex of an unmatched edge inside another feature's polygon is an overlap (one polygon
///    lying inside another crosses no edge).
///
/// Findings are errors, one per pair of features and kind, at the first place found (as
/// longitude, latitude in the message) with the count of places, located at the first feature of
/// the pair. Polygons of one feature are not checked against each other (`validate`'s geometry
/// checks do that). Works in longitude and latitude as written (GeoJSON's straight lines, as
/// GEOS reads them), with exact comparisons of the input's numbers; gap widths are metres on the
/// ground at the gap (a local equirectangular measure).
///
/// O(n log n)-ish for n edges in a valid coverage (hashing, then only the outline is tested).
public struct CoverageCheck: ValidationCheck {
    /// Gaps narrower than this many metres are reported; 0 reports none.
    public var gapWidth: Double

    /// A check reporting overlaps and unmatched borders, and gaps narrower than `gapWidth` metres.
    public init(gapWidth: Double = 0) {
        self.gapWidth = gapWidth
    }

    /// The rules this check applies, as reports list them.
    public var rules: [CheckRule] {
        var rules = [
            CheckRule(id: "coverage/overlap", code: .coverageOverlap, summary: "no two features' polygons overlap"),
            CheckRule(id: "coverage/unmatched-border", code: .coverageUnmatchedBorder,
                      summary: "polygons that touch share the same vertices along their border"),
        ]
        if gapWidth > 0 {
            rules.append(CheckRule(id: "coverage/gap", code: .coverageGap,
                                   summary: "no gap narrower than \(Self.degrees(gapWidth)) m between features' polygons",
                                   properties: ["gapWidth": .number(gapWidth), "unit": .string("m")]))
        }
        return rules
    }

    /// One report (`coverage`): each readable GeoJSON or KML input's features checked as one
    /// coverage. Inputs that could not be read are left to their own findings.
    public func run(on inputs: [ValidationInput]) -> [CheckReport] {
        var report = CheckReport(kind: "coverage", name: gapWidth > 0 ? "overlaps-and-gaps-under-\(Self.degrees(gapWidth))m" : "overlaps",
                                 title: "Polygons form a coverage: no overlaps, shared borders with shared vertices"
                                     + (gapWidth > 0 ? ", no gap narrower than \(Self.degrees(gapWidth)) m" : ""),
                                 rules: rules)
        for input in inputs where !input.result.isUnreadable && input.result.format != nil {
            var features = [Feature]()
            do {
                var reader = try FeatureIO.reader(for: try input.open(), format: input.result.format)
                while let feature = try reader.next() {
                    var located = feature
                    located.location?.file = input.name
                    features.append(located)
                }
            } catch {
                continue  // the format rules report why
            }
            for finding in findings(features) {
                let rule = finding.code == .coverageOverlap ? "coverage/overlap"
                    : finding.code == .coverageGap ? "coverage/gap" : "coverage/unmatched-border"
                report.findings.append(CheckFinding(finding, ruleID: rule))
            }
        }
        return [report]
    }

    private struct Polygon {
        var feature: Int
        /// Range of `rings`.
        var rings: Range<Int>
        var minX: Double, minY: Double, maxX: Double, maxY: Double
    }

    private struct Edge {
        var ax: Double, ay: Double, bx: Double, by: Double
        var polygon: Int32
        var feature: Int32
    }

    private struct PointKey: Hashable {
        var x: UInt64, y: UInt64
    }

    private struct EdgeKey: Hashable {
        var x0: UInt64, y0: UInt64, x1: UInt64, y1: UInt64
    }

    private enum Kind: Int, Comparable {
        case overlap, unmatchedBorder, gap
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    private struct Place {
        var count = 0
        var x = 0.0, y = 0.0
    }

    /// The findings about `features` (their `location` says where each is in its source).
    public func findings(_ features: [Feature]) -> [Diagnostic] {
        // Rings as longitude, latitude pairs: exteriors counterclockwise, holes clockwise;
        // closing point and repeated points left out.
        var xy = [Double](), ringStarts = [0], polygons = [Polygon]()
        for (index, feature) in features.enumerated() {
            guard let shape = feature.shape else { continue }
            for polygon in Self.polygons(of: shape) {
                let firstRing = ringStarts.count - 1
                var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
                for (ringIndex, ring) in ([polygon.vertices] + polygon.interiorPolygons.map(\.vertices)).enumerated() {
                    let start = xy.count
                    for coordinate in ring.coordinates {
                        let x = coordinate.longitude, y = coordinate.latitude
                        guard x.isFinite && y.isFinite else { continue }
                        if xy.count > start && xy[xy.count - 2] == x && xy[xy.count - 1] == y { continue }
                        xy.append(x)
                        xy.append(y)
                    }
                    while xy.count - start >= 4 && xy[xy.count - 2] == xy[start] && xy[xy.count - 1] == xy[start + 1] { xy.removeLast(2) }
                    let count = (xy.count - start) / 2
                    guard count >= 3 else {
                        xy.removeSubrange(start...)
                        continue
                    }
                    var twice = 0.0
                    for vertex in 0..<count {
                        let next = (vertex + 1) % count
                        twice += xy[start + 2 * vertex] * xy[start + 2 * next + 1] - xy[start + 2 * next] * xy[start + 2 * vertex + 1]
                    }
                    if (twice > 0) != (ringIndex == 0) {
                        var reversed = [Double]()
                        for vertex in stride(from: count - 1, through: 0, by: -1) { reversed += [xy[start + 2 * vertex], xy[start + 2 * vertex + 1]] }
                        xy.replaceSubrange(start..., with: reversed)
                    }
                    if ringIndex == 0 {
                        for vertex in 0..<count {
                            minX = min(minX, xy[start + 2 * vertex]); maxX = max(maxX, xy[start + 2 * vertex])
                            minY = min(minY, xy[start + 2 * vertex + 1]); maxY = max(maxY, xy[start + 2 * vertex + 1])
                        }
                    }
                    ringStarts.append(xy.count / 2)
                }
                let rings = firstRing..<(ringStarts.count - 1)
                if !rings.isEmpty && minX.isFinite {
                    polygons.append(Polygon(feature: index, rings: rings, minX: minX, minY: minY, maxX: maxX, maxY: maxY))
                }
            }
        }
        // Edges, and which of them a polygon of another feature has too.
        var edges = [Edge]()
        for (index, polygon) in polygons.enumerated() {
            for ring in polygon.rings {
                let start = ringStarts[ring], count = ringStarts[ring + 1] - start
                for vertex in 0..<count {
                    let a = start + vertex, b = start + (vertex + 1) % count
                    edges.append(Edge(ax: xy[2 * a], ay: xy[2 * a + 1], bx: xy[2 * b], by: xy[2 * b + 1],
                                      polygon: Int32(index), feature: Int32(polygon.feature)))
                }
            }
        }
        var places = [Int: [Int: [Kind: Place]]]()
        func report(_ kind: Kind, _ a: Int, _ b: Int, x: Double, y: Double) {
            let (first, second) = (min(a, b), max(a, b))
            var place = places[first, default: [:]][second, default: [:]][kind, default: Place()]
            if place.count == 0 { place.x = x; place.y = y }
            place.count += 1
            places[first, default: [:]][second, default: [:]][kind] = place
        }
        var known = [Bool](repeating: false, count: edges.count)
        var byKey = [EdgeKey: [Int]]()
        for (index, edge) in edges.enumerated() {
            let forward = edge.ax < edge.bx || (edge.ax == edge.bx && edge.ay < edge.by)
            let key = forward ? EdgeKey(x0: Self.bits(edge.ax), y0: Self.bits(edge.ay), x1: Self.bits(edge.bx), y1: Self.bits(edge.by))
                : EdgeKey(x0: Self.bits(edge.bx), y0: Self.bits(edge.by), x1: Self.bits(edge.ax), y1: Self.bits(edge.ay))
            byKey[key, default: []].append(index)
        }
        for group in byKey.values where group.count > 1 {
            let features = Set(group.map { edges[$0].feature })
            guard features.count > 1 else { continue }  // one feature's own business
            for index in group { known[index] = true }
            // Walked the same way by two features: both lie on its same side.
            for (position, first) in group.enumerated() {
                for second in group[(position + 1)...] where edges[first].feature != edges[second].feature
                    && edges[first].ax == edges[second].ax && edges[first].ay == edges[second].ay {
                    let edge = edges[first]
                    report(.overlap, Int(edge.feature), Int(edges[second].feature), x: (edge.ax + edge.bx) / 2, y: (edge.ay + edge.by) / 2)
                }
            }
        }
        let unmatched = edges.indices.filter { !known[$0] }
        testUnmatched(unmatched, edges: edges, known: &known, report: report)
        // An unmatched edge leaving a vertex that another feature's ring also has, into that
        // polygon's inside (between the ring's edges there, on their inner side).
        var occurrences = [PointKey: [Int]]()
        for ring in 0..<(ringStarts.count - 1) {
            for vertex in ringStarts[ring]..<ringStarts[ring + 1] {
                occurrences[PointKey(x: Self.bits(xy[2 * vertex]), y: Self.bits(xy[2 * vertex + 1])), default: []].append(vertex)
            }
        }
        var ringOfVertex = [Int](repeating: 0, count: xy.count / 2), polygonOfRing = [Int](repeating: 0, count: ringStarts.count - 1)
        for ring in 0..<(ringStarts.count - 1) { for vertex in ringStarts[ring]..<ringStarts[ring + 1] { ringOfVertex[vertex] = ring } }
        for (index, polygon) in polygons.enumerated() { for ring in polygon.rings { polygonOfRing[ring] = index } }
        for index in unmatched where !known[index] {
            let edge = edges[index]
            for (px, py, qx, qy) in [(edge.ax, edge.ay, edge.bx, edge.by), (edge.bx, edge.by, edge.ax, edge.ay)] {
                guard let shared = occurrences[PointKey(x: Self.bits(px), y: Self.bits(py))], shared.count > 1 else { continue }
                for vertex in shared {
                    let ring = ringOfVertex[vertex], polygon = polygons[polygonOfRing[ring]]
                    guard polygon.feature != Int(edge.feature) else { continue }
                    let start = ringStarts[ring], count = ringStarts[ring + 1] - start
                    let next = start + (vertex - start + 1) % count, previous = start + (vertex - start + count - 1) % count
                    if Self.enters(from: (px, py), toward: (qx, qy), next: (xy[2 * next], xy[2 * next + 1]),
                                   previous: (xy[2 * previous], xy[2 * previous + 1])) {
                        report(.overlap, Int(edge.feature), polygon.feature, x: px, y: py)
                        known[index] = true
                        break
                    }
                }
                if known[index] { break }
            }
        }
        // A vertex inside another feature's polygon (one polygon inside another crosses nothing).
        if !polygons.isEmpty {
            let polygonGrid = Self.boxGrid(polygons.map { ($0.minX, $0.minY, $0.maxX, $0.maxY) }, pad: 0)
            for index in unmatched where !known[index] {
                let edge = edges[index]
                for item in polygonGrid.items(in: polygonGrid.cell(x: edge.ax, y: edge.ay)) {
                    let other = polygons[Int(item)]
                    guard other.feature != Int(edge.feature), edge.ax >= other.minX, edge.ax <= other.maxX,
                          edge.ay >= other.minY, edge.ay <= other.maxY,
                          Self.strictlyInside(edge.ax, edge.ay, other, xy: xy, ringStarts: ringStarts) else { continue }
                    report(.overlap, Int(edge.feature), other.feature, x: edge.ax, y: edge.ay)
                    break
                }
            }
        }
        var findings = [Diagnostic]()
        for first in places.keys.sorted() {
            for second in places[first]!.keys.sorted() {
                for (kind, place) in places[first]![second]!.sorted(by: { $0.key < $1.key }) {
                    findings.append(finding(kind, features, first, second, place))
                }
            }
        }
        return findings
    }

    /// Step 2 of the type's documentation over the unmatched edges.
    private func testUnmatched(_ unmatched: [Int], edges: [Edge], known: inout [Bool],
                               report: (Kind, Int, Int, Double, Double) -> Void) {
        guard unmatched.count > 1 else { return }
        // The widest gap in degrees: a longitude degree is shortest at the highest latitude any edge reaches.
        var pad = 0.0
        if gapWidth > 0 {
            var top = 0.0
            for index in unmatched { top = max(top, abs(edges[index].ay), abs(edges[index].by)) }
            pad = gapWidth / (Self.metersPerDegree * max(cos(min(top, 89.9) * Double.pi / 180), 1e-6))
        }
        let boxes = unmatched.map { index -> (Double, Double, Double, Double) in
            let edge = edges[index]
            return (min(edge.ax, edge.bx), min(edge.ay, edge.by), max(edge.ax, edge.bx), max(edge.ay, edge.by))
        }
        let grid = Self.boxGrid(boxes, pad: pad / 2)
        for cell in 0..<(grid.columns * grid.rows) {
            let items = grid.items(in: cell)
            guard items.count > 1 else { continue }
            for position in items.indices {
                let first = items[position]
                for second in items[(position + 1)...] {
                    let (i, j) = (Int(first), Int(second))
                    let s = edges[unmatched[i]], t = edges[unmatched[j]]
                    guard s.feature != t.feature else { continue }
                    let a = boxes[i], b = boxes[j]
                    guard a.0 - pad <= b.2 && b.0 - pad <= a.2 && a.1 - pad <= b.3 && b.1 - pad <= a.3 else { continue }
                    // Each pair once: in the cell of the lower corner of where their padded boxes meet.
                    let cornerX = max(a.0, b.0) - pad / 2, cornerY = max(a.1, b.1) - pad / 2
                    guard grid.cell(x: cornerX, y: cornerY) == cell else { continue }
                    if let (kind, x, y) = relation(s, t, pad: pad) {
                        report(kind, Int(s.feature), Int(t.feature), x, y)
                        if kind != .gap {
                            known[unmatched[i]] = true
                            known[unmatched[j]] = true
                        }
                    }
                }
            }
        }
    }

    /// How two unmatched edges of different features meet, and where; nil when they do not.
    private func relation(_ s: Edge, _ t: Edge, pad: Double) -> (Kind, Double, Double)? {
        let sharesA = (s.ax == t.ax && s.ay == t.ay) || (s.ax == t.bx && s.ay == t.by)
        let sharesB = (s.bx == t.ax && s.by == t.ay) || (s.bx == t.bx && s.by == t.by)
        let o1 = Self.orientation(s.ax, s.ay, s.bx, s.by, t.ax, t.ay), o2 = Self.orientation(s.ax, s.ay, s.bx, s.by, t.bx, t.by)
        let o3 = Self.orientation(t.ax, t.ay, t.bx, t.by, s.ax, s.ay), o4 = Self.orientation(t.ax, t.ay, t.bx, t.by, s.bx, s.by)
        if sharesA && sharesB { return nil }  // the same edge (matched within one feature's pair above)
        if sharesA || sharesB {
            // A shared vertex: wrong only when they run together past it.
            guard o1 == 0 && o2 == 0 else { return nil }
            let (px, py) = sharesA ? (s.ax, s.ay) : (s.bx, s.by)
            let (ox, oy) = sharesA ? (s.bx, s.by) : (s.ax, s.ay)
            let (tx, ty) = (t.ax == px && t.ay == py) ? (t.bx, t.by) : (t.ax, t.ay)
            guard (ox - px) * (tx - px) + (oy - py) * (ty - py) > 0 else { return nil }
            return (.unmatchedBorder, px, py)
        }
        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) {
            // A proper crossing: one polygon's edge goes into the other.
            let denominator = (s.bx - s.ax) * (t.by - t.ay) - (s.by - s.ay) * (t.bx - t.ax)
            let u = ((t.ax - s.ax) * (t.by - t.ay) - (t.ay - s.ay) * (t.bx - t.ax)) / denominator
            return (.overlap, s.ax + u * (s.bx - s.ax), s.ay + u * (s.by - s.ay))
        }
        if o1 == 0 && Self.within(t.ax, t.ay, s) { return (.unmatchedBorder, t.ax, t.ay) }
        if o2 == 0 && Self.within(t.bx, t.by, s) { return (.unmatchedBorder, t.bx, t.by) }
        if o3 == 0 && Self.within(s.ax, s.ay, t) { return (.unmatchedBorder, s.ax, s.ay) }
        if o4 == 0 && Self.within(s.bx, s.by, t) { return (.unmatchedBorder, s.bx, s.by) }
        guard gapWidth > 0 else { return nil }
        return gap(s, t, pad: pad)
    }

    /// A gap: the edges run side by side, closer than the gap width, for longer than it
    /// (measured in metres on a local equirectangular plane around them).
    private func gap(_ s: Edge, _ t: Edge, pad: Double) -> (Kind, Double, Double)? {
        let originX = s.ax, originY = s.ay
        let scaleX = Self.metersPerDegree * cos((s.ay + s.by + t.ay + t.by) / 4 * Double.pi / 180), scaleY = Self.metersPerDegree
        func local(_ x: Double, _ y: Double) -> (Double, Double) { ((x - originX) * scaleX, (y - originY) * scaleY) }
        let (sax, say) = local(s.ax, s.ay), (sbx, sby) = local(s.bx, s.by)
        let (tax, tay) = local(t.ax, t.ay), (tbx, tby) = local(t.bx, t.by)
        let sx = sbx - sax, sy = sby - say, tx = tbx - tax, ty = tby - tay
        let sLength = (sx * sx + sy * sy).squareRoot(), tLength = (tx * tx + ty * ty).squareRoot()
        guard sLength > 0 && tLength > 0 else { return nil }
        // How much of each lies beside the other (projected on its line).
        func beside(_ ax: Double, _ ay: Double, _ dx: Double, _ dy: Double, _ length: Double,
                    _ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> (Double, Double) {
            let u = ((px - ax) * dx + (py - ay) * dy) / length, v = ((qx - ax) * dx + (qy - ay) * dy) / length
            return (max(min(u, v), 0), min(max(u, v), length))
        }
        let (s0, s1) = beside(sax, say, sx, sy, sLength, tax, tay, tbx, tby)
        let (t0, t1) = beside(tax, tay, tx, ty, tLength, sax, say, sbx, sby)
        guard s1 - s0 > gapWidth && t1 - t0 > gapWidth else { return nil }
        // The distance across, at both ends of the part beside each other.
        let startX = sax + sx / sLength * s0, startY = say + sy / sLength * s0
        let endX = sax + sx / sLength * s1, endY = say + sy / sLength * s1
        func distance(_ px: Double, _ py: Double) -> Double {
            let along = max(0, min(1, ((px - tax) * tx + (py - tay) * ty) / (tx * tx + ty * ty)))
            let x = tax + along * tx - px, y = tay + along * ty - py
            return (x * x + y * y).squareRoot()
        }
        let across = max(distance(startX, startY), distance(endX, endY))
        guard across <= gapWidth, across > 0 else { return nil }
        return (.gap, originX + (startX + endX) / 2 / scaleX, originY + (startY + endY) / 2 / scaleY)
    }

    private func finding(_ kind: Kind, _ features: [Feature], _ first: Int, _ second: Int, _ place: Place) -> Diagnostic {
        func name(_ index: Int) -> String {
            let feature = features[index]
            var text = "feature \(index)"
            if let id = feature.id { text += " (id \(id))" }
            if let location = feature.location { text += " at \(location.line):\(location.column)" }
            return text
        }
        let at = "\(Self.degrees(place.x)), \(Self.degrees(place.y))"
        let more = place.count > 1 ? " (and \(place.count - 1) more place\(place.count == 2 ? "" : "s"))" : ""
        let message: String
        let code: Diagnostic.Code
        switch kind {
        case .overlap:
            code = .coverageOverlap
            message = "\(name(first)) and \(name(second)) overlap at \(at)\(more)"
        case .unmatchedBorder:
            code = .coverageUnmatchedBorder
            message = "\(name(first)) and \(name(second)) meet at \(at) without a shared vertex\(more): simplified one at a time they would open a gap"
        case .gap:
            code = .coverageGap
            message = "\(name(first)) and \(name(second)) leave a gap narrower than \(Self.degrees(gapWidth)) m at \(at)\(more)"
        }
        return Diagnostic(.error, code: code, message: message, location: features[first].location)
    }

    // MARK: helpers

    private static func polygons(of shape: Shape) -> [OverlayModel.Polygon] {
        switch shape {
        case .polygon(let polygon): [polygon]
        case .multiPolygon(let multi): multi.polygons
        case .collection(let collection): collection.members.flatMap(polygons(of:))
        case .annotation, .circle, .polyline, .multiPolyline: []
        }
    }

    /// Metres in a degree of latitude (and of longitude at the equator).
    private static let metersPerDegree = 111_320.0

    @inline(__always)
    private static func bits(_ value: Double) -> UInt64 { (value == 0 ? 0 : value).bitPattern }

    @inline(__always)
    private static func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
        (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    }

    /// Whether p, collinear with the edge, lies on it.
    private static func within(_ px: Double, _ py: Double, _ edge: Edge) -> Bool {
        px >= min(edge.ax, edge.bx) && px <= max(edge.ax, edge.bx) && py >= min(edge.ay, edge.by) && py <= max(edge.ay, edge.by)
    }

    /// Whether the direction from `point` toward `toward` lies strictly inside the corner a ring
    /// makes at `point` (from the edge to `next` counterclockwise round to the edge to
    /// `previous`: the inside, rings being wound with the inside on their left).
    private static func enters(from point: (Double, Double), toward: (Double, Double), next: (Double, Double),
                               previous: (Double, Double)) -> Bool {
        let a = (next.0 - point.0, next.1 - point.1), b = (previous.0 - point.0, previous.1 - point.1)
        let d = (toward.0 - point.0, toward.1 - point.1)
        func cross(_ u: (Double, Double), _ v: (Double, Double)) -> Double { u.0 * v.1 - u.1 * v.0 }
        func dot(_ u: (Double, Double), _ v: (Double, Double)) -> Double { u.0 * v.0 + u.1 * v.1 }
        let corner = cross(a, b)
        if corner > 0 { return cross(a, d) > 0 && cross(d, b) > 0 }
        if corner < 0 { return !(cross(b, d) >= 0 && cross(d, a) >= 0) }
        // A straight ring (a and b opposite): the inside is the left half-plane. (Equal: a spike.)
        return dot(a, b) < 0 && cross(a, d) > 0
    }

    /// Whether (px, py) lies inside the polygon (even-odd over its rings) and on none of its edges.
    private static func strictlyInside(_ px: Double, _ py: Double, _ polygon: Polygon, xy: [Double], ringStarts: [Int]) -> Bool {
        var inside = false
        for ring in polygon.rings {
            let start = ringStarts[ring], count = ringStarts[ring + 1] - start
            for vertex in 0..<count {
                let a = start + vertex, b = start + (vertex + 1) % count
                let ux = xy[2 * a], uy = xy[2 * a + 1], vx = xy[2 * b], vy = xy[2 * b + 1]
                let side = orientation(ux, uy, vx, vy, px, py)
                if side == 0 && px >= min(ux, vx) && px <= max(ux, vx) && py >= min(uy, vy) && py <= max(uy, vy) { return false }
                if (uy <= py) != (vy <= py) && ((vy > uy) == (side > 0)) { inside.toggle() }
            }
        }
        return inside
    }

    /// A grid over boxes (min x, min y, max x, max y), each in every cell its box (grown by `pad`) covers.
    private static func boxGrid(_ boxes: [(Double, Double, Double, Double)], pad: Double) -> UniformGrid {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity, size = 0.0
        for box in boxes {
            minX = min(minX, box.0); minY = min(minY, box.1); maxX = max(maxX, box.2); maxY = max(maxY, box.3)
            size += max(box.2 - box.0, box.3 - box.1)
        }
        return UniformGrid(minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                           minimumCellSize: max(pad * 2, size / Double(max(boxes.count, 1)) * 2), itemCount: boxes.count) { item, grid, visit in
            let box = boxes[item]
            for row in grid.row(box.1 - pad)...grid.row(box.3 + pad) {
                for column in grid.column(box.0 - pad)...grid.column(box.2 + pad) { visit(row * grid.columns + column) }
            }
        }
    }

    /// A number of degrees or metres as written in messages (up to 7 decimals, no trailing zeros).
    private static func degrees(_ value: Double) -> String {
        var text = String(format: "%.7f", value)
        while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
        return text
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

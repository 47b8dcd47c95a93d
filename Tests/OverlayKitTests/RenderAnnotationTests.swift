import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// What an SVG picture shows of its point annotations, read back from the document alone: the
/// label boxes (x…x+textLength by the font's ascent 0.93 em and descent 0.24 em, grown by half
/// the halo's stroke width, as docs/render.md states), the clusters' counts and the pins.
struct SVGAnnotations {
    struct Box {
        var minX, minY, maxX, maxY: Double
        func intersects(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }
    }

    var labels: [(text: String, box: Box)] = []
    var clusterCounts: [Int] = []
    var clusterBoxes: [Box] = []
    var pins = 0

    init(_ svg: String) throws {
        var group = ""
        var lastCircle: Box?
        for line in svg.split(separator: "\n").map(String.init) {
            if line.hasPrefix("<g id=\"") { group = String(line.dropFirst(7).prefix { $0 != "\"" }) }
            guard group == "annotations" || group == "labels" else { continue }
            if line.hasPrefix("<path d=\"M") { pins += 1 }
            if line.hasPrefix("<circle"), line.contains("stroke=\"#ffffff\"") {
                let x = try SVGAnnotations.number("cx", line), y = try SVGAnnotations.number("cy", line)
                let r = try SVGAnnotations.number("r", line) + (try SVGAnnotations.number("stroke-width", line)) / 2
                lastCircle = Box(minX: x - r, minY: y - r, maxX: x + r, maxY: y + r)
            }
            guard line.hasPrefix("<text") else { continue }
            let text = String(line.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
            if line.contains("font-weight=\"bold\"") {
                clusterCounts.append(try SVGAnnotations.count(text))
                clusterBoxes.append(try XCTUnwrap(lastCircle, "a cluster's count follows its disc"))
                continue
            }
            let x = try SVGAnnotations.number("x", line), y = try SVGAnnotations.number("y", line)
            let size = try SVGAnnotations.number("font-size", line), width = try SVGAnnotations.number("textLength", line)
            let halo = try SVGAnnotations.number("stroke-width", line) / 2
            labels.append((text, Box(minX: x - halo, minY: y - 0.93 * size - halo, maxX: x + width + halo, maxY: y + 0.24 * size + halo)))
        }
    }

    private static func number(_ attribute: String, _ line: String) throws -> Double {
        let start = try XCTUnwrap(line.range(of: " \(attribute)=\""), "\(attribute) in \(line)")
        return try XCTUnwrap(Double(line[start.upperBound...].prefix { $0 != "\"" }), line)
    }

    /// "12", "1.2k", "12k" back to a count (exact below 1000).
    private static func count(_ text: String) throws -> Int {
        if text.hasSuffix("k") { return Int(try XCTUnwrap(Double(text.dropLast())) * 1000) }
        return try XCTUnwrap(Int(text))
    }
}

final class RenderAnnotationTests: XCTestCase {
    /// `count` named points on a jittered grid around 0,0 (a few degrees across), with a `rank`.
    private func crowd(_ count: Int, spread: Double = 6) -> [Feature] {
        var features = [Feature]()
        var state: UInt64 = 42
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for index in 0..<count {
            let json = "{\"type\":\"Feature\",\"properties\":{\"name\":\"Place \(index)\",\"rank\":\(index % 7)},"
                + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\((random() - 0.5) * spread),\((random() - 0.5) * spread)]}}"
            features += (try? RenderFixtures.features(json)) ?? []
        }
        return features
    }

    /// A 600×400 view at zoom 5 on 0,0: every point of `crowd` is well inside it.
    private func options(labelPriority: String? = nil, clusterDistance: Double = 0) -> RenderOptions {
        RenderOptions(width: 600, height: 400, camera: .centered(Coordinate(latitude: 0, longitude: 0), zoom: 5),
                      labelPriority: labelPriority, clusterDistance: clusterDistance)
    }

    func testNoTwoLabelBoxesIntersectAndEveryLabelIsCounted() throws {
        let features = crowd(400)
        XCTAssertEqual(features.count, 400)
        for priority in [nil, "rank"] {
            let snapshot = MapSnapshot(features: features, options: options(labelPriority: priority))
            let shown = try SVGAnnotations(String(decoding: snapshot.svg(), as: UTF8.self))
            let counts = snapshot.report.annotations
            XCTAssertEqual(counts.points, 400)
            XCTAssertEqual(shown.labels.count, counts.labelsPlaced)
            XCTAssertEqual(counts.labelsPlaced + counts.labelsLeftOut, 400, "drawn + left out = input")
            XCTAssertGreaterThan(counts.labelsPlaced, 10)
            XCTAssertGreaterThan(counts.labelsLeftOut, 100, "the crowd collides")
            XCTAssertEqual(counts.pins + counts.coalescedPins, 400)
            for (index, label) in shown.labels.enumerated() {
                for other in shown.labels[(index + 1)...] {
                    XCTAssertFalse(label.box.intersects(other.box), "\(label.text) overlaps \(other.text)")
                }
            }
        }
    }

    func testPriorityDecidesWhichLabelStays() throws {
        // Three points 1 px apart: the label placed first takes the right side of its pin, the
        // next the left side, and the third finds both taken.
        let json = RenderFixtures.collection([
            #"{"type":"Feature","properties":{"name":"low","rank":1,"kind":"b"},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            #"{"type":"Feature","properties":{"name":"high","rank":9.5,"kind":"a"},"geometry":{"type":"Point","coordinates":[0.05,0]}}"#,
            #"{"type":"Feature","properties":{"name":"none"},"geometry":{"type":"Point","coordinates":[0.1,0]}}"#,
        ])
        let features = try RenderFixtures.features(json)
        func placed(_ priority: String?) throws -> [String] {
            let snapshot = MapSnapshot(features: features, options: options(labelPriority: priority))
            return try SVGAnnotations(String(decoding: snapshot.svg(), as: UTF8.self)).labels.map(\.text)
        }
        XCTAssertEqual(try placed(nil), ["low", "high"], "input order")
        XCTAssertEqual(try placed("rank"), ["high", "low"], "the higher number")
        XCTAssertEqual(try placed("kind"), ["low", "high"], "\"b\" sorts after \"a\"")
        XCTAssertEqual(try placed("missing"), ["low", "high"], "no property: input order")
    }

    func testNumbersRankAboveStringsAndStringsAboveNothing() throws {
        func priority(_ value: String) throws -> LabelPriority {
            let json = "{\"type\":\"Feature\",\"properties\":{\"p\":\(value)},\"geometry\":{\"type\":\"Point\",\"coordinates\":[0,0]}}"
            return LabelPriority(of: try XCTUnwrap(RenderFixtures.features(json).first), key: "p")
        }
        XCTAssertTrue(try priority("1").placedBefore(priority("\"z\"")))
        XCTAssertTrue(try priority("\"M 7.1\"").placedBefore(priority("\"M 5.9\"")))
        XCTAssertTrue(try priority("\"a\"").placedBefore(priority("null")))
        XCTAssertTrue(try priority("2").placedBefore(priority("1.5")))
        XCTAssertFalse(try priority("true").placedBefore(priority("[1]")), "neither ranks: input order")
        XCTAssertFalse(try priority("3").placedBefore(priority("3")), "ties keep input order")
    }

    func testClusterCountsAndSinglePointsAddUpToThePointsInView() throws {
        // Groups of points far apart, plus a few loners.
        var features = [Feature]()
        for (group, (longitude, latitude, count)) in [(-8.0, 4.0, 50), (0.0, 0.0, 300), (7.0, -3.0, 12)].enumerated() {
            for index in 0..<count {
                let x = longitude + Double(index % 10) * 0.02, y = latitude + Double(index / 10) * 0.02
                let json = "{\"type\":\"Feature\",\"properties\":{\"name\":\"g\(group) \(index)\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(x),\(y)]}}"
                features += try RenderFixtures.features(json)
            }
        }
        for (longitude, latitude) in [(-4.0, -6.0), (4.0, 6.0)] {
            features += try RenderFixtures.features("{\"type\":\"Feature\",\"properties\":{\"name\":\"alone\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(longitude),\(latitude)]}}")
        }
        let snapshot = MapSnapshot(features: features, options: options(clusterDistance: 40))
        let shown = try SVGAnnotations(String(decoding: snapshot.svg(), as: UTF8.self))
        let counts = snapshot.report.annotations
        XCTAssertEqual(counts.points, features.count)
        XCTAssertEqual(shown.clusterCounts.sorted(), [12, 50, 300])
        XCTAssertEqual(shown.pins, 2, "the loners stay pins")
        XCTAssertEqual(shown.clusterCounts.reduce(0, +) + shown.pins, features.count, "Σ cluster counts + single points = points in view")
        XCTAssertEqual(counts.clusters, 3)
        XCTAssertEqual(counts.clusteredPoints + counts.pins, features.count)
        XCTAssertEqual(shown.labels.map(\.text), ["alone", "alone"])
        for label in shown.labels {
            for cluster in shown.clusterBoxes { XCTAssertFalse(label.box.intersects(cluster), "a label over a cluster") }
        }
    }

    func testClusteredCrowdNeverOverlapsItsLabels() throws {
        let snapshot = MapSnapshot(features: crowd(600, spread: 12), options: options(clusterDistance: 30))
        let shown = try SVGAnnotations(String(decoding: snapshot.svg(), as: UTF8.self))
        let counts = snapshot.report.annotations
        XCTAssertGreaterThan(counts.clusters, 5)
        XCTAssertEqual(shown.clusterCounts.reduce(0, +) + counts.pins, counts.points)
        XCTAssertEqual(counts.labelsPlaced + counts.labelsLeftOut, counts.pins)
        let boxes = shown.labels.map(\.box)
        for (index, box) in boxes.enumerated() {
            for other in boxes[(index + 1)...] { XCTAssertFalse(box.intersects(other)) }
            for cluster in shown.clusterBoxes { XCTAssertFalse(box.intersects(cluster)) }
        }
    }

    func testCountsAbbreviateAsSupercluster() {
        XCTAssertEqual(ClusterMark.abbreviated(999), "999")
        XCTAssertEqual(ClusterMark.abbreviated(1000), "1k")
        XCTAssertEqual(ClusterMark.abbreviated(1234), "1.2k")
        XCTAssertEqual(ClusterMark.abbreviated(12_345), "12k")
    }

    func testPinsInOnePixelAreDrawnOnce() throws {
        let point = #"{"type":"Feature","properties":{"name":"same"},"geometry":{"type":"Point","coordinates":[1,1]}}"#
        let features = try RenderFixtures.features(RenderFixtures.collection(Array(repeating: point, count: 500)))
        let snapshot = MapSnapshot(features: features, options: options())
        let shown = try SVGAnnotations(String(decoding: snapshot.svg(), as: UTF8.self))
        XCTAssertEqual(shown.pins, 1)
        XCTAssertEqual(shown.labels.count, 1)
        XCTAssertEqual(snapshot.report.annotations.coalescedPins, 499)
        XCTAssertEqual(snapshot.report.annotations.labelsLeftOut, 499)
        XCTAssertEqual(snapshot.report.features.drawn, 500)
    }

    /// Counts the labels it is asked to measure.
    private final class CountingMeasure: TextMeasuring {
        var calls = 0
        func advance(of text: String, fontSize: Double, bold: Bool) -> Double {
            calls += 1
            return 0.6 * fontSize * Double(text.count)
        }
    }

    func testALabelThatCannotFitIsNeverShaped() {
        // 200 points one pixel apart on a row, labels 115.2 px long: the first label and the
        // 121st fit on the right; the left side is off the picture for the first 20 (measured,
        // then refused), and every other point's starts on both sides already collide, so
        // their text is never measured.
        var layout = AnnotationLayout(clusterDistance: 0, pixelWidth: 400, pixelHeight: 300, scale: 1)
        for index in 0..<200 {
            layout.add(PointMark(x: 50 + Double(index), y: 150, color: RGBAColor(red: 255, green: 0, blue: 0), size: 1,
                                 label: "a long label 000", labelColor: RGBAColor(red: 0, green: 0, blue: 0), fontSize: 12),
                       name: "p\(index)", number: index + 1, priority: .inputOrder)
        }
        let measure = CountingMeasure()
        let (_, labels) = layout.finish(measuring: measure)
        XCTAssertEqual(labels.count, 2)
        XCTAssertEqual(layout.counts.labelsLeftOut, 198)
        XCTAssertEqual(measure.calls, 22, "labels that collide before shaping are not measured")
    }

    func testFoldedExtentIsTheExactOneWhenTheGapIsWide() {
        // More parts than are kept exactly, in two bands of longitude with the widest gap
        // between them; the extremes alone, few enough to be kept exactly, must give the same rect.
        var folded = FitExtent(), extremes = FitExtent()
        var corners = [Coordinate]()
        for index in 0..<(FitExtent.exactPartLimit + 5000) {
            let longitude = index % 2 == 0 ? -150 + Double(index % 997) / 50 : 100 + Double(index % 991) / 40
            let coordinate = Coordinate(latitude: Double(index % 89) - 44, longitude: longitude)
            folded.add(.annotation(PointAnnotation(coordinate: coordinate)))
            corners.append(coordinate)
        }
        for longitude in [-150, -150 + 996 / 50.0, 100, 100 + 990 / 40.0] {
            for latitude in [-44.0, 44] {
                extremes.add(.annotation(PointAnnotation(coordinate: Coordinate(latitude: latitude, longitude: longitude))))
            }
        }
        let rect = folded.mapRect, exact = extremes.mapRect
        XCTAssertEqual(rect.minX, exact.minX, accuracy: 1e-6)
        XCTAssertEqual(rect.width, exact.width, accuracy: 1e-6)
        XCTAssertEqual(rect.minY, exact.minY, accuracy: 1e-6)
        XCTAssertEqual(rect.height, exact.height, accuracy: 1e-6)
        // The widest gap is −130°…100°, so the rect runs from 100° across the antimeridian.
        XCTAssertEqual(rect.minX, MapPoint(Coordinate(latitude: 0, longitude: 100)).x, accuracy: 1e-6)
        XCTAssertGreaterThan(rect.maxX, MapProjection.worldSize)
        XCTAssertEqual(corners.count, FitExtent.exactPartLimit + 5000)
    }

    // MARK: The corpus's 1,535 earthquakes at world zoom (issue 32 item 4)

    func testTheEarthquakesAtWorldZoomAreLegible() throws {
        // Read first, so a missing corpus skips before any assertion.
        let path = try TestPaths.corpusFolder("real/2012_Earthquakes_Mag5.kml").path
        for clusterDistance in [0.0, 40] {
            var source = FileRenderSource(path: path)
            let output = ByteOutput()
            let options = RenderOptions(width: 1024, height: 768, labelPriority: "name", clusterDistance: clusterDistance)
            let report = try MapRenderer(options: options, format: .svg).render(&source, to: output)
            let shown = try SVGAnnotations(String(decoding: output.bytes, as: UTF8.self))
            let points = report.annotations
            XCTAssertEqual(report.features.read, 1535)
            XCTAssertEqual(report.features.drawn, 1535)
            XCTAssertLessThan(report.camera.zoom, 2, "world zoom")
            // The world is narrower than the view: points in both copies count twice.
            XCTAssertGreaterThanOrEqual(points.points, 1535)
            XCTAssertEqual(shown.labels.count, points.labelsPlaced)
            XCTAssertGreaterThan(points.labelsPlaced, 0)
            if clusterDistance > 0 {
                XCTAssertEqual(shown.clusterCounts.reduce(0, +) + points.pins, points.points, "Σ cluster counts + single points")
                XCTAssertEqual(points.labelsPlaced + points.labelsLeftOut, points.pins, "drawn + left out = labeled pins")
                XCTAssertLessThan(shown.clusterCounts.count + points.pins, 200, "a few clusters, not 1,535 pins")
            } else {
                XCTAssertEqual(points.labelsPlaced + points.labelsLeftOut, points.points, "drawn + left out = input")
                XCTAssertEqual(points.pins + points.coalescedPins, points.points)
            }
            for (index, label) in shown.labels.enumerated() {
                XCTAssertTrue(label.text.hasPrefix("M 5"), label.text)
                for other in shown.labels[(index + 1)...] {
                    XCTAssertFalse(label.box.intersects(other.box), "\(label.text) overlaps \(other.text)")
                }
                for cluster in shown.clusterBoxes { XCTAssertFalse(label.box.intersects(cluster), label.text) }
                XCTAssertTrue(label.box.minX >= 0 && label.box.maxX <= 1024 && label.box.minY >= 0 && label.box.maxY <= 768,
                              "\(label.text) is cut by the picture's edge")
            }
        }
    }
}

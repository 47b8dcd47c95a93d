import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel

/// The pitched camera: MapLibre GL JS's projection, its horizon, MapKit's
/// centerCoordinateDistance, clipping in 3D and fitting with pitch.
final class RenderPitchTests: XCTestCase {
    private let pitches = [0.0, 1, 10, 30, 45, 60, 72, 80, 85]

    private func transform(_ camera: RenderCamera, width: Int = 800, height: Int = 500, scale: Double = 1) -> ScreenTransform {
        ScreenTransform(camera: camera, pixelWidth: width, pixelHeight: height, scale: scale)
    }

    func testCenterMapsToImageCenterAtAnyPitch() {
        for pitch in pitches {
            for bearing in [0.0, 33, 200] {
                let camera = RenderCamera(center: Coordinate(latitude: 47.3, longitude: 8.5), zoom: 11.3, bearing: bearing, pitch: pitch)
                let point = camera.centerPoint
                let device = transform(camera).device(x: point.x, y: point.y)
                XCTAssertEqual(device.x, 400, accuracy: 1e-6, "pitch \(pitch) bearing \(bearing)")
                XCTAssertEqual(device.y, 250, accuracy: 1e-6, "pitch \(pitch) bearing \(bearing)")
            }
        }
    }

    /// MapLibre's transform, written out as its matrices (mercator_transform.ts `_calcMatrices`):
    /// perspective(fov, aspect, near, far) · scale(1, −1, 1) · translate(0, 0, −d) · rotateX(pitch)
    /// · rotateZ(−bearing) · translate(−center), over world pixels (512·2^(zoom − 1) wide).
    private func mapLibreScreen(_ point: MapPoint, camera: RenderCamera, width: Double, height: Double) -> (x: Double, y: Double) {
        typealias Matrix = [Double]  // column-major 4×4, as gl-matrix
        func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
            var out = Matrix(repeating: 0, count: 16)
            for column in 0..<4 { for row in 0..<4 { for k in 0..<4 { out[column * 4 + row] += a[k * 4 + row] * b[column * 4 + k] } } }
            return out
        }
        let fov = 0.6435011087932844, d = 0.5 / tan(fov / 2) * height
        let f = 1 / tan(fov / 2), near = height / 50, far = d * 100
        var perspective = Matrix(repeating: 0, count: 16)
        perspective[0] = f / (width / height); perspective[5] = f
        perspective[10] = (far + near) / (near - far); perspective[11] = -1; perspective[14] = 2 * far * near / (near - far)
        let flip: Matrix = [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let back: Matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -d, 1]
        let pitch = camera.pitch * Double.pi / 180, angle = -camera.bearing * Double.pi / 180
        let rotateX: Matrix = [1, 0, 0, 0, 0, cos(pitch), sin(pitch), 0, 0, -sin(pitch), cos(pitch), 0, 0, 0, 0, 1]
        let rotateZ: Matrix = [cos(angle), sin(angle), 0, 0, -sin(angle), cos(angle), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let worldSize = 512 * pow(2, camera.zoom - 1), toPixels = worldSize / MapProjection.worldSize
        let center = camera.centerPoint
        let translate: Matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -center.x * toPixels, -center.y * toPixels, 0, 1]
        let matrix = [flip, back, rotateX, rotateZ, translate].reduce(perspective, multiply)
        let x = point.x * toPixels, y = point.y * toPixels
        let clip = (0..<4).map { matrix[$0] * x + matrix[4 + $0] * y + matrix[12 + $0] }
        return ((clip[0] / clip[3] + 1) / 2 * width, (1 - clip[1] / clip[3]) / 2 * height)
    }

    func testProjectionMatchesMapLibreMatrices() {
        for pitch in pitches {
            for bearing in [0.0, 20, 135, 290] {
                let camera = RenderCamera(center: Coordinate(latitude: -33.9, longitude: 151.2), zoom: 9.5, bearing: bearing, pitch: pitch)
                let screen = transform(camera)
                let band = screen.groundBand
                for (dx, dy) in [(0.0, 0.0), (3000, -4000), (-20000, 9000), (120000, -90000), (-5000, 30000)] {
                    let point = MapPoint(x: camera.centerPoint.x + dx, y: camera.centerPoint.y + dy)
                    let ground = screen.ground(x: point.x, y: point.y)
                    guard ground.y >= band.minY, ground.y <= band.maxY else { continue }
                    let ours = screen.device(x: point.x, y: point.y)
                    let theirs = mapLibreScreen(point, camera: camera, width: 800, height: 500)
                    XCTAssertEqual(ours.x, theirs.x, accuracy: 1e-6, "pitch \(pitch) bearing \(bearing) offset \(dx),\(dy)")
                    XCTAssertEqual(ours.y, theirs.y, accuracy: 1e-6, "pitch \(pitch) bearing \(bearing) offset \(dx),\(dy)")
                }
            }
        }
    }

    func testHorizonIsMapLibresAndTheGroundEndsThere() {
        let height = 500.0, d = 1.5 * height  // 0.5 / tan(atan(1/3)) · height
        for pitch in pitches where pitch > 0 {
            let camera = RenderCamera(center: Coordinate(latitude: 10, longitude: 20), zoom: 4, pitch: pitch)
            let screen = transform(camera)
            XCTAssertEqual(screen.cameraToCenterDistance, d, accuracy: 1e-9)
            // MapLibre 5's getHorizon: d · min(0.85 · tan(90° − pitch), tan(89.25° − pitch)).
            let radians = Double.pi / 180
            let expected = height / 2 - d * min(0.85 * tan((90 - pitch) * radians), tan((89.25 - pitch) * radians))
            XCTAssertEqual(screen.horizonY, expected, accuracy: 1e-9, "pitch \(pitch)")
            // The farthest ground drawn projects onto that line, below the true horizon.
            let far = screen.project(0, screen.groundBand.minY)
            XCTAssertEqual(far.y, expected, accuracy: 1e-6, "pitch \(pitch)")
            let trueHorizon = height / 2 - d / tan(pitch * radians)
            XCTAssertEqual(screen.project(0, -1e15).y, trueHorizon, accuracy: 1e-3, "pitch \(pitch)")
            XCTAssertGreaterThan(far.y, trueHorizon)
        }
    }

    func testSkyFillsAboveTheHorizonAndGroundBelowIt() throws {
        // A polygon over the whole world, seen at 80°: ground up to the horizon, sky above.
        let world = RenderFixtures.polygon([[(-180, -85), (180, -85), (180, 85), (-180, 85), (-180, -85)]])
        // At zoom 6 the world's edge (85°) lies beyond the drawn horizon.
        let options = RenderOptions(width: 400, height: 300, camera: .centered(Coordinate(latitude: 0, longitude: 0), zoom: 6),
                                    pitch: 80, sky: RGBAColor(red: 0, green: 0, blue: 255),
                                    styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill))
        let snapshot = MapSnapshot(features: try RenderFixtures.features(world), options: options)
        let image = try snapshot.image()
        let horizon = transform(snapshot.camera, width: 400, height: 300).horizonY
        XCTAssertGreaterThan(horizon, 10)
        let sky = image.pixel(x: 200, y: Int(horizon) - 3), ground = image.pixel(x: 200, y: Int(horizon) + 3)
        XCTAssertEqual(sky, RGBAColor(red: 0, green: 0, blue: 255))
        XCTAssertEqual(ground, RGBAColor(red: 0, green: 0, blue: 0))
        XCTAssertEqual(image.pixel(x: 5, y: 295), RGBAColor(red: 0, green: 0, blue: 0), "the ground under the eye is drawn")
        let svg = String(decoding: snapshot.svg(), as: UTF8.self)
        XCTAssertTrue(svg.contains("<rect id=\"sky\""))
        for bad in ["nan", "inf"] { XCTAssertFalse(svg.lowercased().contains(bad), svg) }
    }

    func testGeometryBehindTheEyeIsClippedInThreeDimensions() throws {
        // A line from far in front of the camera to far behind it, and a ring around the eye:
        // a naive projection flips what is behind onto the screen (or divides by zero).
        let camera = RenderCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 10, pitch: 85)
        let screen = transform(camera)
        let band = screen.groundBand
        let clip = DepthClip(minY: band.minY, maxY: band.maxY)
        let line = [0, band.minY * 10, 0, band.maxY * 1000, 50, band.minY * 3]
        let runs = clip.clipLine(line)
        XCTAssertEqual(runs.count, 2, "out of the band and back in: two runs")
        for run in runs {
            for index in stride(from: 1, to: run.count, by: 2) {
                XCTAssertGreaterThanOrEqual(run[index], band.minY - 1e-6)
                XCTAssertLessThanOrEqual(run[index], band.maxY + 1e-6)
                let device = screen.project(run[index - 1], run[index])
                XCTAssertTrue(device.x.isFinite && device.y.isFinite)
                XCTAssertGreaterThanOrEqual(device.y, screen.horizonY - 1e-6)
            }
        }
        let ring = clip.clipRing([-1e9, -1e9, 1e9, -1e9, 1e9, 1e9, -1e9, 1e9])
        XCTAssertEqual(ring.count, 8)
        XCTAssertEqual(Set(stride(from: 1, to: ring.count, by: 2).map { ring[$0] }), [band.minY, band.maxY])
        XCTAssertEqual(clip.clipLine([0, band.maxY + 1]), [])
    }

    func testPitchedLineAcrossTheAntimeridianAndCircleAreDrawn() throws {
        // A Fiji polygon across 180° (written past it, as RFC 7946's straight edges need) and a
        // circle, seen pitched from over the antimeridian: both world copies meet at the center,
        // the circle is filled where it lies.
        let fiji = RenderFixtures.polygon([[(177, -20), (182, -20), (182, -15), (177, -15), (177, -20)]])
        let circle = ##"{"type":"Feature","properties":{"radius":60000},"geometry":{"type":"Point","coordinates":[179.5,-18.5]}}"##
        let options = RenderOptions(width: 400, height: 300, camera: .centered(Coordinate(latitude: -17.5, longitude: 180), zoom: 5),
                                    pitch: 50, styleSheet: try RenderFixtures.sheet(RenderFixtures.blackFill))
        let features = try RenderFixtures.features(RenderFixtures.collection([fiji]))
        let image = try MapSnapshot(features: features, options: options).image()
        XCTAssertEqual(image.pixel(x: 195, y: 150), RGBAColor(red: 0, green: 0, blue: 0))
        XCTAssertEqual(image.pixel(x: 205, y: 150), RGBAColor(red: 0, green: 0, blue: 0))
        let circleOnly = MapSnapshot(features: try RenderFixtures.features(circle), options: options)
        // The camera centers on −180° (x 0): the circle's copy west of it is the one in view.
        let camera = circleOnly.camera, point = MapPoint(Coordinate(latitude: -18.5, longitude: 179.5))
        let middle = transform(camera, width: 400, height: 300).device(x: point.x - MapProjection.worldSize, y: point.y)
        XCTAssertTrue((0..<400).contains(middle.x) && (0..<300).contains(middle.y), "\(middle)")
        let pixels = try circleOnly.image()
        XCTAssertEqual(pixels.pixel(x: Int(middle.x), y: Int(middle.y)), RGBAColor(red: 0, green: 0, blue: 0))
        XCTAssertEqual(pixels.pixel(x: 5, y: 5), RGBAColor(red: 255, green: 255, blue: 255))
    }

    func testHostileGeometryUnderEveryPitchGivesFiniteOutput() throws {
        // Lines through and around the eye, a line winding round the world, a ring over the
        // whole world, a huge circle and a pin under the eye, at the extreme zooms and pitches.
        let features = try RenderFixtures.features(RenderFixtures.collection([
            ##"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,-89],[0,89],[179.9,0],[-179.9,0.1],[540,1],[-900,-1]]}}"##,
            RenderFixtures.polygon([[(-180, -85), (180, -85), (180, 85), (-180, 85), (-180, -85)], [(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)]]),
            ##"{"type":"Feature","properties":{"radius":9000000},"geometry":{"type":"Point","coordinates":[10,10]}}"##,
            ##"{"type":"Feature","properties":{"name":"eye"},"geometry":{"type":"Point","coordinates":[0,-0.0001]}}"##,
        ]))
        for pitch in [1.0, 45, 85] {
            for zoom in [0.0, 12, 24] {
                let options = RenderOptions(width: 120, height: 90, camera: .centered(Coordinate(latitude: 0, longitude: 0), zoom: zoom),
                                            bearing: 77, pitch: pitch)
                let svg = String(decoding: MapSnapshot(features: features, options: options).svg(), as: UTF8.self).lowercased()
                XCTAssertFalse(svg.contains("nan") || svg.contains("inf"), "pitch \(pitch) zoom \(zoom)")
            }
            let fitted = MapSnapshot(features: features, options: RenderOptions(width: 120, height: 90, pitch: pitch))
            XCTAssertTrue(fitted.camera.zoom.isFinite && fitted.camera.center.latitude.isFinite)
        }
    }

    func testDistanceAndZoomConvertBothWaysAtSeveralLatitudes() {
        for latitude in [0.0, 30, -45, 60, 80] {
            for zoom in [0.0, 3.5, 10, 17.25, 24] {
                for height in [300.0, 768] {
                    let camera = RenderCamera(center: Coordinate(latitude: latitude, longitude: 10), zoom: zoom)
                    let distance = camera.centerCoordinateDistance(viewportHeight: height)
                    let back = RenderCamera.zoom(centerCoordinateDistance: distance, latitude: latitude, viewportHeight: height)
                    XCTAssertEqual(back, zoom, accuracy: 1e-9, "latitude \(latitude) zoom \(zoom)")
                    let looking = RenderCamera(lookingAt: camera.center, centerCoordinateDistance: distance, heading: 30, pitch: 45,
                                               viewportHeight: height)
                    XCTAssertEqual(looking.zoom, zoom, accuracy: 1e-9)
                    XCTAssertEqual(looking.heading, 30)
                }
            }
        }
        // By hand: 768 points tall, the eye is 1152 points away; at zoom 0 the equator's
        // 40,075,016.69 m span 256 points, so the eye is 1152 / 256 · 40,075,016.69 m away; at
        // 60° a meter is twice as many map points, so half the meters.
        let equator = RenderCamera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0)
        XCTAssertEqual(equator.centerCoordinateDistance(viewportHeight: 768), 1152.0 / 256 * 40_075_016.685578488, accuracy: 1e-3)
        let north = RenderCamera(center: Coordinate(latitude: 60, longitude: 0), zoom: 10)
        XCTAssertEqual(north.centerCoordinateDistance(viewportHeight: 768), 1152.0 / 256 / 1024 * 40_075_016.685578488 / 2,
                       accuracy: 1e-6)
        // Out of range or not a number: clamped to zoom 0…24, never NaN.
        let origin = Coordinate(latitude: 0, longitude: 0)
        XCTAssertEqual(RenderCamera(lookingAt: origin, centerCoordinateDistance: -5, viewportHeight: 768).zoom, 24)
        XCTAssertEqual(RenderCamera(lookingAt: origin, centerCoordinateDistance: .nan, viewportHeight: 768).zoom, 0)
        XCTAssertEqual(RenderCamera(lookingAt: origin, centerCoordinateDistance: .infinity, viewportHeight: 768).zoom, 0)
        XCTAssertEqual(RenderCamera(lookingAt: origin, centerCoordinateDistance: 1e300, viewportHeight: 768).zoom, 0)
        let range = RenderCamera.centerCoordinateDistanceRange(latitude: 0, viewportHeight: 768)
        XCTAssertEqual(range.upperBound, equator.centerCoordinateDistance(viewportHeight: 768), accuracy: 1e-6)
        XCTAssertEqual(range.lowerBound, range.upperBound / pow(2, 24), accuracy: 1e-9)
    }

    func testFitWithPitchPutsTheFootprintInThePaddedView() {
        let rect = MapRect(corner: MapPoint(Coordinate(latitude: 45, longitude: 5)), MapPoint(Coordinate(latitude: 48, longitude: 11)))
        for pitch in [0.0, 30, 60, 85] {
            for bearing in [0.0, 40] {
                let camera = RenderCamera.fitting(rect, width: 800, height: 500, padding: 40, bearing: bearing, pitch: pitch)
                XCTAssertEqual(camera.pitch, pitch)
                let screen = transform(camera)
                let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)]
                    .map { screen.device(x: $0.0, y: $0.1) }
                let minX = corners.map(\.x).min()!, maxX = corners.map(\.x).max()!
                let minY = corners.map(\.y).min()!, maxY = corners.map(\.y).max()!
                let tolerance = 0.01
                XCTAssertGreaterThanOrEqual(minX, 40 - tolerance, "pitch \(pitch) bearing \(bearing)")
                XCTAssertLessThanOrEqual(maxX, 760 + tolerance, "pitch \(pitch) bearing \(bearing)")
                XCTAssertGreaterThanOrEqual(minY, 40 - tolerance, "pitch \(pitch) bearing \(bearing)")
                XCTAssertLessThanOrEqual(maxY, 460 + tolerance, "pitch \(pitch) bearing \(bearing)")
                // Tight: it touches the padding on one axis, and is centered on the other.
                let touches = min(minX - 40, 760 - maxX) < 0.5 || min(minY - 40, 460 - maxY) < 0.5
                XCTAssertTrue(touches, "pitch \(pitch) bearing \(bearing): \(minX)…\(maxX) × \(minY)…\(maxY)")
                XCTAssertEqual(minY + maxY, 500, accuracy: 0.5, "vertically centered at pitch \(pitch)")
            }
        }
    }

    func testBearingsReduceExactlyEverywhere() {
        // fmod is exact: the double 1e300 is a multiple of 360, 1e308 is 296 more than one.
        XCTAssertEqual(RenderCamera.reducedBearing(1e300), 0)
        XCTAssertEqual(RenderCamera.reducedBearing(1e308), 296)
        XCTAssertEqual(RenderCamera.reducedBearing(-90), 270)
        XCTAssertEqual(RenderCamera.reducedBearing(-1e-20), 0)
        XCTAssertEqual(RenderCamera.reducedBearing(.infinity), 0)
        // The fit turns the rect by the same reduced angle the camera reports.
        let rect = MapRect(corner: MapPoint(Coordinate(latitude: 40, longitude: -10)), MapPoint(Coordinate(latitude: 50, longitude: 30)))
        XCTAssertEqual(RenderCamera.fitting(rect, width: 800, height: 500, padding: 10, bearing: 1e300),
                       RenderCamera.fitting(rect, width: 800, height: 500, padding: 10, bearing: 0))
        XCTAssertEqual(RenderCamera.fitting(rect, width: 800, height: 500, padding: 10, bearing: -45),
                       RenderCamera.fitting(rect, width: 800, height: 500, padding: 10, bearing: 315))
        XCTAssertTrue(RenderCamera.isReducible(-9_007_199_254_740_992))
        XCTAssertFalse(RenderCamera.isReducible(9_007_199_254_740_994))
        XCTAssertFalse(RenderCamera.isReducible(.nan))
    }
}

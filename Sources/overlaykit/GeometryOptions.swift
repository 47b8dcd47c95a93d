import ArgumentParser
import Foundation
import OverlayKit
import OverlayModel

extension ShapeSimplifier.Algorithm: ExpressibleByArgument {}

/// Clip and simplify options shared by commands that write features (`convert`).
struct GeometryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Keep only what lies inside this box (degrees).", valueName: "w,s,e,n"))
    var clip: String?

    @Option(help: "Simplify for this zoom (at zoom z one screen point is 2^(20−z) map points).")
    var zoom: Double?

    @Option(help: "Simplification tolerance in screen points at --zoom (default 1).")
    var tolerance: Double?

    @Option(help: "Simplification algorithm: dp (Douglas-Peucker) or vw (Visvalingam-Whyatt).")
    var algorithm: ShapeSimplifier.Algorithm = .douglasPeucker

    func validate() throws {
        if let zoom, !(0...30).contains(zoom) { throw ValidationError("--zoom must be 0…30") }
        if let tolerance, !(tolerance >= 0 && tolerance.isFinite) { throw ValidationError("--tolerance must be ≥ 0") }
        if tolerance != nil && zoom == nil { throw ValidationError("--tolerance needs --zoom") }
        if clip != nil { _ = try clipRect() }
    }

    /// The clip box as a map rect.
    func clipRect() throws -> MapRect? {
        guard let clip else { return nil }
        let numbers = clip.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3],
              [west, south, east, north].allSatisfy(\.isFinite) else {
            throw ValidationError("--clip takes four numbers west,south,east,north in degrees, not '\(clip)'")
        }
        guard west < east, south < north, (-180...180).contains(west), (-180...180).contains(east),
              (-90...90).contains(south), (-90...90).contains(north) else {
            throw ValidationError("--clip needs -180 ≤ west < east ≤ 180 and -90 ≤ south < north ≤ 90")
        }
        return MapRect(corner: MapPoint(Coordinate(latitude: north, longitude: west)),
                       MapPoint(Coordinate(latitude: south, longitude: east)))
    }

    /// The transform these options ask for (possibly doing nothing).
    func makeTransform() throws -> GeometryTransform {
        let simplifier = zoom.map { ShapeSimplifier(screenPoints: tolerance ?? 1, zoom: $0, algorithm: algorithm) }
        return GeometryTransform(clip: try clipRect().map { RectClip(rect: $0) }, simplifier: simplifier)
    }
}

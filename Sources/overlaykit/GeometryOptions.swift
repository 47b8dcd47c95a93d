import ArgumentParser
import Foundation
import OverlayKit
import OverlayModel

extension ShapeSimplifier.Algorithm: ExpressibleByArgument {}

/// Clip and simplify options shared by commands that write features (`convert`).
struct GeometryOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Keep only what lies inside this box (degrees; west < east).", valueName: "w,s,e,n"))
    var clip: String?

    @Option(parsing: .unconditional, help: "Simplify for this zoom (at zoom z one screen point is 2^(20−z) map points).")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "Simplification tolerance in screen points at --zoom (default 1).")
    var tolerance: Double?

    @Option(help: "Simplification algorithm: dp (Douglas-Peucker) or vw (Visvalingam-Whyatt).")
    var algorithm: ShapeSimplifier.Algorithm?

    @Flag(help: "With --zoom: simplify every polygon together so borders they share stay shared (reads the whole input first; dp only).")
    var detectSharedBorders = false

    func validate() throws {
        if let zoom, !(0...30).contains(zoom) { throw ValidationError("--zoom must be 0…30") }
        if let tolerance, !(tolerance >= 0 && tolerance.isFinite) { throw ValidationError("--tolerance must be ≥ 0") }
        if tolerance != nil && zoom == nil { throw ValidationError("--tolerance needs --zoom") }
        if detectSharedBorders && zoom == nil { throw ValidationError("--detect-shared-borders needs --zoom") }
        if detectSharedBorders && algorithm == .visvalingamWhyatt {
            throw ValidationError("--detect-shared-borders simplifies with dp (Douglas-Peucker), not vw")
        }
        if clip != nil { _ = try clipRect() }
    }

    /// The clip box as a map rect. Parsed like `filter --bbox` (one rule: west > east crosses
    /// the antimeridian). `RectClip` can clip such a box, but `convert --clip` still refuses it
    /// (TileCommandTests asserts exit 64 for `10,0,0,10`; enabling it is the lead's call).
    func clipRect() throws -> MapRect? {
        guard let clip else { return nil }
        let box: GeographicBox
        do { box = try GeographicBox(parsing: clip) } catch let diagnostic as Diagnostic {
            throw ValidationError("--clip: \(diagnostic.message)")
        }
        guard !box.crossesAntimeridian else {
            throw ValidationError("--clip: \(clip) crosses the antimeridian (west > east); convert clips one side of it at a time: give each side as its own box")
        }
        guard box.west < box.east, box.south < box.north else {
            throw ValidationError("--clip needs west < east and south < north")
        }
        return box.mapRect
    }

    /// The transform these options ask for (possibly doing nothing).
    func makeTransform() throws -> GeometryTransform {
        let simplifier = zoom.map { ShapeSimplifier(screenPoints: tolerance ?? 1, zoom: $0, algorithm: algorithm ?? .douglasPeucker) }
        var transform = GeometryTransform(clip: try clipRect().map { RectClip(rect: $0) }, simplifier: simplifier)
        if detectSharedBorders, let zoom {
            transform.simplifier = nil
            transform.sharedBorders = SharedBorderSimplifier(screenPoints: tolerance ?? 1, zoom: zoom)
        }
        return transform
    }
}

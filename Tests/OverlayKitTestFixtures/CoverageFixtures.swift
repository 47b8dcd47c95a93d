import OverlayModel

/// Polygon coverages written for the shared-border tests: every border two polygons share has
/// the same vertices in both (as a coverage must), borders wiggle so that simplification has
/// work to do, and the region they cover is a longitude/latitude rectangle.
public enum CoverageFixtures {
    /// A deterministic random source (SplitMix64).
    public struct Random: RandomNumberGenerator {
        private var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    public typealias Point = (x: Double, y: Double)

    /// The Voronoi cells of `columns` × `rows` jittered sites in the rectangle, clipped to it;
    /// each shared edge wiggles the same way for both cells. Longitudes may pass 180 (written
    /// unwrapped). Returns the cells' rings (closed, in degrees: x longitude, y latitude).
    public static func voronoi(west: Double, south: Double, east: Double, north: Double, columns: Int, rows: Int,
                        seed: UInt64) -> [[Point]] {
        var random = Random(seed: seed)
        var sites = [Point]()
        let width = (east - west) / Double(columns), height = (north - south) / Double(rows)
        for row in 0..<rows {
            for column in 0..<columns {
                sites.append((west + (Double(column) + Double.random(in: 0.15...0.85, using: &random)) * width,
                              south + (Double(row) + Double.random(in: 0.15...0.85, using: &random)) * height))
            }
        }
        let rectangle: [Point] = [(west, south), (east, south), (east, north), (west, north)]
        var welded = Welder(tolerance: 1e-9 * max(east - west, north - south))
        var cells = [[Point]]()
        for (index, site) in sites.enumerated() {
            var cell = rectangle
            for (other, neighbour) in sites.enumerated() where other != index {
                // Keep the points nearer `site`: n · p ≤ c.
                let n = (neighbour.x - site.x, neighbour.y - site.y)
                let c = (neighbour.x * neighbour.x + neighbour.y * neighbour.y - site.x * site.x - site.y * site.y) / 2
                cell = clip(cell, n, c)
            }
            cells.append(welded.weld(cell))
        }
        return wiggled(cells, onRectangle: { p, q in
            (p.x == west && q.x == west) || (p.x == east && q.x == east) || (p.y == south && q.y == south) || (p.y == north && q.y == north)
        }, seed: seed)
    }

    /// A grid of cells with wiggly shared borders where some cells hold an enclave: a polygon
    /// filling a hole of the cell (and one enclave holds an enclave of its own).
    public static func gridWithEnclaves(west: Double, south: Double, east: Double, north: Double, columns: Int, rows: Int,
                                 seed: UInt64) -> [[[Point]]] {
        let width = (east - west) / Double(columns), height = (north - south) / Double(rows)
        // One value per grid line, so neighbours' corners are the same numbers.
        let xs = (0...columns).map { $0 == columns ? east : west + Double($0) * width }
        let ys = (0...rows).map { $0 == rows ? north : south + Double($0) * height }
        var cells = [[Point]]()
        for row in 0..<rows {
            for column in 0..<columns {
                cells.append([(xs[column], ys[row]), (xs[column + 1], ys[row]), (xs[column + 1], ys[row + 1]), (xs[column], ys[row + 1])])
            }
        }
        let wavy = wiggled(cells, onRectangle: { p, q in
            (p.x == west && q.x == west) || (p.x == east && q.x == east) || (p.y == south && q.y == south) || (p.y == north && q.y == north)
        }, seed: seed)
        var random = Random(seed: seed ^ 0xE9C1)
        var polygons = [[[Point]]]()
        for (index, cell) in wavy.enumerated() {
            let row = index / columns, column = index % columns
            guard (row + column) % 3 == 0 else {
                polygons.append([cell])
                continue
            }
            let cx = west + (Double(column) + 0.5) * width, cy = south + (Double(row) + 0.5) * height
            let hole = blob(cx: cx, cy: cy, radius: 0.22 * min(width, height), points: 40, random: &random)
            polygons.append([cell, hole.reversed()])
            if (row + column) % 6 == 0 {
                let inner = blob(cx: cx, cy: cy, radius: 0.08 * min(width, height), points: 24, random: &random)
                polygons.append([hole, inner.reversed()])
                polygons.append([inner])
            } else {
                polygons.append([hole])
            }
        }
        return polygons
    }

    /// A closed wobbly ring around (cx, cy).
    private static func blob(cx: Double, cy: Double, radius: Double, points: Int, random: inout Random) -> [Point] {
        var ring = [Point]()
        for index in 0..<points {
            let angle = Double(index) / Double(points) * 2 * Double.pi
            let r = radius * Double.random(in: 0.8...1.2, using: &random)
            ring.append((cx + r * cos(angle), cy + r * sin(angle)))
        }
        ring.append(ring[0])
        return ring
    }

    /// The cells (open rings) with every edge not on the outer rectangle replaced by a wiggly
    /// line, the same points for both cells that share it; rings come back closed.
    private static func wiggled(_ cells: [[Point]], onRectangle: (Point, Point) -> Bool, seed: UInt64) -> [[Point]] {
        cells.map { cell in
            var ring = [Point]()
            for index in cell.indices {
                let p = cell[index], q = cell[(index + 1) % cell.count]
                ring.append(p)
                guard !onRectangle(p, q) else { continue }
                // The wiggle is drawn for the edge in a canonical direction, then walked as needed.
                let forward = p.x < q.x || (p.x == q.x && p.y < q.y)
                let (a, b) = forward ? (p, q) : (q, p)
                let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                guard length > 0 else { continue }
                var random = Random(seed: seed ^ UInt64(bitPattern: Int64((a.x * 1e6).rounded())) &* 31
                                    ^ UInt64(bitPattern: Int64((a.y * 1e6).rounded())) &* 131
                                    ^ UInt64(bitPattern: Int64((b.x * 1e6).rounded())) &* 1031
                                    ^ UInt64(bitPattern: Int64((b.y * 1e6).rounded())))
                let steps = 12
                var inner = [Point]()
                for step in 1..<steps {
                    let t = Double(step) / Double(steps)
                    let envelope = sin(Double.pi * t) * sin(Double.pi * t)
                    let offset = 0.06 * length * envelope * Double.random(in: -1...1, using: &random)
                    inner.append((a.x + (b.x - a.x) * t - (b.y - a.y) / length * offset,
                                  a.y + (b.y - a.y) * t + (b.x - a.x) / length * offset))
                }
                ring += forward ? inner : inner.reversed()
            }
            ring.append(ring[0])
            return ring
        }
    }

    /// Sutherland–Hodgman: the part of the open ring where n · p ≤ c.
    private static func clip(_ ring: [Point], _ n: (Double, Double), _ c: Double) -> [Point] {
        var result = [Point]()
        for index in ring.indices {
            let p = ring[index], q = ring[(index + 1) % ring.count]
            let fp = n.0 * p.x + n.1 * p.y - c, fq = n.0 * q.x + n.1 * q.y - c
            if fp <= 0 { result.append(p) }
            if (fp < 0 && fq > 0) || (fp > 0 && fq < 0) {
                let t = fp / (fp - fq)
                result.append((p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t))
            }
        }
        return result
    }

    /// Makes vertices computed separately for neighbouring cells equal: the first of a cluster
    /// closer than `tolerance` stands for all of them.
    private struct Welder {
        let tolerance: Double
        var known = [Point]()

        mutating func weld(_ ring: [Point]) -> [Point] {
            var result = [Point]()
            for point in ring {
                let match = known.first { abs($0.x - point.x) <= tolerance && abs($0.y - point.y) <= tolerance }
                let chosen = match ?? point
                if match == nil { known.append(point) }
                if let last = result.last, last == chosen { continue }
                result.append(chosen)
            }
            while result.count > 1, let first = result.first, let last = result.last, first == last { result.removeLast() }
            return result
        }
    }

    /// Features for polygons given as rings (first exterior, then holes), in degrees.
    public static func features(_ polygons: [[[Point]]]) -> [Feature] {
        polygons.enumerated().map { index, rings in
            let coordinates = rings.map { $0.map { Coordinate(latitude: $0.y, longitude: $0.x) } }
            let polygon = Polygon(coordinates: coordinates[0], interiorPolygons: coordinates.dropFirst().map { Polygon(coordinates: $0) })
            return Feature(id: .integer(Int64(index)), properties: ["cell": .integer(Int64(index))], shape: .polygon(polygon))
        }
    }

    /// The same polygons as a GeoJSON text sequence.
    public static func geoJSONSequence(_ polygons: [[[Point]]]) -> String {
        var text = ""
        for (index, rings) in polygons.enumerated() {
            let coordinates = rings.map { "[" + $0.map { "[\($0.x),\($0.y)]" }.joined(separator: ",") + "]" }.joined(separator: ",")
            text += #"{"type":"Feature","id":\#(index),"properties":{"cell":\#(index)},"geometry":{"type":"Polygon","coordinates":[\#(coordinates)]}}"# + "\n"
        }
        return text
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

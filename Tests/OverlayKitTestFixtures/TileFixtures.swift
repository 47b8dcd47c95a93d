import Foundation
import OverlayModel
@testable import OverlayKit

/// Inputs and output readers the tile tests share.
public enum TileFixtures {
    /// `count` points in a few deterministic clusters (a linear congruential generator).
    public static func clusteredPoints(_ count: Int, properties: (Int) -> String = { #"{"n":\#($0)}"# }) -> String {
        var state: UInt64 = 12345
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let centres = [(2.35, 48.85), (-74.0, 40.7), (139.7, 35.7)]
        var lines = [String]()
        for index in 0..<count {
            let centre = centres[index % centres.count]
            let lon = centre.0 + (next() - 0.5) * 2, lat = centre.1 + (next() - 0.5) * 2
            lines.append(#"{"type":"Feature","properties":\#(properties(index)),"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#)
        }
        return lines.joined(separator: "\n")
    }

    /// A GeoJSON text sequence of every kind of shape: clustered points with properties of each
    /// JSON type, lines and polygons with holes, shapes across the antimeridian, a world polygon
    /// (solid tiles), a geometry collection, a feature without geometry, tiny rectangles.
    public static func writeMixedInput(in folder: URL) throws -> String {
        var lines = [String]()
        var random = SeededGenerator(seed: 7)
        for index in 0..<1_500 {
            let x = 2.35 + Double.random(in: -0.4...0.4, using: &random), y = 48.85 + Double.random(in: -0.3...0.3, using: &random)
            let value = index % 5 == 0 ? "null" : index % 5 == 1 ? "1.0" : index % 5 == 2 ? #"{"a":[1,"b",true]}"# : index % 5 == 3 ? "\(index)" : #""name \#(index)""#
            lines.append(#"{"type":"Feature","id":\#(index),"properties":{"v":\#(value),"flag":\#(index % 2 == 0),"dup":1,"dup":2},"geometry":{"type":"Point","coordinates":[\#(x),\#(y)]}}"#)
        }
        for index in 0..<300 {
            let x = -10 + Double(index % 30) * 0.7, y = 40 + Double(index / 30) * 0.5
            lines.append(#"{"type":"Feature","id":"b\#(index)","properties":{"kind":"building"},"geometry":{"type":"Polygon","coordinates":[[[\#(x),\#(y)],[\#(x + 0.0004),\#(y)],[\#(x + 0.0004),\#(y + 0.0003)],[\#(x),\#(y + 0.0003)],[\#(x),\#(y)]]]}}"#)
        }
        lines.append(#"{"type":"Feature","properties":{"name":"ring with hole"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[20,0],[20,20],[0,20],[0,0]],[[5,5],[5,15],[15,15],[15,5],[5,5]]]}}"#)
        lines.append(#"{"type":"Feature","properties":{"name":"across the antimeridian"},"geometry":{"type":"LineString","coordinates":[[170,10],[190,12],[200,-5]]}}"#)
        lines.append(#"{"type":"Feature","properties":{"name":"west edge"},"geometry":{"type":"Polygon","coordinates":[[[-179.9,-20],[-170,-20],[-170,-10],[-179.9,-10],[-179.9,-20]]]}}"#)
        lines.append(#"{"type":"Feature","properties":{"name":"world"},"geometry":{"type":"Polygon","coordinates":[[[-180,-85],[180,-85],[180,85],[-180,85],[-180,-85]]]}}"#)
        lines.append(#"{"type":"Feature","properties":{"name":"collection"},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[30,30]},{"type":"LineString","coordinates":[[30,30],[31,31],[32,30]]}]}}"#)
        lines.append(#"{"type":"Feature","properties":{"name":"nothing"},"geometry":null}"#)
        lines.append(#"{"type":"Feature","properties":{"name":"long line"},"geometry":{"type":"LineString","coordinates":[[-60,-30],[-20,10],[40,-20],[100,40]]}}"#)
        let url = folder.appendingPathComponent("mixed-\(UUID().uuidString).geojsons")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    /// Every file under `url` (a tile directory) by relative path; a PMTiles file by its name; an
    /// MBTiles file by its tiles and metadata.
    public static func files(_ url: URL) throws -> [String: Data] {
        var result = [String: Data]()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            guard url.pathExtension == "mbtiles" else { return [url.lastPathComponent: try Data(contentsOf: url)] }
            // SQLite's pages follow the order rows were added: compare what the archive holds.
            let reader = try TileArchive.open(url.path)
            for id in try reader.tileIDs() { result["\(id.z)/\(id.x)/\(id.y)"] = Data(try reader.tile(id) ?? []) }
            result["metadata"] = Data(String(describing: reader.metadata).utf8)
            return result
        }
        for case let path as String in FileManager.default.enumerator(atPath: url.path) ?? FileManager.DirectoryEnumerator() {
            var directory: ObjCBool = false
            let file = url.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &directory), !directory.boolValue {
                result[path] = try Data(contentsOf: file)
            }
        }
        return result
    }
}

/// A small deterministic generator (SplitMix64), so a fixture or a failure is the same on every run (shared by this target's tests).
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

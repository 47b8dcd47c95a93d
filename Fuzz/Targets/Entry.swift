import Foundation
import OverlayKit

/// libFuzzer's entry point. One binary holds every target; `FUZZ_TARGET` picks which one runs
/// (`Fuzz/run.sh TARGET SECONDS` sets it). Each target reads the bytes as hostile input and must
/// neither crash, leak, hang nor trip AddressSanitizer; errors thrown for bad input are fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    FuzzTargets.selected(bytes)
    return 0
}

/// libFuzzer's set-up hook, before the first input: the selected target does its one-time work
/// here (the tile-job target cuts its small job), so the first input's time is its own and
/// is not taken for a hang.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?,
                           _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    _ = FuzzTargets.selected
    if ProcessInfo.processInfo.environment["FUZZ_TARGET"] == "tile-job" { TileJobTarget.prepare() }
    return 0
}

enum FuzzTargets {
    /// Every target by name.
    static let all: [String: ([UInt8]) -> Void] = [
        "geojson": GeoJSONTarget.run,
        "geojson-validate": GeoJSONValidateTarget.run,
        "kml": KMLTarget.run,
        "kmz": KMZTarget.run,
        "kml-validate": KMLValidateTarget.run,
        "where": WhereTarget.run,
        "tile": TileTarget.run,
        "render": RenderTarget.run,
        "mlt": MLTTarget.run,
        "mvt": MVTTarget.run,
        "pmtiles": TileSetFileTarget.run,
        "mbtiles": TileSetFileTarget.run,
        "profile": ProfileTarget.run,
        "tile-job": TileJobTarget.run,
        "geoparquet": GeoParquetTarget.run,
    ]

    /// The target named by `FUZZ_TARGET`, resolved once.
    static let selected: ([UInt8]) -> Void = {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let target = all[name] else {
            FileHandle.standardError.write(Data("FUZZ_TARGET must be one of: \(all.keys.sorted().joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()

    /// Features read from GeoJSON or GeoJSONSeq bytes, at most `limit` (errors end the read).
    static func features(_ bytes: [UInt8], limit: Int = 200) -> [Feature] {
        var reader = GeoJSONReader(input: ByteInput(bytes: bytes))
        var features: [Feature] = []
        while features.count < limit, let feature = try? reader.next() { features.append(feature) }
        return features
    }
}

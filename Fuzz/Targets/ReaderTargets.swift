import OverlayKit

/// The GeoJSON reader (FeatureCollection and GeoJSONSeq), then both writers on what it read.
enum GeoJSONTarget {
    static func run(_ bytes: [UInt8]) {
        let features = FuzzTargets.features(bytes)
        WriterRoundTrip.write(features)
    }
}

/// The KML reader on plain KML bytes, then both writers.
enum KMLTarget {
    static func run(_ bytes: [UInt8]) {
        guard var reader = try? KMLReader(input: ByteInput(bytes: bytes)) else { return }
        var features: [Feature] = []
        while features.count < 200, let feature = try? reader.next() { features.append(feature) }
        _ = reader.takeWarnings()
        WriterRoundTrip.write(features)
    }
}

/// The KMZ reader on zip bytes (limits small, so a bomb is refused fast).
enum KMZTarget {
    static func run(_ bytes: [UInt8]) {
        let limits = KMZ.Limits(maximumEntryBytes: 8 << 20, maximumRatio: 200, ratioCheckedAbove: 1 << 20)
        guard var reader = try? KMZ.reader(for: ByteInput(bytes: bytes), limits: limits) else { return }
        var count = 0
        while count < 200, (try? reader.next()) != nil { count += 1 }
        for name in reader.resources?.names.prefix(4) ?? [] { _ = try? reader.resources?.contents(of: name) }
    }
}

/// GeoParquet: the first byte picks the footer and page decoders (a whole file, read to its
/// end or its first error) or the WKB reader alone (the rest of the bytes as one geometry); with
/// bit 1 set, the file is read with a query box, so the row-group statistics and the page index
/// (ColumnIndex, OffsetIndex, the pages read by it and the rows cut to it) are used.
enum GeoParquetTarget {
    static func run(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        if mode & 1 == 1 {
            _ = try? WKBReader.shape(bytes.dropFirst())
            return
        }
        var hints = FeatureReadHints()
        if mode & 2 == 2 { hints.extent = try? GeographicBox(west: -30, south: -90, east: -20, north: 90) }
        guard var reader = try? GeoParquetReader(input: ByteInput(bytes: Array(bytes.dropFirst())), hints: hints) else { return }
        var count = 0
        while count < 2000, (try? reader.next()) != nil { count += 1 }
    }
}

/// Writes features as GeoJSON, GeoJSONSeq, KML and KMZ into memory: writers must accept
/// whatever a reader produced.
enum WriterRoundTrip {
    static func write(_ features: [Feature]) {
        for format in [FileFormat.geojson, .geojsonseq, .kml] {
            let output = ByteOutput()
            guard var writer = try? FeatureIO.writer(for: format, output: output) else { continue }
            for feature in features { try? writer.write(feature) }
            try? writer.finish()
        }
    }
}

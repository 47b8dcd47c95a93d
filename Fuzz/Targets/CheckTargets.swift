import OverlayKit

/// `validate` on GeoJSON: the located JSON reader, structure checks and geometry validity.
enum GeoJSONValidateTarget {
    static func run(_ bytes: [UInt8]) {
        _ = Validator.validate(ByteInput(bytes: bytes), format: .geojson)
    }
}

/// `validate` on KML: structure, references and the OGC ATS rules at every level.
enum KMLValidateTarget {
    static func run(_ bytes: [UInt8]) {
        _ = Validator.validate(ByteInput(bytes: bytes), format: .kml, options: ValidationOptions(atsLevel: 3))
    }
}

/// `--where`: the first line is the expression, the rest GeoJSON features to evaluate it on.
enum WhereTarget {
    static func run(_ bytes: [UInt8]) {
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        let expression = String(decoding: bytes[..<newline], as: UTF8.self)
        var filter = FeatureFilter()
        guard let parsed = try? WhereExpression(parsing: expression) else { return }
        filter.expression = parsed
        let rest = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
        for feature in FuzzTargets.features(rest, limit: 50) { _ = try? filter.matches(feature) }
    }
}

import OverlayModel

/// The reader behind a streaming filter: a GeoJSON one can copy a feature's bytes through and
/// skip a bad feature; other readers can do neither.
enum FilterSource {
    case geoJSON(GeoJSONReader)
    case other(any FeatureReader)

    mutating func next() throws -> Feature? {
        switch self {
        case .geoJSON(var reader):
            defer { self = .geoJSON(reader) }
            return try reader.next()
        case .other(var reader):
            defer { self = .other(reader) }
            return try reader.next()
        }
    }

    mutating func takeWarnings() -> [Diagnostic] {
        switch self {
        case .geoJSON(var reader):
            defer { self = .geoJSON(reader) }
            return reader.takeWarnings()
        case .other(var reader):
            defer { self = .other(reader) }
            return reader.takeWarnings()
        }
    }

    /// Skips past the feature that failed; other readers cannot, so the error stands.
    mutating func resumeAfterError() throws {
        guard case .geoJSON(var reader) = self else {
            throw Diagnostic(.error, code: .filterCannotResume,
                             message: "--on-error skip/report needs GeoJSON or GeoJSONSeq input; this reader cannot skip a bad feature")
        }
        defer { self = .geoJSON(reader) }
        try reader.resumeAfterError()
    }

    func withLastFeatureBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        guard case .geoJSON(let reader) = self else { return nil }
        return try reader.withLastFeatureBytes(body)
    }
}

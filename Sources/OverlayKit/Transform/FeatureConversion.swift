import OverlayModel

/// `overlaykit convert` as one call: every feature a reader has left, through a geometry
/// transform, into a writer, with what the document holds besides features carried over.
public enum FeatureConversion {
    /// Reads `reader` to its end into `writer` (features `transform` drops are not written) and
    /// finishes the writer; the caller commits its output. Features stream through one at a
    /// time, except with shared borders, which are found among all polygons: then everything is
    /// read first.
    /// - Parameters:
    ///   - reader: the input, read ahead on a second core where that helps.
    ///   - writer: the output's writer, finished on return.
    ///   - transform: the clip and simplification (``GeometryTransform/summary`` is its note).
    ///   - onWarning: what the reader and the writer report, in order, and what the writer
    ///     could not carry of the document (a KMZ's files, a collection's members).
    /// - Throws: what reading or writing throws; `Diagnostic` `io.thread-failed` when the read
    ///   ahead cannot start.
    public static func convert(_ reader: any FeatureReader, into writer: inout some FeatureWriter,
                               transform: inout GeometryTransform, onWarning: (Diagnostic) -> Void) throws {
        var reader = try ReadAheadFeatureReader.whenUseful(reader)
        if transform.sharedBorders != nil {
            var features = [Feature]()
            while let read = try reader.next() {
                reader.takeWarnings().forEach(onWarning)
                features.append(read)
            }
            reader.takeWarnings().forEach(onWarning)
            for feature in transform.apply(all: features) {
                try writer.write(feature)
                writer.takeWarnings().forEach(onWarning)
            }
        }
        while let read = try reader.next() {
            reader.takeWarnings().forEach(onWarning)
            guard let feature = transform.apply(read) else { continue }
            try writer.write(feature)
            writer.takeWarnings().forEach(onWarning)
        }
        reader.takeWarnings().forEach(onWarning)
        writer.carry(reader.documentContext).forEach(onWarning)
        try writer.finish()
        writer.takeWarnings().forEach(onWarning)
    }
}

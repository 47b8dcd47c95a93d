import Foundation
import OverlayModel

/// A whole document read into memory: its features, the warnings met on the way and what it
/// carries besides features.
public struct FeatureDocument {
    /// Every feature, in document order.
    public var features: [Feature]
    /// Warnings about the input (nothing is dropped without one).
    public var warnings: [Diagnostic]
    /// A KMZ's embedded files, a FeatureCollection's other members.
    public var context: DocumentContext
}

extension FeatureIO {
    /// Reads a whole file (or standard input for `"-"`): the one call a MapKit user needs to
    /// get overlays from GeoJSON, GeoJSONSeq, KML or KMZ.
    ///
    ///     let document = try FeatureIO.readAll(path: "Examples/places.kml")
    ///     for feature in document.features { print(feature.shape?.kind as Any) }
    ///
    /// - Parameters:
    ///   - path: the file, or `"-"` for standard input.
    ///   - format: the format; nil tells it from the extension, else the first bytes.
    /// - Throws: a `Diagnostic` with file:line:column for the first error.
    public static func readAll(path: String, format: FileFormat? = nil) throws -> FeatureDocument {
        try readAll(ByteInput(path: path), format: format)
    }

    /// Reads a whole input held in memory or opened by the caller.
    public static func readAll(_ input: ByteInput, format: FileFormat? = nil) throws -> FeatureDocument {
        var reader = try reader(for: input, format: format)
        var document = FeatureDocument(features: [], warnings: [], context: DocumentContext())
        while let feature = try reader.next() {
            document.features.append(feature)
            document.warnings += reader.takeWarnings()
        }
        document.warnings += reader.takeWarnings()
        document.context = reader.documentContext
        return document
    }

    /// The features written as one document of `format` (GeoJSON, GeoJSONSeq, KML or KMZ), in
    /// memory.
    /// - Parameters:
    ///   - features: the features, in order.
    ///   - format: GeoJSON, GeoJSONSeq, KML or KMZ.
    ///   - options: coordinate precision and document name.
    ///   - context: a reader's document context to carry (KMZ files, collection members).
    ///   - warnings: receives what the format could not hold.
    public static func encode(_ features: [Feature], as format: FileFormat, options: WriterOptions = WriterOptions(),
                              context: DocumentContext = DocumentContext(),
                              warnings: ((Diagnostic) -> Void)? = nil) throws -> [UInt8] {
        let output = ByteOutput()
        var writer = try writer(for: format, output: output, options: options)
        for feature in features {
            try writer.write(feature)
            writer.takeWarnings().forEach { warnings?($0) }
        }
        writer.carry(context).forEach { warnings?($0) }
        try writer.finish()
        writer.takeWarnings().forEach { warnings?($0) }
        return output.bytes
    }

    /// The features as GeoJSON (or another text format) in a `String`.
    public static func string(_ features: [Feature], as format: FileFormat = .geojson,
                              options: WriterOptions = WriterOptions()) throws -> String {
        String(decoding: try encode(features, as: format, options: options), as: UTF8.self)
    }

    /// The features as `Data` in any feature format (KMZ included).
    public static func data(_ features: [Feature], as format: FileFormat = .geojson,
                            options: WriterOptions = WriterOptions()) throws -> Data {
        Data(try encode(features, as: format, options: options))
    }
}

import OverlayModel

/// Hands out an array's features one at a time: features already in memory through the
/// `FeatureReader` seam (a render source's pass, a served feature list).
package struct FeatureArrayReader: FeatureReader {
    private let features: [Feature]
    private var index = 0

    /// A reader over `features`, from the first.
    package init(features: [Feature]) {
        self.features = features
    }

    package mutating func next() throws -> Feature? {
        guard index < features.count else { return nil }
        defer { index += 1 }
        return features[index]
    }

    package mutating func takeWarnings() -> [Diagnostic] { [] }

    package var documentContext: DocumentContext { DocumentContext() }
}

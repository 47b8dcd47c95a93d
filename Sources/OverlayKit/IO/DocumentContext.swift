import OverlayModel

/// What a document carries besides its features, handed from a ``FeatureReader`` to a
/// ``FeatureWriter`` so a conversion keeps it where the output format has a place for it.
public struct DocumentContext {
    /// Files embedded beside the document: a KMZ's icons, images and models.
    public var resources: KMZResources?
    /// The members of a GeoJSON `FeatureCollection` besides `type` and `features` (`name`,
    /// `crs`, foreign members…), in source order.
    public var collectionMembers = JSONObject()

    /// A context holding the given parts.
    public init(resources: KMZResources? = nil, collectionMembers: JSONObject = JSONObject()) {
        self.resources = resources
        self.collectionMembers = collectionMembers
    }

    /// True when there is nothing to carry.
    public var isEmpty: Bool { resources == nil && collectionMembers.isEmpty }
}

extension FeatureReader {
    /// Nothing beyond the features, for readers of formats without a document context.
    public var documentContext: DocumentContext { DocumentContext() }
}

extension FeatureWriter {
    /// Keeps nothing: warns about collection members, which have no place in the format.
    public mutating func carry(_ context: DocumentContext) -> [Diagnostic] {
        DocumentContext.droppedMembers(context, formatName: "this output format")
    }
}

extension DocumentContext {
    /// The warning for collection members a format has no place for (none when there are none).
    static func droppedMembers(_ context: DocumentContext, formatName: String) -> [Diagnostic] {
        guard !context.collectionMembers.isEmpty else { return [] }
        return [Diagnostic(.warning, code: "convert.dropped-members",
                           message: "FeatureCollection members " + context.collectionMembers.keys.joined(separator: ", ")
                               + " have no place in \(formatName) and are not written")]
    }
}

extension GeoJSONReader {
    /// The collection's members besides its features; complete once ``next()`` returned nil.
    public var documentContext: DocumentContext { DocumentContext(collectionMembers: collectionMembers) }
}

extension KMLReader {
    /// A KMZ's embedded files; the outermost Document's name as the collection's `name`, and
    /// the collection members its ExtendedData carries.
    public var documentContext: DocumentContext {
        DocumentContext(resources: resources, collectionMembers: documentMembers)
    }
}

extension GeoJSONWriter {
    /// Writes the collection members after the features (a KMZ's files have no place in GeoJSON).
    public mutating func carry(_ context: DocumentContext) -> [Diagnostic] {
        collectionMembers = context.collectionMembers
        return []
    }
}

extension KMLWriter {
    /// Puts a KMZ's files into a KMZ written from it, a collection's string `name` into
    /// `Document/name` (unless ``WriterOptions/name`` gave one), and its other members into the
    /// Document's `ExtendedData` (`overlaykit:member:` Data). Only a string `name` the options
    /// override is not written (with a warning).
    public mutating func carry(_ context: DocumentContext) -> [Diagnostic] {
        if context.resources != nil { resources = context.resources }
        var rest = context.collectionMembers
        var overridden = DocumentContext()
        if case .string(let name)? = rest["name"] {
            if !takeDocumentName(name) { overridden.collectionMembers["name"] = rest["name"] }
            rest["name"] = nil
        }
        takeDocumentMembers(rest)
        return DocumentContext.droppedMembers(overridden, formatName: "a KML document the writer's options name")
    }
}

import OverlayModel

/// What a document carries besides its features, handed from a ``FeatureReader`` to a
/// ``FeatureWriter`` so a conversion keeps it where the output format has a place for it.
public struct DocumentContext {
    /// Files embedded beside the document: a KMZ's icons, images and models.
    public var resources: KMZResources?
    /// The members of a GeoJSON `FeatureCollection` besides `type` and `features` (`name`,
    /// `crs`, foreign members…), in source order.
    public var collectionMembers = JSONObject()
    /// KMZ entries among ``resources`` whose features were read into the stream (KML reached
    /// through a `NetworkLink`): a format without a place for the files loses nothing of them.
    public var entriesRead: Set<String> = []

    /// A context holding the given parts.
    public init(resources: KMZResources? = nil, collectionMembers: JSONObject = JSONObject(), entriesRead: Set<String> = []) {
        self.resources = resources
        self.collectionMembers = collectionMembers
        self.entriesRead = entriesRead
    }

    /// True when there is nothing to carry.
    public var isEmpty: Bool { resources == nil && collectionMembers.isEmpty }
}

extension FeatureReader {
    /// Nothing beyond the features, for readers of formats without a document context.
    public var documentContext: DocumentContext { DocumentContext() }
}

extension DocumentContext {
    /// Resources named one by one in warnings; the rest are counted in one more.
    static let namedResourceLimit = 20

    /// One warning per KMZ file a format has no place for (the first
    /// `namedResourceLimit`, then one for the rest, naming the first and last of them); an entry
    /// whose features were read (``entriesRead``) is in the output already and is not named.
    static func droppedResources(_ context: DocumentContext, formatName: String) -> [Diagnostic] {
        let names = (context.resources?.names ?? []).filter { !context.entriesRead.contains($0) }
        var warnings = names.prefix(namedResourceLimit).map { name in
            Diagnostic(.warning, code: .convertDroppedResource,
                       message: "the KMZ file \(name) has no place in \(formatName) and is not written (write .kmz to keep it)")
        }
        if names.count > namedResourceLimit, let first = names.dropFirst(namedResourceLimit).first, let last = names.last {
            warnings.append(Diagnostic(.warning, code: .convertDroppedResource,
                                       message: "\(names.count - namedResourceLimit) more KMZ files (\(first) … \(last)) have no place in \(formatName) and are not written"))
        }
        return warnings
    }

    /// The warning for collection members a format has no place for (none when there are none).
    static func droppedMembers(_ context: DocumentContext, formatName: String) -> [Diagnostic] {
        guard !context.collectionMembers.isEmpty else { return [] }
        return [Diagnostic(.warning, code: .convertDroppedMembers,
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
        DocumentContext(resources: resources, collectionMembers: documentMembers, entriesRead: networkLinks?.entriesRead ?? [])
    }
}

extension GeoJSONWriter {
    /// Writes the collection members after the features; a KMZ's files have no place in
    /// GeoJSON: each is named in a `convert.dropped-resource` warning.
    public mutating func carry(_ context: DocumentContext) -> [Diagnostic] {
        collectionMembers = context.collectionMembers
        return DocumentContext.droppedResources(context, formatName: "GeoJSON")
    }
}

extension KMLWriter {
    /// Puts a KMZ's files into a KMZ written from it (bare KML has no place for them: each is
    /// named in a `convert.dropped-resource` warning), a collection's string `name` into
    /// `Document/name` (unless ``WriterOptions/name`` gave one), and its other members into the
    /// Document's `ExtendedData` (`overlaykit:member:` Data). Only a string `name` the options
    /// override is not written (with a warning).
    public mutating func carry(_ context: DocumentContext) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if isKMZ {
            if context.resources != nil { resources = context.resources }
        } else {
            warnings = DocumentContext.droppedResources(context, formatName: "KML (only KMZ holds files)")
        }
        var rest = context.collectionMembers
        var overridden = DocumentContext()
        if case .string(let name)? = rest["name"] {
            if !takeDocumentName(name) { overridden.collectionMembers["name"] = rest["name"] }
            rest["name"] = nil
        }
        takeDocumentMembers(rest)
        return warnings + DocumentContext.droppedMembers(overridden, formatName: "a KML document the writer's options name")
    }
}

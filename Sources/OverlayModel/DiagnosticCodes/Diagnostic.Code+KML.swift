// KML reading and writing.

extension Diagnostic.Code {
    /// `kml.bad-coordinate` (finding): A coordinate tuple is malformed; it is dropped.
    public static let kmlBadCoordinate = Diagnostic.Code("kml.bad-coordinate", kind: .finding)
    /// `kml.duplicate-id` (finding): A feature id repeats an earlier one; KML ids are unique, so repeated ids are written as ExtendedData.
    public static let kmlDuplicateId = Diagnostic.Code("kml.duplicate-id", kind: .finding)
    /// `kml.duplicate-property` (finding): Two ExtendedData fields of one feature have the same name.
    public static let kmlDuplicateProperty = Diagnostic.Code("kml.duplicate-property", kind: .finding)
    /// `kml.empty` (data): The input holds no KML element.
    public static let kmlEmpty = Diagnostic.Code("kml.empty", kind: .data)
    /// `kml.empty-document` (data): The document has no root element (empty, or only a prolog).
    public static let kmlEmptyDocument = Diagnostic.Code("kml.empty-document", kind: .data)
    /// `kml.empty-geometry` (finding): A geometry has no coordinates; it is read as no geometry.
    public static let kmlEmptyGeometry = Diagnostic.Code("kml.empty-geometry", kind: .finding)
    /// `kml.external-style` (finding): A styleUrl names a style in another document; it is not fetched.
    public static let kmlExternalStyle = Diagnostic.Code("kml.external-style", kind: .finding)
    /// `kml.extra-coordinates` (finding): A coordinate tuple has more than three values; the extra are dropped.
    public static let kmlExtraCoordinates = Diagnostic.Code("kml.extra-coordinates", kind: .finding)
    /// `kml.extra-geometry` (finding): A feature has more than one geometry; only the first is kept.
    public static let kmlExtraGeometry = Diagnostic.Code("kml.extra-geometry", kind: .finding)
    /// `kml.findings-not-listed` (finding): More findings of one code than are listed; the rest are counted.
    public static let kmlFindingsNotListed = Diagnostic.Code("kml.findings-not-listed", kind: .finding)
    /// `kml.gml-geometry` (finding): A GML geometry (GDAL writes them) stands where KML is expected; it is read as the matching overlay.
    public static let kmlGmlGeometry = Diagnostic.Code("kml.gml-geometry", kind: .finding)
    /// `kml.ignored-element` (finding): An element with no feature meaning is not read.
    public static let kmlIgnoredElement = Diagnostic.Code("kml.ignored-element", kind: .finding)
    /// `kml.invalid-value` (finding): A value cannot be read as its KML type; the message says what is kept instead.
    public static let kmlInvalidValue = Diagnostic.Code("kml.invalid-value", kind: .finding)
    /// `kml.joined-tuples` (finding): Two coordinate tuples are run together without whitespace; they are split.
    public static let kmlJoinedTuples = Diagnostic.Code("kml.joined-tuples", kind: .finding)
    /// `kml.late-schema` (finding): A Schema is defined too late to type the placemarks that use it (standard input); values are read as text.
    public static let kmlLateSchema = Diagnostic.Code("kml.late-schema", kind: .finding)
    /// `kml.legacy-markup` (finding): Pre-KML 2.2 markup (a placemark declared by `<Schema parent="Placemark">`) is read as a Placemark.
    public static let kmlLegacyMarkup = Diagnostic.Code("kml.legacy-markup", kind: .finding)
    /// `kml.missing-schema` (finding): SchemaData names a Schema the document does not define.
    public static let kmlMissingSchema = Diagnostic.Code("kml.missing-schema", kind: .finding)
    /// `kml.missing-style` (finding): A styleUrl names a style the document does not define.
    public static let kmlMissingStyle = Diagnostic.Code("kml.missing-style", kind: .finding)
    /// `kml.not-fetched` (finding): A NetworkLink or overlay is kept as a feature; its link is not fetched.
    public static let kmlNotFetched = Diagnostic.Code("kml.not-fetched", kind: .finding)
    /// `kml.not-kml` (data): The root element is not `kml`.
    public static let kmlNotKml = Diagnostic.Code("kml.not-kml", kind: .data)
    /// `kml.not-written` (finding): Something KML cannot hold is not written.
    public static let kmlNotWritten = Diagnostic.Code("kml.not-written", kind: .finding)
    /// `kml.reader-failed` (data): libxml2 could not start a parser.
    public static let kmlReaderFailed = Diagnostic.Code("kml.reader-failed", kind: .data)
    /// `kml.schema-unreadable` (data): The XSD given with `--schema` cannot be read or compiled.
    public static let kmlSchemaUnreadable = Diagnostic.Code("kml.schema-unreadable", kind: .data)
    /// `kml.short-line` (finding): A line or track has one position; it is read as a Point (a track inside a MultiTrack is dropped).
    public static let kmlShortLine = Diagnostic.Code("kml.short-line", kind: .finding)
    /// `kml.short-ring` (finding): A LinearRing has fewer than four positions; it is dropped.
    public static let kmlShortRing = Diagnostic.Code("kml.short-ring", kind: .finding)
    /// `kml.too-deep` (data): Elements nest deeper than the reader allows.
    public static let kmlTooDeep = Diagnostic.Code("kml.too-deep", kind: .data)
    /// `kml.track-count-mismatch` (finding): A gx:Track has a different number of `when` and `gx:coord` elements.
    public static let kmlTrackCountMismatch = Diagnostic.Code("kml.track-count-mismatch", kind: .finding)
    /// `kml.track-mismatch` (finding): A gx:Track has a different number of times and positions; times are kept as given.
    public static let kmlTrackMismatch = Diagnostic.Code("kml.track-mismatch", kind: .finding)
    /// `kml.truncated` (data): The document ends inside an element.
    public static let kmlTruncated = Diagnostic.Code("kml.truncated", kind: .data)
    /// `kml.undeclared-prefix` (finding): An element uses a namespace prefix with no declaration; it is read as if declared.
    public static let kmlUndeclaredPrefix = Diagnostic.Code("kml.undeclared-prefix", kind: .finding)
    /// `kml.unused-style` (finding): A shared style can never be used (a Style or StyleMap without id); it is skipped.
    public static let kmlUnusedStyle = Diagnostic.Code("kml.unused-style", kind: .finding)
    /// `kml.xml-warning` (finding): libxml2 warns about the XML.
    public static let kmlXmlWarning = Diagnostic.Code("kml.xml-warning", kind: .finding)

    /// The codes above, in order, for ``allDeclared``.
    static let kmlCodes: [Diagnostic.Code] = [
        .kmlBadCoordinate,
        .kmlDuplicateId,
        .kmlDuplicateProperty,
        .kmlEmpty,
        .kmlEmptyDocument,
        .kmlEmptyGeometry,
        .kmlExternalStyle,
        .kmlExtraCoordinates,
        .kmlExtraGeometry,
        .kmlFindingsNotListed,
        .kmlGmlGeometry,
        .kmlIgnoredElement,
        .kmlInvalidValue,
        .kmlJoinedTuples,
        .kmlLateSchema,
        .kmlLegacyMarkup,
        .kmlMissingSchema,
        .kmlMissingStyle,
        .kmlNotFetched,
        .kmlNotKml,
        .kmlNotWritten,
        .kmlReaderFailed,
        .kmlSchemaUnreadable,
        .kmlShortLine,
        .kmlShortRing,
        .kmlTooDeep,
        .kmlTrackCountMismatch,
        .kmlTrackMismatch,
        .kmlTruncated,
        .kmlUndeclaredPrefix,
        .kmlUnusedStyle,
        .kmlXmlWarning,
    ]
}

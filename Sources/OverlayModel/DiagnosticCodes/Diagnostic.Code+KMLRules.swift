// KML validation rules (OverlayKit's `KMLRuleCatalog` gives each its OGC ATS test and level).

extension Diagnostic.Code {
    /// `kml.root` (finding): KML rule: the root element is kml.
    public static let kmlRoot = Diagnostic.Code("kml.root", kind: .finding)
    /// `kml.no-root` (finding): KML rule: the document has a root element.
    public static let kmlNoRoot = Diagnostic.Code("kml.no-root", kind: .finding)
    /// `kml.namespace` (finding): KML rule: the root is in a KML namespace.
    public static let kmlNamespace = Diagnostic.Code("kml.namespace", kind: .finding)
    /// `kml.xml-syntax` (data): KML rule: well-formed XML.
    public static let kmlXmlSyntax = Diagnostic.Code("kml.xml-syntax", kind: .data)
    /// `kml.entity-reference` (data): KML rule: no entity references (never expanded).
    public static let kmlEntityReference = Diagnostic.Code("kml.entity-reference", kind: .data)
    /// `kml.unknown-element` (finding): KML rule: every element is a KML 2.2 (or gx) element.
    public static let kmlUnknownElement = Diagnostic.Code("kml.unknown-element", kind: .finding)
    /// `kml.misplaced-element` (finding): KML rule: every element is allowed in its parent.
    public static let kmlMisplacedElement = Diagnostic.Code("kml.misplaced-element", kind: .finding)
    /// `kml.missing-child` (finding): KML rule: required children (Polygon outerBoundaryIs, coordinates, Pair key).
    public static let kmlMissingChild = Diagnostic.Code("kml.missing-child", kind: .finding)
    /// `kml.missing-attribute` (finding): KML rule: SimpleField name and type, SimpleData name.
    public static let kmlMissingAttribute = Diagnostic.Code("kml.missing-attribute", kind: .finding)
    /// `kml.boundary-rings` (finding): KML rule: one LinearRing per boundary.
    public static let kmlBoundaryRings = Diagnostic.Code("kml.boundary-rings", kind: .finding)
    /// `kml.enum-value` (finding): KML rule: enumerated values (altitudeMode, refreshMode, viewRefreshMode, booleans…).
    public static let kmlEnumValue = Diagnostic.Code("kml.enum-value", kind: .finding)
    /// `kml.number-syntax` (finding): KML rule: numeric values are xsd:double.
    public static let kmlNumberSyntax = Diagnostic.Code("kml.number-syntax", kind: .finding)
    /// `kml.value-range` (finding): KML rule: angles within their schema type (latitude ±90, longitude ±180…).
    public static let kmlValueRange = Diagnostic.Code("kml.value-range", kind: .finding)
    /// `kml.empty-value` (finding): KML rule: an empty numeric or enumerated value (readers take the default).
    public static let kmlEmptyValue = Diagnostic.Code("kml.empty-value", kind: .finding)
    /// `kml.time-syntax` (finding): KML rule: when/begin/end are dateTime, date, gYearMonth or gYear.
    public static let kmlTimeSyntax = Diagnostic.Code("kml.time-syntax", kind: .finding)
    /// `kml.schema` (finding): KML rule: `--schema`: the XSD.
    public static let kmlSchema = Diagnostic.Code("kml.schema", kind: .finding)
    /// `kml.data-uom` (finding): KML rule: Data and SimpleField uom only in KML 2.3, naming a known unit (UCUM code or URI).
    public static let kmlDataUom = Diagnostic.Code("kml.data-uom", kind: .finding)
    /// `kml.coordinate-syntax` (finding): KML rule: coordinates are 2D/3D tuples of decimals.
    public static let kmlCoordinateSyntax = Diagnostic.Code("kml.coordinate-syntax", kind: .finding)
    /// `kml.coordinate-extra` (finding): KML rule: no more than 3 values in a tuple.
    public static let kmlCoordinateExtra = Diagnostic.Code("kml.coordinate-extra", kind: .finding)
    /// `kml.coordinate-range` (finding): KML rule: positions within WGS 84 ranges (Annex B).
    public static let kmlCoordinateRange = Diagnostic.Code("kml.coordinate-range", kind: .finding)
    /// `kml.timespan-empty` (finding): KML rule: TimeSpan has begin or end.
    public static let kmlTimespanEmpty = Diagnostic.Code("kml.timespan-empty", kind: .finding)
    /// `kml.timespan-order` (finding): KML rule: TimeSpan begin is before end.
    public static let kmlTimespanOrder = Diagnostic.Code("kml.timespan-order", kind: .finding)
    /// `kml.timestamp-when-missing` (finding): KML rule: TimeStamp has when.
    public static let kmlTimestampWhenMissing = Diagnostic.Code("kml.timestamp-when-missing", kind: .finding)
    /// `kml.style-url-missing` (finding): KML rule: a styleUrl #fragment names a style in the document.
    public static let kmlStyleUrlMissing = Diagnostic.Code("kml.style-url-missing", kind: .finding)
    /// `kml.style-url-fragment` (finding): KML rule: a styleUrl has a fragment.
    public static let kmlStyleUrlFragment = Diagnostic.Code("kml.style-url-fragment", kind: .finding)
    /// `kml.style-url-scheme` (finding): KML rule: an absolute styleUrl is http(s) or file.
    public static let kmlStyleUrlScheme = Diagnostic.Code("kml.style-url-scheme", kind: .finding)
    /// `kml.style-url-wrong-kind` (finding): KML rule: a styleUrl #fragment names a Style or StyleMap, not another element.
    public static let kmlStyleUrlWrongKind = Diagnostic.Code("kml.style-url-wrong-kind", kind: .finding)
    /// `kml.shared-style-parent` (finding): KML rule: a style named by styleUrl is a child of Document.
    public static let kmlSharedStyleParent = Diagnostic.Code("kml.shared-style-parent", kind: .finding)
    /// `kml.latlonaltbox-extent` (finding): KML rule: LatLonAltBox north > south, east > west.
    public static let kmlLatlonaltboxExtent = Diagnostic.Code("kml.latlonaltbox-extent", kind: .finding)
    /// `kml.latlonaltbox-altitude` (finding): KML rule: LatLonAltBox minAltitude ≤ maxAltitude, not clampToGround when both given.
    public static let kmlLatlonaltboxAltitude = Diagnostic.Code("kml.latlonaltbox-altitude", kind: .finding)
    /// `kml.link-value-not-positive` (finding): KML rule: refreshInterval, viewRefreshTime, viewBoundScale > 0.
    public static let kmlLinkValueNotPositive = Diagnostic.Code("kml.link-value-not-positive", kind: .finding)
    /// `kml.latlonbox-incomplete` (finding): KML rule: LatLonBox has north, south, east, west.
    public static let kmlLatlonboxIncomplete = Diagnostic.Code("kml.latlonbox-incomplete", kind: .finding)
    /// `kml.latlonbox-extent` (finding): KML rule: LatLonBox north > south, east > west.
    public static let kmlLatlonboxExtent = Diagnostic.Code("kml.latlonbox-extent", kind: .finding)
    /// `kml.extrude-clamped` (finding): KML rule: extrude only with an altitudeMode other than clampToGround.
    public static let kmlExtrudeClamped = Diagnostic.Code("kml.extrude-clamped", kind: .finding)
    /// `kml.tessellate-altitude` (finding): KML rule: tessellate only with clampToGround.
    public static let kmlTessellateAltitude = Diagnostic.Code("kml.tessellate-altitude", kind: .finding)
    /// `kml.point-coordinates` (finding): KML rule: a Point has one tuple.
    public static let kmlPointCoordinates = Diagnostic.Code("kml.point-coordinates", kind: .finding)
    /// `kml.line-too-short` (finding): KML rule: a LineString has two or more tuples.
    public static let kmlLineTooShort = Diagnostic.Code("kml.line-too-short", kind: .finding)
    /// `kml.ring-too-short` (finding): KML rule: a LinearRing has four or more tuples.
    public static let kmlRingTooShort = Diagnostic.Code("kml.ring-too-short", kind: .finding)
    /// `kml.ring-not-closed` (finding): KML rule: a LinearRing ends where it starts.
    public static let kmlRingNotClosed = Diagnostic.Code("kml.ring-not-closed", kind: .finding)
    /// `kml.viewvolume-incomplete` (finding): KML rule: ViewVolume has the four fields of view and a non-negative near.
    public static let kmlViewvolumeIncomplete = Diagnostic.Code("kml.viewvolume-incomplete", kind: .finding)
    /// `kml.min-refresh-period` (finding): KML rule: minRefreshPeriod ≥ 0.
    public static let kmlMinRefreshPeriod = Diagnostic.Code("kml.min-refresh-period", kind: .finding)
    /// `kml.empty-object` (finding): KML rule: an object outside Update is not empty or has an id.
    public static let kmlEmptyObject = Diagnostic.Code("kml.empty-object", kind: .finding)
    /// `kml.update-target-href` (finding): KML rule: Update targetHref is a URL (absolute, or relative to this document).
    public static let kmlUpdateTargetHref = Diagnostic.Code("kml.update-target-href", kind: .finding)
    /// `kml.update-target-id` (finding): KML rule: objects in Create/Delete/Change have targetId and no id.
    public static let kmlUpdateTargetId = Diagnostic.Code("kml.update-target-id", kind: .finding)
    /// `kml.phone-number-uri` (finding): KML rule: phoneNumber is a tel: URI.
    public static let kmlPhoneNumberUri = Diagnostic.Code("kml.phone-number-uri", kind: .finding)
    /// `kml.schema-id-missing` (finding): KML rule: Schema has an id.
    public static let kmlSchemaIdMissing = Diagnostic.Code("kml.schema-id-missing", kind: .finding)
    /// `kml.simple-field-type` (finding): KML rule: SimpleField type is one of the eight KML types (bare or xsd:-prefixed).
    public static let kmlSimpleFieldType = Diagnostic.Code("kml.simple-field-type", kind: .finding)
    /// `kml.schema-url-missing` (finding): KML rule: SchemaData schemaUrl names a Schema of the document by its id.
    public static let kmlSchemaUrlMissing = Diagnostic.Code("kml.schema-url-missing", kind: .finding)
    /// `kml.schema-url-wrong-kind` (finding): KML rule: SchemaData schemaUrl names a Schema, not another element.
    public static let kmlSchemaUrlWrongKind = Diagnostic.Code("kml.schema-url-wrong-kind", kind: .finding)
    /// `kml.simple-data-unknown-field` (finding): KML rule: SimpleData names a SimpleField of its Schema.
    public static let kmlSimpleDataUnknownField = Diagnostic.Code("kml.simple-data-unknown-field", kind: .finding)
    /// `kml.simple-data-type` (finding): KML rule: SimpleData values fit their SimpleField type.
    public static let kmlSimpleDataType = Diagnostic.Code("kml.simple-data-type", kind: .finding)
    /// `kml.data-name-duplicate` (finding): KML rule: Data names are unique in one ExtendedData.
    public static let kmlDataNameDuplicate = Diagnostic.Code("kml.data-name-duplicate", kind: .finding)
    /// `kml.atom-author` (finding): KML rule: atom:author uri is an IRI, email an addr-spec.
    public static let kmlAtomAuthor = Diagnostic.Code("kml.atom-author", kind: .finding)
    /// `kml.atom-link-rel` (finding): KML rule: atom:link rel is "related".
    public static let kmlAtomLinkRel = Diagnostic.Code("kml.atom-link-rel", kind: .finding)
    /// `kml.orientation-empty` (finding): KML rule: Orientation has heading, tilt or roll.
    public static let kmlOrientationEmpty = Diagnostic.Code("kml.orientation-empty", kind: .finding)
    /// `kml.ground-overlay-altitude` (finding): KML rule: GroundOverlay with altitudeMode absolute has altitude.
    public static let kmlGroundOverlayAltitude = Diagnostic.Code("kml.ground-overlay-altitude", kind: .finding)
    /// `kml.model-incomplete` (finding): KML rule: Model has Link and Location.
    public static let kmlModelIncomplete = Diagnostic.Code("kml.model-incomplete", kind: .finding)
    /// `kml.photo-overlay-incomplete` (finding): KML rule: PhotoOverlay has Icon, ViewVolume, Point, Camera.
    public static let kmlPhotoOverlayIncomplete = Diagnostic.Code("kml.photo-overlay-incomplete", kind: .finding)
    /// `kml.stylemap-pair` (finding): KML rule: a Pair has a styleUrl, Style or StyleMap.
    public static let kmlStylemapPair = Diagnostic.Code("kml.stylemap-pair", kind: .finding)
    /// `kml.item-icon-href` (finding): KML rule: ItemIcon has href.
    public static let kmlItemIconHref = Diagnostic.Code("kml.item-icon-href", kind: .finding)
    /// `kml.lookat-incomplete` (finding): KML rule: LookAt has longitude, latitude, range.
    public static let kmlLookatIncomplete = Diagnostic.Code("kml.lookat-incomplete", kind: .finding)
    /// `kml.lookat-tilt` (finding): KML rule: LookAt tilt within 0…90.
    public static let kmlLookatTilt = Diagnostic.Code("kml.lookat-tilt", kind: .finding)
    /// `kml.lookat-altitude` (finding): KML rule: LookAt has altitude unless clampToGround.
    public static let kmlLookatAltitude = Diagnostic.Code("kml.lookat-altitude", kind: .finding)
    /// `kml.lod-pixels` (finding): KML rule: Lod has minLodPixels below maxLodPixels (-1: infinite).
    public static let kmlLodPixels = Diagnostic.Code("kml.lod-pixels", kind: .finding)
    /// `kml.link-href-missing` (finding): KML rule: Link and Icon have href.
    public static let kmlLinkHrefMissing = Diagnostic.Code("kml.link-href-missing", kind: .finding)
    /// `kml.region-incomplete` (finding): KML rule: Region has LatLonAltBox and Lod.
    public static let kmlRegionIncomplete = Diagnostic.Code("kml.region-incomplete", kind: .finding)
    /// `kml.polystyle-empty` (finding): KML rule: PolyStyle has color, colorMode, fill or outline.
    public static let kmlPolystyleEmpty = Diagnostic.Code("kml.polystyle-empty", kind: .finding)
    /// `kml.coordinates-altitude-missing` (finding): KML rule: tuples have altitudes when altitudeMode uses them.
    public static let kmlCoordinatesAltitudeMissing = Diagnostic.Code("kml.coordinates-altitude-missing", kind: .finding)
    /// `kml.scale-empty` (finding): KML rule: Scale has x, y or z.
    public static let kmlScaleEmpty = Diagnostic.Code("kml.scale-empty", kind: .finding)
    /// `kml.empty-root` (finding): KML rule: kml holds a feature or NetworkLinkControl.
    public static let kmlEmptyRoot = Diagnostic.Code("kml.empty-root", kind: .finding)
    /// `kml.view-format-parameters` (finding): KML rule: viewFormat has a [parameter].
    public static let kmlViewFormatParameters = Diagnostic.Code("kml.view-format-parameters", kind: .finding)
    /// `kml.http-query-parameters` (finding): KML rule: httpQuery has a [parameter].
    public static let kmlHttpQueryParameters = Diagnostic.Code("kml.http-query-parameters", kind: .finding)
    /// `kml.ring-in-polygon-members` (finding): KML rule: a LinearRing in a Polygon has no extrude, tessellate, altitudeMode.
    public static let kmlRingInPolygonMembers = Diagnostic.Code("kml.ring-in-polygon-members", kind: .finding)
    /// `kml.data-incomplete` (finding): KML rule: Data has a name and a value.
    public static let kmlDataIncomplete = Diagnostic.Code("kml.data-incomplete", kind: .finding)
    /// `kml.resource-map-alias` (finding): KML rule: ResourceMap has Alias elements with unique sourceHref.
    public static let kmlResourceMapAlias = Diagnostic.Code("kml.resource-map-alias", kind: .finding)
    /// `kml.link-refresh-mode` (finding): KML rule: refreshInterval with onInterval, viewRefreshTime with onStop.
    public static let kmlLinkRefreshMode = Diagnostic.Code("kml.link-refresh-mode", kind: .finding)
    /// `kml.photo-overlay-pyramid` (finding): KML rule: PhotoOverlay $[x]/$[y]/$[level] href exactly when ImagePyramid.
    public static let kmlPhotoOverlayPyramid = Diagnostic.Code("kml.photo-overlay-pyramid", kind: .finding)
    /// `kml.ground-overlay-box` (finding): KML rule: GroundOverlay has LatLonBox (or gx:LatLonQuad).
    public static let kmlGroundOverlayBox = Diagnostic.Code("kml.ground-overlay-box", kind: .finding)
    /// `kml.camera-incomplete` (finding): KML rule: Camera has longitude, latitude, altitude.
    public static let kmlCameraIncomplete = Diagnostic.Code("kml.camera-incomplete", kind: .finding)
    /// `kml.camera-altitude-mode` (finding): KML rule: Camera altitudeMode is not clampToGround.
    public static let kmlCameraAltitudeMode = Diagnostic.Code("kml.camera-altitude-mode", kind: .finding)
    /// `kml.location-incomplete` (finding): KML rule: Location has longitude, latitude (and altitude unless clamped).
    public static let kmlLocationIncomplete = Diagnostic.Code("kml.location-incomplete", kind: .finding)
    /// `kml.overlay-icon-missing` (finding): KML rule: overlays have Icon.
    public static let kmlOverlayIconMissing = Diagnostic.Code("kml.overlay-icon-missing", kind: .finding)
    /// `kml.screen-overlay-xy` (finding): KML rule: ScreenOverlay has screenXY.
    public static let kmlScreenOverlayXy = Diagnostic.Code("kml.screen-overlay-xy", kind: .finding)
    /// `kml.balloonstyle-empty` (finding): KML rule: BalloonStyle is not empty.
    public static let kmlBalloonstyleEmpty = Diagnostic.Code("kml.balloonstyle-empty", kind: .finding)
    /// `kml.extended-data-empty` (finding): KML rule: ExtendedData is not empty.
    public static let kmlExtendedDataEmpty = Diagnostic.Code("kml.extended-data-empty", kind: .finding)
    /// `kml.folder-empty` (finding): KML rule: Folder is not empty.
    public static let kmlFolderEmpty = Diagnostic.Code("kml.folder-empty", kind: .finding)
    /// `kml.iconstyle-empty` (finding): KML rule: IconStyle is not empty.
    public static let kmlIconstyleEmpty = Diagnostic.Code("kml.iconstyle-empty", kind: .finding)
    /// `kml.image-pyramid` (finding): KML rule: ImagePyramid has maxWidth, maxHeight; tileSize a power of 2.
    public static let kmlImagePyramid = Diagnostic.Code("kml.image-pyramid", kind: .finding)
    /// `kml.labelstyle-empty` (finding): KML rule: LabelStyle has color, colorMode or scale.
    public static let kmlLabelstyleEmpty = Diagnostic.Code("kml.labelstyle-empty", kind: .finding)
    /// `kml.liststyle-empty` (finding): KML rule: ListStyle has listItemType, bgColor or ItemIcon.
    public static let kmlListstyleEmpty = Diagnostic.Code("kml.liststyle-empty", kind: .finding)
    /// `kml.style-empty` (finding): KML rule: Style is not empty.
    public static let kmlStyleEmpty = Diagnostic.Code("kml.style-empty", kind: .finding)
    /// `kml.multigeometry-single` (finding): KML rule: MultiGeometry has two or more geometries.
    public static let kmlMultigeometrySingle = Diagnostic.Code("kml.multigeometry-single", kind: .finding)
    /// `kml.placemark-no-geometry` (finding): KML rule: Placemark has a geometry.
    public static let kmlPlacemarkNoGeometry = Diagnostic.Code("kml.placemark-no-geometry", kind: .finding)
    /// `kml.deprecated-balloon-color` (finding): KML rule: no BalloonStyle color (deprecated).
    public static let kmlDeprecatedBalloonColor = Diagnostic.Code("kml.deprecated-balloon-color", kind: .finding)
    /// `kml.deprecated-metadata` (finding): KML rule: no Metadata (deprecated).
    public static let kmlDeprecatedMetadata = Diagnostic.Code("kml.deprecated-metadata", kind: .finding)
    /// `kml.scale-partial` (finding): KML rule: Scale has x, y and z.
    public static let kmlScalePartial = Diagnostic.Code("kml.scale-partial", kind: .finding)
    /// `kml.lod-fade-extents` (finding): KML rule: minFadeExtent + maxFadeExtent ≤ maxLodPixels − minLodPixels.
    public static let kmlLodFadeExtents = Diagnostic.Code("kml.lod-fade-extents", kind: .finding)
    /// `kml.orientation-partial` (finding): KML rule: Orientation has heading, tilt and roll.
    public static let kmlOrientationPartial = Diagnostic.Code("kml.orientation-partial", kind: .finding)
    /// `kml.deprecated-snippet` (finding): KML rule: no Snippet (deprecated).
    public static let kmlDeprecatedSnippet = Diagnostic.Code("kml.deprecated-snippet", kind: .finding)
    /// `kml.deprecated-url` (finding): KML rule: no NetworkLink Url (deprecated).
    public static let kmlDeprecatedUrl = Diagnostic.Code("kml.deprecated-url", kind: .finding)

    /// The codes above, in order, for ``allDeclared``.
    /// `kml.stylemap-keys` (finding): KML rule: StyleMap has two Pairs, one normal and one highlight.
    public static let kmlStylemapKeys = Diagnostic.Code("kml.stylemap-keys", kind: .finding)
    /// `kml.item-icon-state` (finding): KML rule: an ItemIcon state of error or fetching0–2 styles a NetworkLink.
    public static let kmlItemIconState = Diagnostic.Code("kml.item-icon-state", kind: .finding)
    /// `kml.tour-playlist` (finding): KML rule: a Tour has a Playlist holding one or more tour primitives.
    public static let kmlTourPlaylist = Diagnostic.Code("kml.tour-playlist", kind: .finding)
    /// `kml.flyto-view` (finding): KML rule: a FlyTo holds a Camera or LookAt.
    public static let kmlFlytoView = Diagnostic.Code("kml.flyto-view", kind: .finding)
    /// `kml.tour-control-play-mode` (finding): KML rule: a TourControl has playMode.
    public static let kmlTourControlPlayMode = Diagnostic.Code("kml.tour-control-play-mode", kind: .finding)
    /// `kml.animated-update-target` (finding): KML rule: an AnimatedUpdate's targetHref is empty (this document) or an absolute URI.
    public static let kmlAnimatedUpdateTarget = Diagnostic.Code("kml.animated-update-target", kind: .finding)
    /// `kml.flyto-mode` (finding): KML rule: a FlyTo has flyToMode.
    public static let kmlFlytoMode = Diagnostic.Code("kml.flyto-mode", kind: .finding)
    /// `kml.tour-duration` (finding): KML rule: FlyTo duration ≥ 0; Wait and AnimatedUpdate duration > 0.
    public static let kmlTourDuration = Diagnostic.Code("kml.tour-duration", kind: .finding)
    /// `kml.latlonquad` (finding): KML rule: a LatLonQuad has four positions, counterclockwise, convex.
    public static let kmlLatlonquad = Diagnostic.Code("kml.latlonquad", kind: .finding)
    /// `kml.polygon-orientation` (finding): KML rule: a Polygon's outer boundary runs counterclockwise.
    public static let kmlPolygonOrientation = Diagnostic.Code("kml.polygon-orientation", kind: .finding)

    static let kmlRulesCodes: [Diagnostic.Code] = [
        .kmlRoot,
        .kmlNoRoot,
        .kmlNamespace,
        .kmlXmlSyntax,
        .kmlEntityReference,
        .kmlUnknownElement,
        .kmlMisplacedElement,
        .kmlMissingChild,
        .kmlMissingAttribute,
        .kmlBoundaryRings,
        .kmlEnumValue,
        .kmlNumberSyntax,
        .kmlValueRange,
        .kmlEmptyValue,
        .kmlTimeSyntax,
        .kmlSchema,
        .kmlDataUom,
        .kmlCoordinateSyntax,
        .kmlCoordinateExtra,
        .kmlCoordinateRange,
        .kmlTimespanEmpty,
        .kmlTimespanOrder,
        .kmlTimestampWhenMissing,
        .kmlStyleUrlMissing,
        .kmlStyleUrlFragment,
        .kmlStyleUrlScheme,
        .kmlStyleUrlWrongKind,
        .kmlSharedStyleParent,
        .kmlLatlonaltboxExtent,
        .kmlLatlonaltboxAltitude,
        .kmlLinkValueNotPositive,
        .kmlLatlonboxIncomplete,
        .kmlLatlonboxExtent,
        .kmlExtrudeClamped,
        .kmlTessellateAltitude,
        .kmlPointCoordinates,
        .kmlLineTooShort,
        .kmlRingTooShort,
        .kmlRingNotClosed,
        .kmlViewvolumeIncomplete,
        .kmlMinRefreshPeriod,
        .kmlEmptyObject,
        .kmlUpdateTargetHref,
        .kmlUpdateTargetId,
        .kmlPhoneNumberUri,
        .kmlSchemaIdMissing,
        .kmlSimpleFieldType,
        .kmlSchemaUrlMissing,
        .kmlSchemaUrlWrongKind,
        .kmlSimpleDataUnknownField,
        .kmlSimpleDataType,
        .kmlDataNameDuplicate,
        .kmlAtomAuthor,
        .kmlAtomLinkRel,
        .kmlOrientationEmpty,
        .kmlGroundOverlayAltitude,
        .kmlModelIncomplete,
        .kmlPhotoOverlayIncomplete,
        .kmlStylemapPair,
        .kmlItemIconHref,
        .kmlLookatIncomplete,
        .kmlLookatTilt,
        .kmlLookatAltitude,
        .kmlLodPixels,
        .kmlLinkHrefMissing,
        .kmlRegionIncomplete,
        .kmlPolystyleEmpty,
        .kmlCoordinatesAltitudeMissing,
        .kmlScaleEmpty,
        .kmlEmptyRoot,
        .kmlViewFormatParameters,
        .kmlHttpQueryParameters,
        .kmlRingInPolygonMembers,
        .kmlDataIncomplete,
        .kmlResourceMapAlias,
        .kmlLinkRefreshMode,
        .kmlPhotoOverlayPyramid,
        .kmlGroundOverlayBox,
        .kmlCameraIncomplete,
        .kmlCameraAltitudeMode,
        .kmlLocationIncomplete,
        .kmlOverlayIconMissing,
        .kmlScreenOverlayXy,
        .kmlBalloonstyleEmpty,
        .kmlExtendedDataEmpty,
        .kmlFolderEmpty,
        .kmlIconstyleEmpty,
        .kmlImagePyramid,
        .kmlLabelstyleEmpty,
        .kmlListstyleEmpty,
        .kmlStyleEmpty,
        .kmlMultigeometrySingle,
        .kmlPlacemarkNoGeometry,
        .kmlDeprecatedBalloonColor,
        .kmlDeprecatedMetadata,
        .kmlScalePartial,
        .kmlLodFadeExtents,
        .kmlOrientationPartial,
        .kmlDeprecatedSnippet,
        .kmlDeprecatedUrl,
        .kmlStylemapKeys,
        .kmlItemIconState,
        .kmlTourPlaylist,
        .kmlFlytoView,
        .kmlTourControlPlayMode,
        .kmlAnimatedUpdateTarget,
        .kmlFlytoMode,
        .kmlTourDuration,
        .kmlLatlonquad,
        .kmlPolygonOrientation,
    ]
}

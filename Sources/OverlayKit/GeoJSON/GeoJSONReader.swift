import OverlayModel

/// Streams features out of GeoJSON (RFC 7946) and GeoJSON text sequences (RFC 8142, RS- or
/// newline-delimited), one at a time.
///
/// Accepts any sequence of top-level FeatureCollections, Features and geometries; a
/// FeatureCollection's features are handed out as they are parsed, so memory stays bounded by
/// the largest feature. Members may come in any order. Foreign members, `bbox`, string or
/// number ids, null geometry and 3-D positions are kept.
///
/// Mapping to overlays: Point → `PointAnnotation` (title from `name`/`title`, subtitle from
/// `description`), or `Circle` when the feature has a positive numeric `radius` property
/// (meters); LineString → `Polyline`; Polygon → `Polygon` with interiors; MultiLineString →
/// `MultiPolyline`; MultiPolygon → `MultiPolygon`; MultiPoint and GeometryCollection →
/// `ShapeCollection`.
public struct GeoJSONReader: FeatureReader {
    private let scanner: JSONScanner
    private var state = State.betweenValues
    private var warnings: [Diagnostic] = []
    private var tree = CoordinateTree()
    /// The members of the FeatureCollection being read, other than `type` and `features`
    /// (e.g. `name`, `crs`, `bbox`), in order.
    public private(set) var collectionMembers = JSONObject()
    private var collection = ObjectParts(start: JSONScanner.TextPosition(offset: 0, line: 1, column: 1))
    private var featureIndex = 0
    private var topLevelIndex = -1

    /// Keep the source bytes of each feature until the next call to `next()`, for
    /// `withLastFeatureBytes(_:)` (the window then holds the largest feature whole).
    public var keepsFeatureBytes = false
    /// Check each Feature's geometry (type, nesting, numbers) without building it, and hand out
    /// features without a shape: for callers that only look at properties and copy the source
    /// bytes through. A feature whose geometry was repaired keeps its shape. Coordinates that ``ShapeRepair`` would change (or that might need it: a
    /// run of fewer than four positions, or one whose last position is not written as its
    /// first) are read in full instead, so repairs and their warnings are the same in both modes.
    public var skipsGeometry = false
    /// Keep each feature's start so `resumeAfterError()` can skip a bad one.
    public var resumable = false
    /// Read only what gives a feature its shape, for a pass that measures extents: of the
    /// properties only `radius` (which makes a Point a circle), no id, no foreign members, no
    /// style, no location. Other values are skipped with their JSON syntax checked, so the JSON
    /// errors are the same; what a full read would find wrong in a skipped value (an `id` of the
    /// wrong type, a number out of range) is left to the pass that reads features in full.
    package var readsShapesOnly = false
    /// Absolute byte range of the last feature `next()` returned, when it was a Feature object.
    private var lastFeatureRange: Range<Int>?
    /// The feature being read had its geometry repaired (``ShapeRepair``): its source bytes
    /// are not what it holds, so they are not handed out for copying.
    private var repairedLastFeature = false
    /// Where the record or feature being read started, for `resumeAfterError()`.
    private var attempt: Attempt?
    /// Every top-level value so far fit on one line: records resynchronize at newlines.
    private var recordsAreLines = true

    private struct Attempt {
        var start: Int
        /// True for a member of a FeatureCollection's `features`, false for a top-level value.
        var inFeatures: Bool
        var path: [JSONScanner.PathComponent]
    }

    private enum State {
        case betweenValues
        case inCollection
        case inFeatures
        case finished
    }

    private var checkedByteOrderMark = false
    /// Reading from a record boundary inside a sequence (``init(continuing:)``).
    private var continuesSequence = false

    /// A reader over GeoJSON or GeoJSONSeq text (told apart by its first bytes).
    public init(input: ByteInput) {
        scanner = JSONScanner(input: input)
        scanner.duplicateMemberCode = GeoJSONDiagnosticCode.duplicateMember.code
        scanner.parsesPositionsAhead = PositionLookahead.isUseful
    }

    /// Whether the later positions of a long `coordinates` array are parsed on a second core
    /// while this reader reads the earlier ones (`PositionLookahead`; the same features and
    /// diagnostics either way). On when the process may use more than one core; callers that
    /// already run one reader per core turn it off.
    package var parsesPositionsAhead: Bool {
        get { scanner.parsesPositionsAhead }
        set { scanner.parsesPositionsAhead = newValue }
    }

    /// A reader for the part of a GeoJSON text sequence that starts at a record boundary inside
    /// it (a slice after the first record): no byte order mark is looked for, a part holding no
    /// record is not an error, and every record's JSON Pointer starts with its index within the
    /// part (`/0/…` too), so a caller that knows how many records came before can renumber it.
    package init(continuing input: ByteInput) {
        self.init(input: input)
        checkedByteOrderMark = true
        continuesSequence = true
        parsesPositionsAhead = false  // parts of a sequence are read one per core already
    }

    /// The bytes of the input parsed so far (read ahead by a buffer) and its size when a file.
    public var readPosition: ReadPosition? {
        ReadPosition(bytesRead: scanner.input.bytesRead, totalBytes: scanner.input.expectedSize)
    }

    /// From here on, each feature's properties are skipped but for a circle's `radius`.
    public mutating func readShapesOnly() { readsShapesOnly = true }

    /// The input, when it is a regular file opened by path and nothing of it has been parsed
    /// yet: a caller may then read it in slices instead (`ByteInput.slice(_:)`).
    public var sliceableFile: ByteInput? {
        let input = scanner.input
        guard !checkedByteOrderMark, scanner.absolutePosition == 0, input.bytesRead == 0,
              input.name != nil, input.expectedSize != nil else { return nil }
        return input
    }

    /// Newlines consumed so far (all of them once ``next()`` has returned nil).
    package var newlinesRead: Int { scanner.lineColumn(at: scanner.absolutePosition).line - 1 }

    /// Top-level values (records) begun so far.
    package var recordsRead: Int { topLevelIndex + 1 }

    /// A reader with a small initial window, so tests exercise tokens split across refills.
    init(input: ByteInput, initialBufferSize: Int) {
        scanner = JSONScanner(input: input, initialCapacity: initialBufferSize)
        scanner.duplicateMemberCode = GeoJSONDiagnosticCode.duplicateMember.code
    }

    /// How many positions so far were parsed ahead on a second core (`PositionLookahead`).
    var positionsTakenAhead: Int { scanner.positionsTakenAhead }

    /// A reader with a small window that parses positions ahead on a second core as soon as it
    /// can (after `afterBytes` of an array, with `minimumBytes` ahead) and waits for each helper,
    /// so tests exercise the helper on small inputs with the same result every run.
    init(input: ByteInput, initialBufferSize: Int, lookaheadAfterBytes afterBytes: Int, minimumBytes: Int) {
        self.init(input: input, initialBufferSize: initialBufferSize)
        scanner.parsesPositionsAhead = true
        scanner.lookaheadAfterBytes = afterBytes
        scanner.lookaheadMinimumBytes = minimumBytes
        scanner.lookaheadWaits = true
    }

    /// Bytes consumed so far.
    public var bytesRead: Int { scanner.absolutePosition }

    public mutating func takeWarnings() -> [Diagnostic] {
        warnings += scanner.warnings
        scanner.warnings.removeAll()
        defer { warnings.removeAll() }
        return warnings
    }

    public mutating func next() throws -> Feature? {
        if !checkedByteOrderMark {
            checkedByteOrderMark = true
            if try scanner.skipByteOrderMark() { warnings.append(GeoJSONDiagnosticCode.byteOrderMarkNote(file: scanner.input.name)) }
        }
        lastFeatureRange = nil
        repairedLastFeature = false
        scanner.retainFrom = nil
        let keepsStart = keepsFeatureBytes || resumable
        while true {
            switch state {
            case .finished:
                return nil
            case .betweenValues:
                guard let byte = try scanner.peekSignificantSkippingRecordSeparators() else {
                    state = .finished
                    if topLevelIndex < 0 && !continuesSequence {
                        throw scanner.error(GeoJSONDiagnosticCode.empty.code, "input holds no GeoJSON")
                    }
                    return nil
                }
                topLevelIndex += 1
                scanner.path = topLevelIndex == 0 && !continuesSequence ? [] : [.index(topLevelIndex)]
                let start = scanner.absolutePosition
                if resumable { attempt = Attempt(start: start, inFeatures: false, path: scanner.path) }
                if keepsStart { scanner.retainFrom = start }
                guard byte == UInt8(ascii: "{") else {
                    throw scanner.unexpected(byte, expecting: "a GeoJSON object '{'")
                }
                var parts = ObjectParts(start: scanner.here())
                scanner.position += 1
                collectionMembers = JSONObject()
                let enteredFeatures = try readMembers(into: &parts, context: .topLevel)
                collection = parts
                if enteredFeatures {
                    scanner.retainFrom = nil
                    attempt = nil
                    recordsAreLines = false
                    state = .inFeatures
                    featureIndex = 0
                    scanner.path.append(.key("features"))
                    if try scanner.peekSignificant() == UInt8(ascii: "]") {
                        scanner.position += 1
                        try endFeatures()
                    }
                } else {
                    let end = scanner.absolutePosition
                    if resumable && recordsAreLines {
                        recordsAreLines = !scanner.windowBytes(from: start, to: end).contains(0x0A)
                    }
                    let feature = try finishTopLevelObject()
                    attempt = nil
                    if keepsFeatureBytes && collection.type == "Feature" && !repairedLastFeature { lastFeatureRange = start..<end }
                    return feature
                }
            case .inFeatures:
                guard let byte = try scanner.peekSignificant() else {
                    throw scanner.error(.jsonUnexpectedEnd, "input ended inside \"features\"")
                }
                let start = scanner.absolutePosition
                if keepsStart { scanner.retainFrom = start }
                if resumable { attempt = Attempt(start: start, inFeatures: true, path: scanner.path) }
                guard byte == UInt8(ascii: "{") else {
                    throw scanner.error(GeoJSONDiagnosticCode.featureNotObject.code, "every member of \"features\" must be a Feature object",
                                        extraPath: [.index(featureIndex)])
                }
                scanner.path.append(.index(featureIndex))
                let feature = try readFeature()
                if keepsFeatureBytes && !repairedLastFeature { lastFeatureRange = start..<scanner.absolutePosition }
                scanner.path.removeLast()
                featureIndex += 1
                attempt = nil
                if try !scanner.commaOrClose(UInt8(ascii: "]")) { try endFeatures() }
                return feature
            case .inCollection:
                var parts = collection
                let enteredFeaturesAgain = try readMembers(into: &parts, context: .topLevel, continuing: true)
                collection = parts
                if enteredFeaturesAgain {
                    throw scanner.error(GeoJSONDiagnosticCode.duplicateMember.code, "\"features\" appears twice in a FeatureCollection")
                }
                if let feature = try finishTopLevelObject() { return feature }
            }
        }
    }

    private mutating func endFeatures() throws {
        scanner.path.removeLast()
        state = .inCollection
    }

    /// Interprets a finished top-level object: the end of a FeatureCollection, or one Feature
    /// or geometry (returned as a feature).
    private mutating func finishTopLevelObject() throws -> Feature? {
        state = .betweenValues
        var parts = collection
        // The object's geometry is the feature's alone from here (`makeGeometry` takes its
        // positions): kept here, a long track would stay in memory while it is drawn.
        collection.coordinates = nil
        collection.geometry = nil
        guard let type = parts.type else {
            throw scanner.error(GeoJSONDiagnosticCode.missingType.code, "GeoJSON object has no \"type\" member", at: parts.start)
        }
        switch type {
        case "FeatureCollection":
            guard parts.sawFeatures else {
                throw scanner.error(GeoJSONDiagnosticCode.missingMember.code, "FeatureCollection has no \"features\" array",
                                    at: parts.start)
            }
            collectionMembers = parts.foreign
            if let id = parts.id { collectionMembers.append("id", id) }
            if let properties = parts.properties { collectionMembers.append("properties", properties) }
            return nil
        case "Feature":
            return try makeFeature(parts)
        default:
            if parts.sawFeatures {
                throw scanner.error(GeoJSONDiagnosticCode.wrongType.code, "an object with \"features\" must have type \"FeatureCollection\", not \"\(type)\"",
                                    at: parts.typeOffset ?? parts.start)
            }
            let geometry = try makeGeometry(&parts)
            let location = parts.location(in: scanner)
            return Feature(properties: nil, shape: geometry.shape, geometryMembers: geometry.members, location: location)
        }
    }

    private mutating func readFeature() throws -> Feature {
        var parts = ObjectParts(start: scanner.here())
        scanner.position += 1
        _ = try readMembers(into: &parts, context: .feature)
        guard let type = parts.type else {
            throw scanner.error(GeoJSONDiagnosticCode.missingType.code, "Feature has no \"type\" member", at: parts.start)
        }
        guard type == "Feature" else {
            throw scanner.error(GeoJSONDiagnosticCode.wrongType.code, "every member of \"features\" must have type \"Feature\", not \"\(type)\"",
                                at: parts.typeOffset ?? parts.start)
        }
        return try makeFeature(parts)
    }

    // MARK: Source bytes and recovery

    /// Calls `body` with the source bytes of the feature `next()` last returned (from its `{`
    /// to its `}`), or returns nil when they were not kept: `keepsFeatureBytes` is off, the
    /// value was not a Feature object (a bare geometry), or its geometry was repaired
    /// (``ShapeRepair``) so the bytes are not what the feature holds. Valid until the next call to `next()`.
    public func withLastFeatureBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        guard let range = lastFeatureRange else { return nil }
        return try body(scanner.windowBytes(from: range.lowerBound, to: range.upperBound))
    }

    /// After `next()` threw, moves past the bad feature so reading can go on; needs `resumable`.
    ///
    /// A member of `features` is skipped as a JSON value, which works when the feature is
    /// well-formed JSON (a bad geometry, a wrong type). A top-level record of a GeoJSON text
    /// sequence is skipped up to the next RS when the input uses RS, else up to the next line
    /// when every record so far was one line, else as a JSON value.
    /// - Throws: `Diagnostic` `geojson.cannot-resume` when the next feature cannot be found
    ///   reliably: a JSON syntax error inside a FeatureCollection (or in a multi-line record).
    public mutating func resumeAfterError() throws {
        precondition(resumable, "resumeAfterError() needs resumable = true before reading")
        guard state != .finished else { return }
        guard let failed = attempt else {
            // Between features (a collection's own members) there is no feature to skip.
            if try scanner.peekSignificant() == nil {
                state = .finished
                return
            }
            throw Diagnostic(.error, code: GeoJSONDiagnosticCode.cannotResume.code,
                             message: "cannot resume reading after an error outside any feature",
                             location: scanner.currentLocation())
        }
        attempt = nil
        lastFeatureRange = nil
        scanner.seek(to: failed.start)
        scanner.retainFrom = nil
        scanner.path = failed.path
        let cannotResume = Diagnostic(.error, code: GeoJSONDiagnosticCode.cannotResume.code,
            message: "cannot find where the next feature starts after a JSON syntax error"
                + (failed.inFeatures ? " inside a FeatureCollection" : "") + "; nothing after it is read",
            location: scanner.location(at: failed.start))
        if failed.inFeatures {
            do { try scanner.skipValue() } catch { throw cannotResume }
            featureIndex += 1
            do {
                if try !scanner.commaOrClose(UInt8(ascii: "]")) { try endFeatures() }
            } catch {
                throw cannotResume
            }
            return
        }
        state = .betweenValues
        if scanner.sawRecordSeparator {
            scanner.position += 1
            if try !scanner.skip(through: 0x1E) { state = .finished }
        } else if recordsAreLines {
            if try !scanner.skip(through: 0x0A) { state = .finished }
        } else {
            do { try scanner.skipValue() } catch { throw cannotResume }
        }
    }

    // MARK: Objects

    /// Where an object stands, which decides how its members are read.
    private enum Context {
        case topLevel, feature, geometry
    }

    /// Everything an object's members said, kept until the object ends.
    private struct ObjectParts {
        var start: JSONScanner.TextPosition
        var type: String?
        var typeOffset: JSONScanner.TextPosition?
        var id: JSONValue?
        var idOffset: JSONScanner.TextPosition?
        var properties: JSONValue?
        var hasGeometry = false
        var geometry: ParsedGeometry?
        var coordinates: CoordinateTree?
        var coordinatesOffset: JSONScanner.TextPosition?
        /// The coordinates were checked but not read (`skipsGeometry`).
        var skimmed = false
        var geometries: [ParsedGeometry]?
        var sawFeatures = false
        var foreign = JSONObject()
        /// The member names read so far: a few in every real object, so a list searched
        /// linearly beats hashing; past 16 (hostile input) a set keeps it O(1).
        var keysSeen: [String] = []
        var manyKeysSeen: Set<String> = []
        /// The members every feature and geometry has, as bits: no array allocated for them.
        var commonKeysSeen: UInt8 = 0

        /// Notes a member name; false when the object already had it.
        mutating func firstSighting(of key: String) -> Bool {
            let bit: UInt8
            switch key {
            case "type": bit = 1
            case "properties": bit = 2
            case "geometry": bit = 4
            case "coordinates": bit = 8
            case "id": bit = 16
            default: bit = 0
            }
            if bit != 0 {
                defer { commonKeysSeen |= bit }
                return commonKeysSeen & bit == 0
            }
            if keysSeen.count < 16 {
                if keysSeen.contains(key) { return false }
                keysSeen.append(key)
                return true
            }
            if keysSeen.contains(key) { return false }
            return manyKeysSeen.insert(key).inserted
        }

        init(start: JSONScanner.TextPosition) { self.start = start }

        /// Where the object starts, with the pointer of the value being read.
        func location(in scanner: JSONScanner) -> SourceLocation {
            SourceLocation(file: scanner.input.name, line: start.line, column: start.column, jsonPointer: scanner.pointer())
        }
    }

    struct ParsedGeometry {
        var shape: Shape?
        var members: JSONObject
    }

    /// Reads members up to the closing '}' and returns false, or up to the '[' of a top-level
    /// `features` array and returns true (the caller streams the features, then continues).
    private mutating func readMembers(into parts: inout ObjectParts, context: Context, continuing: Bool = false) throws -> Bool {
        if !continuing {
            if try scanner.peekSignificant() == UInt8(ascii: "}") {
                scanner.position += 1
                return false
            }
        } else if try !scanner.commaOrClose(UInt8(ascii: "}")) {
            return false
        }
        repeat {
            let keyOffset = scanner.absolutePosition
            let key = try scanner.readKey()
            if !parts.firstSighting(of: key) {
                // Rare: only now is the key's line and column needed (the key is still in the window).
                warnings.append(scanner.warning(GeoJSONDiagnosticCode.duplicateMember.code, "member \"\(key)\" appears more than once; the last one counts",
                                                at: keyOffset, extraPath: [.key(key)]))
                if key != "type" && key != "features" { parts.foreign[key] = nil }
            }
            scanner.path.append(.key(key))
            defer { scanner.path.removeLast() }
            switch key {
            case "type":
                parts.typeOffset = scanner.here()
                guard try scanner.peekSignificant() == UInt8(ascii: "\"") else {
                    throw scanner.error(GeoJSONDiagnosticCode.typeNotString.code, "\"type\" must be a string")
                }
                parts.type = try scanner.readString()
            case "features" where context == .topLevel:
                guard try scanner.peekSignificant() == UInt8(ascii: "[") else {
                    throw scanner.error(GeoJSONDiagnosticCode.featuresNotArray.code, "\"features\" must be an array")
                }
                scanner.position += 1
                parts.sawFeatures = true
                return true
            case "coordinates" where context != .feature:
                parts.coordinatesOffset = scanner.here()
                if skipsGeometry && context == .geometry, let depth = try scanner.skimCoordinates(checking: Self.skimCheck(for: parts.type)) {
                    tree.removeAll()
                    tree.leafDepth = depth
                    parts.skimmed = true
                } else {
                    try scanner.readCoordinates(into: &tree)
                }
                parts.coordinates = tree
                // The runs leave with their geometry: kept here they would live as long as the
                // next feature's read, and a long track would stay in memory while it is drawn.
                tree.releaseRuns()
            case "geometries" where context != .feature:
                parts.geometries = try readGeometryArray()
            case "geometry" where context != .geometry:
                parts.hasGeometry = true
                parts.geometry = try readGeometryValue()
            case "properties" where context != .geometry && readsShapesOnly:
                parts.properties = try readRadiusOnly()
            case "id" where context != .geometry && readsShapesOnly:
                try scanner.skipValue()
            case "properties" where context != .geometry:
                let offset = scanner.absolutePosition
                let value = try scanner.readValue()
                guard value == .null || value.objectValue != nil else {
                    throw scanner.error(GeoJSONDiagnosticCode.propertiesNotObject.code, "\"properties\" must be an object or null", at: offset)
                }
                parts.properties = value
            case "id" where context != .geometry:
                parts.idOffset = scanner.here()
                parts.id = try scanner.readValue()
            default:
                if readsShapesOnly && context == .feature {
                    try scanner.skipValue()
                } else {
                    parts.foreign.append(key, try scanner.readValue())
                }
            }
        } while try scanner.commaOrClose(UInt8(ascii: "}"))
        return false
    }

    /// A Feature's `properties` for `readsShapesOnly`: an object holding only its `radius`, if
    /// any (the rest skipped), or null.
    private mutating func readRadiusOnly() throws -> JSONValue {
        let offset = scanner.absolutePosition
        guard try scanner.peekSignificant() == UInt8(ascii: "{") else {
            let value = try scanner.readValue()
            guard value == .null else {
                throw scanner.error(GeoJSONDiagnosticCode.propertiesNotObject.code, "\"properties\" must be an object or null", at: offset)
            }
            return value
        }
        scanner.position += 1
        var kept = JSONObject()
        if try scanner.peekSignificant() == UInt8(ascii: "}") {
            scanner.position += 1
            return .object(kept)
        }
        repeat {
            if try scanner.readKey() == "radius" {
                kept["radius"] = try scanner.readValue()
            } else {
                try scanner.skipValue()
            }
        } while try scanner.commaOrClose(UInt8(ascii: "}"))
        return .object(kept)
    }

    /// What a skim must make sure of for a geometry of `type` (nil: not read yet, so the
    /// strictest check) so that no skimmed geometry needs ``ShapeRepair``.
    private static func skimCheck(for type: String?) -> JSONScanner.SkimRunCheck {
        switch type {
        case "Point", "MultiPoint": .none
        case "LineString", "MultiLineString": .lines
        default: .rings
        }
    }

    private mutating func readGeometryValue() throws -> ParsedGeometry? {
        guard let byte = try scanner.peekSignificant() else {
            throw scanner.error(.jsonUnexpectedEnd, "input ended where a geometry was expected")
        }
        if byte == UInt8(ascii: "n") {
            _ = try scanner.readValue()
            return nil
        }
        guard byte == UInt8(ascii: "{") else {
            throw scanner.error(GeoJSONDiagnosticCode.geometryNotObject.code, "\"geometry\" must be an object or null")
        }
        var parts = ObjectParts(start: scanner.here())
        scanner.position += 1
        _ = try readMembers(into: &parts, context: .geometry)
        return try makeGeometry(&parts)
    }

    private mutating func readGeometryArray() throws -> [ParsedGeometry] {
        // GeometryCollections recurse here once per level: bound them as JSON values are
        // (100,000 nested collections overflowed the stack). Each level adds two path steps.
        guard scanner.path.count < 1_024 else {
            throw scanner.error(.jsonTooDeep, "values nest more than 512 levels deep")
        }
        guard try scanner.peekSignificant() == UInt8(ascii: "[") else {
            throw scanner.error(GeoJSONDiagnosticCode.geometriesNotArray.code, "\"geometries\" must be an array")
        }
        scanner.position += 1
        var geometries: [ParsedGeometry] = []
        if try scanner.peekSignificant() == UInt8(ascii: "]") {
            scanner.position += 1
            return geometries
        }
        repeat {
            scanner.path.append(.index(geometries.count))
            defer { scanner.path.removeLast() }
            guard try scanner.peekSignificant() == UInt8(ascii: "{") else {
                throw scanner.error(GeoJSONDiagnosticCode.geometryNotObject.code, "every member of \"geometries\" must be a geometry object")
            }
            guard let geometry = try readGeometryValue() else { continue }
            geometries.append(geometry)
        } while try scanner.commaOrClose(UInt8(ascii: "]"))
        return geometries
    }

    // MARK: Building the model

    private mutating func makeFeature(_ parts: ObjectParts) throws -> Feature {
        if readsShapesOnly {
            let properties = parts.properties.map { $0.objectValue } ?? nil
            return Feature(shape: parts.geometry?.shape.map { GeoJSONConventions.decorate($0, properties: properties) }, location: nil)
        }
        var feature = Feature(shape: nil, location: parts.location(in: scanner))
        switch parts.id {
        case nil: break
        case .string(let text)?: feature.id = .string(text)
        case .integer(let value)?: feature.id = .integer(value)
        case .number(let value)?: feature.id = .number(value)
        case let other?:
            warnings.append(scanner.warning(GeoJSONDiagnosticCode.idType.code, "\"id\" must be a string or a number, not \(other.typeName); kept as a foreign member",
                                            at: parts.idOffset ?? parts.start, extraPath: [.key("id")]))
            feature.foreignMembers.append("id", other)
        }
        feature.properties = parts.properties.map { $0.objectValue } ?? nil
        feature.style = SimpleStyle.style(from: feature.properties)
        if !parts.hasGeometry {
            warnings.append(scanner.warning(GeoJSONDiagnosticCode.missingMember.code, "Feature has no \"geometry\" member; read as null",
                                            at: parts.start))
        }
        if parts.properties == nil {
            warnings.append(scanner.warning(GeoJSONDiagnosticCode.missingMember.code, "Feature has no \"properties\" member; read as null",
                                            at: parts.start))
        }
        feature.foreignMembers.members += parts.foreign.members
        // "folders": an array of strings is the KML folder path; anything else stays a foreign member.
        if case .array(let names)? = feature.foreignMembers[GeoJSONConventions.foldersMember] {
            let folderPath = names.compactMap(\.stringValue)
            if folderPath.count == names.count {
                feature.folderPath = folderPath
                feature.foreignMembers[GeoJSONConventions.foldersMember] = nil
            }
        }
        if let coordinates = parts.coordinates {
            feature.foreignMembers.append("coordinates", coordinates.jsonValue())
        }
        if let geometries = parts.geometries, !geometries.isEmpty {
            warnings.append(scanner.warning(GeoJSONDiagnosticCode.droppedMember.code, "\"geometries\" on a Feature has no meaning and is not kept",
                                            at: parts.start))
        }
        if let geometry = parts.geometry {
            feature.geometryMembers = geometry.members
            // A repaired shape is kept even when skipping geometry: its bytes cannot be copied.
            feature.shape = skipsGeometry && !repairedLastFeature ? nil : geometry.shape.map { GeoJSONConventions.decorate($0, properties: feature.properties) }
        }
        return feature
    }

    /// The geometry of `parts`, whose coordinates it takes (so that a long run becomes the
    /// shape's vertices without a copy).
    private mutating func makeGeometry(_ parts: inout ObjectParts) throws -> ParsedGeometry {
        guard let type = parts.type else {
            throw scanner.error(GeoJSONDiagnosticCode.missingType.code, "geometry has no \"type\" member", at: parts.start)
        }
        var members = parts.foreign
        if let properties = parts.properties { members.append("properties", properties) }
        if let id = parts.id { members.append("id", id) }
        if parts.hasGeometry {
            warnings.append(scanner.warning(GeoJSONDiagnosticCode.droppedMember.code, "\"geometry\" inside a \(type) has no meaning and is not kept",
                                            at: parts.start))
        }
        if type == "GeometryCollection" {
            guard let geometries = parts.geometries else {
                throw scanner.error(GeoJSONDiagnosticCode.missingMember.code, "GeometryCollection has no \"geometries\" array", at: parts.start)
            }
            if let coordinates = parts.coordinates { members.append("coordinates", coordinates.jsonValue()) }
            let shapes = geometries.compactMap(\.shape)
            return ParsedGeometry(shape: .collection(ShapeCollection(members: shapes, origin: .geometryCollection)),
                                  members: members)
        }
        let expectedDepth: Int
        switch type {
        case "Point": expectedDepth = 1
        case "MultiPoint", "LineString": expectedDepth = 2
        case "Polygon", "MultiLineString": expectedDepth = 3
        case "MultiPolygon": expectedDepth = 4
        case "Feature", "FeatureCollection":
            throw scanner.error(GeoJSONDiagnosticCode.notAGeometry.code, "a \(type) cannot stand where a geometry is expected", at: parts.typeOffset ?? parts.start)
        default:
            let known = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]
            let hint = known.first { $0.lowercased() == type.lowercased() }.map { " (did you mean \"\($0)\"?)" } ?? ""
            throw scanner.error(GeoJSONDiagnosticCode.unknownType.code, "unknown geometry type \"\(type)\"\(hint)", at: parts.typeOffset ?? parts.start)
        }
        if let geometries = parts.geometries {
            warnings.append(scanner.warning(GeoJSONDiagnosticCode.droppedMember.code, "\"geometries\" on a \(type) has no meaning and is not kept",
                                            at: parts.start))
            _ = geometries
        }
        guard let tree = parts.coordinates else {
            throw scanner.error(GeoJSONDiagnosticCode.missingMember.code, "\(type) has no \"coordinates\" array", at: parts.start)
        }
        if tree.droppedDimensions {
            warnings.append(scanner.warning(GeoJSONDiagnosticCode.positionTooLong.code,
                                            "positions with more than three numbers: only longitude, latitude and altitude are kept",
                                            at: parts.coordinatesOffset ?? parts.start, extraPath: [.key("coordinates")]))
        }
        if tree.leafDepth != 0 && tree.leafDepth != expectedDepth {
            let shapes = [1: "a position", 2: "an array of positions", 3: "an array of arrays of positions",
                          4: "an array of arrays of arrays of positions"]
            throw scanner.error(GeoJSONDiagnosticCode.coordinatesDepth.code,
                                "\(type) coordinates must be \(shapes[expectedDepth]!), found \(shapes[tree.leafDepth] ?? "\(tree.leafDepth) levels")",
                                at: parts.coordinatesOffset ?? parts.start, extraPath: [.key("coordinates")])
        }
        if tree.leafDepth == 0 && type == "Point" {
            throw scanner.error(GeoJSONDiagnosticCode.positionTooShort.code, "position needs at least 2 numbers, found 0",
                                at: parts.coordinatesOffset ?? parts.start, extraPath: [.key("coordinates")])
        }
        if parts.skimmed { return ParsedGeometry(shape: nil, members: members) }
        // The builder holds the only reference to the positions, so it may hand them over.
        parts.coordinates = nil
        var builder = ShapeBuilder(tree: consume tree)
        let shape: Shape
        switch type {
        case "Point":
            shape = .annotation(PointAnnotation(coordinate: builder.tree.positions[0]))
        case "MultiPoint":
            shape = .collection(ShapeCollection(members: builder.tree.positions.map { .annotation(PointAnnotation(coordinate: $0)) },
                                                origin: .multiPoint))
        case "LineString":
            let start = builder.start(level: 0)
            shape = line(builder.run(level: 0), start: start, path: [.key("coordinates")])
        case "MultiLineString":
            var members: [Shape] = []
            for index in builder.children(level: 0) {
                let start = builder.start(level: 1)
                members.append(line(builder.run(level: 1), start: start, path: [.key("coordinates"), .index(index)]))
            }
            // A one-position member became a point: the lines and it make a collection (ShapeRepair).
            let lines = members.compactMap { member -> Polyline? in if case .polyline(let line) = member { line } else { nil } }
            shape = lines.count == members.count ? .multiPolyline(MultiPolyline(lines))
                : .collection(ShapeCollection(members: members, origin: .geometryCollection))
        case "Polygon":
            shape = .polygon(try polygon(builder: &builder, level: 1, indices: []) ?? Polygon(coordinates: []))
        default:  // MultiPolygon
            var polygons: [Polygon] = []
            for index in builder.children(level: 0) {
                if let polygon = try polygon(builder: &builder, level: 2, indices: [index]) { polygons.append(polygon) }
            }
            shape = .multiPolygon(MultiPolygon(polygons))
        }
        return ParsedGeometry(shape: shape, members: members)
    }

    /// A line from one run of positions; a single position is read as a point, with a warning
    /// (``ShapeRepair``'s rule: RFC 7946 §3.1.4 asks for two). An empty run is the empty line.
    private mutating func line(_ run: VertexBuffer, start: (line: Int, column: Int), path: [JSONScanner.PathComponent]) -> Shape {
        guard run.count == 1 else { return .polyline(Polyline(vertices: run)) }
        repairedLastFeature = true
        warnings.append(ringWarning(GeoJSONDiagnosticCode.lineTooShort.code,
                                    "a LineString needs two or more positions, found 1; read as a point", start, path))
        return .annotation(PointAnnotation(coordinate: run.coordinates[0]))
    }

    /// Builds a polygon from the rings at `level` (the level whose arrays hold positions) by
    /// ``ShapeRepair``'s rule: an open ring is closed, a ring shorter than four positions is
    /// dropped, each with a warning at the ring. Nil when the exterior is dropped (so is the
    /// polygon, holes and all); an empty polygon (`[]`) has no rings and stays empty.
    private mutating func polygon(builder: inout ShapeBuilder, level: Int, indices: [Int]) throws -> Polygon? {
        var rings: [VertexBuffer] = []
        var exteriorDropped = false
        for ringIndex in builder.children(level: level - 1) {
            let start = builder.start(level: level)
            let ring = builder.run(level: level)
            // The holes of a polygon that is gone are consumed unread.
            if exteriorDropped { continue }
            let path: [JSONScanner.PathComponent] = [.key("coordinates")] + (indices + [ringIndex]).map { .index($0) }
            switch ShapeRepair.ringVerdict(ring.coordinates) {
            case .valid:
                rings.append(ring)
            case .close:
                repairedLastFeature = true
                warnings.append(ringWarning(GeoJSONDiagnosticCode.ringNotClosed.code,
                                            "a linear ring's first and last positions must be the same; closed by repeating its first position",
                                            start, path))
                rings.append(VertexBuffer(coordinates: ring.coordinates + [ring.coordinates[0]]))
            case .drop(let positions):
                repairedLastFeature = true
                let dropped = ringIndex == 0 ? (indices.isEmpty ? "the polygon is read as empty" : "the polygon is dropped") : "the hole is dropped"
                warnings.append(ringWarning(GeoJSONDiagnosticCode.ringTooShort.code,
                                            "a linear ring needs at least 4 positions (the last repeating the first), found \(positions); \(dropped)",
                                            start, path))
                if ringIndex == 0 { exteriorDropped = true }
            }
        }
        if exteriorDropped { return nil }
        guard let exterior = rings.first else { return Polygon(coordinates: []) }
        return Polygon(vertices: exterior, interiorPolygons: rings.dropFirst().map { Polygon(vertices: $0) })
    }

    private func ringWarning(_ code: Diagnostic.Code, _ message: String, _ start: (line: Int, column: Int),
                             _ path: [JSONScanner.PathComponent]) -> Diagnostic {
        Diagnostic(.warning, code: code, message: message,
                   location: SourceLocation(file: scanner.input.name, line: start.line, column: start.column,
                                            jsonPointer: scanner.pointer(path)))
    }
}

/// Walks a `CoordinateTree` level by level, handing out runs of positions as vertex buffers.
private struct ShapeBuilder {
    private(set) var tree: CoordinateTree
    private var cursors: [Int]
    private var runCursor = 0

    init(tree: CoordinateTree) {
        self.tree = tree
        cursors = [Int](repeating: 0, count: tree.childCounts.count)
    }

    /// The indices of the children of the next array at `level`, consuming its count.
    mutating func children(level: Int) -> Range<Int> {
        guard level < tree.childCounts.count, cursors[level] < tree.childCounts[level].count else { return 0..<0 }
        defer { cursors[level] += 1 }
        return 0..<tree.childCounts[level][cursors[level]]
    }

    /// Where the next array at `level` starts.
    func start(level: Int) -> (line: Int, column: Int) {
        guard level < tree.starts.count, cursors[level] < tree.starts[level].count else { return (0, 0) }
        return tree.starts[level][cursors[level]]
    }

    /// The positions of the next array at `level` (an array of positions), handed over as read.
    mutating func run(level: Int) -> VertexBuffer {
        // An empty array has no run; never past the runs read, whatever the counts say.
        guard !children(level: level).isEmpty, runCursor < tree.runs.count else { return VertexBuffer(coordinates: []) }
        var run: [Coordinate] = []
        swap(&run, &tree.runs[runCursor])
        runCursor += 1
        return VertexBuffer(coordinates: run)
    }
}

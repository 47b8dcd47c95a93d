#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// The structural rules of GeoJSON, checked on a located value: everything mapbox/geojsonhint
/// checks (type names and their case, required and forbidden members, positions, rings, lines,
/// bbox, id, GeometryCollections, duplicate members, the right-hand rule, excess precision),
/// plus RFC 7946 advice (`crs`, more than three numbers per position, coordinates out of range,
/// geometry crossing the antimeridian without being cut).
///
/// Problems are reported on the line where geojsonhint reports them: the line where the object
/// or array at fault starts. Polygons and lines that are structurally sound are handed to
/// `GeometryValidity` in map points. O(values) apart from the geometry pass.
struct GeoJSONStructureCheck {
    /// The arena the values live in (changed only where a run of positions in an unusual
    /// place is expanded into ordinary nodes).
    var json: LocatedJSON
    let file: String?
    /// JSON Pointer components above the value being checked (e.g. `features`, `12`).
    var path: [String]
    var findings: [Diagnostic] = []
    /// Shared across the whole file so precision advice is capped per file.
    var precision: PrecisionTally
    /// Positions out of range in the geometry being checked: how many, and the first.
    private var outOfRange: (count: Int, first: (place: Place, message: String)?) = (0, nil)
    /// Whether sound lines and polygons also get the geometry-validity pass.
    var checksGeometry = true

    /// Counts excess-precision positions so only the first few are reported one by one.
    struct PrecisionTally {
        static let reportedLimit = 10
        /// Digits after the decimal point beyond which a degree value is finer than ~10 cm.
        static let maximumDecimals = 6
        var count = 0
        var firstUnreported: SourceLocation?
        /// Set with `firstUnreported`; a plain flag keeps the per-position test free of copies.
        var hasUnreported = false
    }

    static let geometryTypes = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
                                "GeometryCollection"]
    static let allTypes = geometryTypes + ["Feature", "FeatureCollection"]

    init(json: LocatedJSON, file: String?, path: [String], precision: PrecisionTally) {
        self.json = json
        self.file = file
        self.path = path
        self.precision = precision
    }

    // MARK: Reporting

    /// Array indices below `path` while coordinates are walked, kept as numbers: they become
    /// pointer text only when something is reported.
    private var indexPath: [Int] = []

    /// Where a value starts: a node's line and column, or a run position's.
    struct Place {
        var line: Int32
        var column: Int32
    }

    private func place(_ node: Int) -> Place { Place(line: json[node].line, column: json[node].column) }

    private func location(_ place: Place, _ extra: [String] = []) -> SourceLocation {
        SourceLocation(file: file, line: Int(place.line), column: Int(place.column),
                       jsonPointer: JSONPointer.make(path + indexPath.map(String.init) + extra))
    }

    private func location(_ node: Int, _ extra: [String] = []) -> SourceLocation { location(place(node), extra) }

    private mutating func report(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ message: String, at node: Int,
                                 _ extra: [String] = []) {
        report(severity, code, message, at: place(node), extra)
    }

    private mutating func report(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ message: String, at place: Place,
                                 _ extra: [String] = []) {
        findings.append(Diagnostic(severity, code: code, message: message, location: location(place, extra)))
    }

    private mutating func within<T>(_ component: String, _ body: (inout Self) -> T) -> T {
        path.append(component)
        defer { path.removeLast() }
        return body(&self)
    }

    // MARK: Objects

    /// Checks any GeoJSON object (the root, a feature's geometry, a GeometryCollection member).
    mutating func checkObject(_ node: Int) {
        guard json.kind(node) == .object else {
            report(.error, GeoJSONDiagnosticCode.rootNotObject.code, "the root of a GeoJSON text must be an object, not \(json.typeName(node))",
                   at: node)
            return
        }
        checkDuplicates(node)
        guard let type = requiredMember(node, "type", .string) else { return }
        let name = json.string(type)!
        guard Self.allTypes.contains(name) else {
            if let expected = Self.allTypes.first(where: { $0.lowercased() == name.lowercased() }) {
                report(.error, GeoJSONDiagnosticCode.typeCase.code, "expected \(expected) but got \(name): type names are case sensitive",
                       at: node, ["type"])
            } else {
                report(.error, GeoJSONDiagnosticCode.unknownType.code, "the type \(name) is unknown", at: node, ["type"])
            }
            return
        }
        switch name {
        case "FeatureCollection": checkFeatureCollection(node)
        case "Feature": checkFeature(node)
        case "GeometryCollection": checkGeometryCollection(node)
        default: checkGeometry(node, type: name)
        }
    }

    /// Reports members that appear more than once (parsers disagree on which one counts).
    mutating func checkDuplicates(_ node: Int) {
        let members = json.members(node)
        guard members.count > 1 else { return }
        var seen = Set<String>()
        var reported = Set<String>()
        for member in members where !seen.insert(member.key).inserted && reported.insert(member.key).inserted {
            report(.error, GeoJSONDiagnosticCode.duplicateMember.code,
                   "member \"\(member.key)\" appears more than once, so parsers disagree on its value", at: node, [member.key])
        }
    }

    /// `checkDuplicates` on an object and every object nested in it (property values): readers
    /// keep one of the values, and which one differs between them.
    mutating func checkDuplicatesWithin(_ node: Int) {
        switch json.kind(node) {
        case .object:
            checkDuplicates(node)
            for member in json.members(node) {
                within(member.key) { check in check.checkDuplicatesWithin(member.value) }
            }
        case .array:
            for (index, element) in json.elements(node).enumerated() {
                within(String(index)) { check in check.checkDuplicatesWithin(element) }
            }
        default:
            break
        }
    }

    enum Expected { case string, array, object }

    /// The member's node when present and of the expected kind; otherwise reports it.
    /// `object` accepts null as well (a Feature's `properties` and `geometry`).
    private mutating func requiredMember(_ node: Int, _ name: String, _ expected: Expected) -> Int? {
        guard let value = json.member(node, name) else {
            report(.error, GeoJSONDiagnosticCode.missingMember.code, "\"\(name)\" member required", at: node)
            return nil
        }
        let kind = json.kind(value)
        let ok: Bool
        switch expected {
        case .string: ok = kind == .string
        case .array: ok = kind == .array || kind == .positions
        case .object: ok = kind == .object || kind == .null
        }
        if !ok {
            let wanted = expected == .string ? "a string" : expected == .array ? "an array" : "an object"
            report(.error, GeoJSONDiagnosticCode.memberType.code, "\"\(name)\" member should be \(wanted), but is \(json.typeName(value)) instead",
                   at: node, [name])
            return nil
        }
        return value
    }

    private mutating func forbid(_ node: Int, _ names: [String], in what: String) {
        for name in names where json.member(node, name) != nil {
            report(.error, GeoJSONDiagnosticCode.forbiddenMember.code, "\(what) object cannot contain a \"\(name)\" member", at: node, [name])
        }
    }

    /// RFC 7946 §4: `crs` was removed; the only coordinate system is WGS 84 longitude/latitude.
    private mutating func checkCRS(_ node: Int) {
        guard let crs = json.member(node, "crs"), json.kind(crs) != .null else { return }
        var isDefault = false
        if let properties = json.member(crs, "properties"), let name = json.member(properties, "name"),
           let text = json.string(name) {
            isDefault = text == "urn:ogc:def:crs:OGC:1.3:CRS84"
        }
        report(.warning, GeoJSONDiagnosticCode.crs.code,
               isDefault ? "old-style \"crs\" member names the default (CRS84) and should be removed"
                         : "old-style \"crs\" member is not part of RFC 7946; coordinates are read as WGS 84 anyway",
               at: node, ["crs"])
    }

    private mutating func checkBBox(_ node: Int) {
        guard let bbox = json.member(node, "bbox"), json.kind(bbox) != .null else { return }
        guard json.kind(bbox) == .array else {
            report(.error, GeoJSONDiagnosticCode.bboxNotArray.code, "bbox member must be an array of numbers, but is \(json.typeName(bbox))",
                   at: node, ["bbox"])
            return
        }
        let elements = json.elements(bbox)
        if elements.contains(where: { json.kind($0) != .number }) {
            report(.error, GeoJSONDiagnosticCode.bboxNotNumber.code, "each element in a bbox member must be a number", at: bbox, ["bbox"])
        }
        if elements.count != 4 && elements.count != 6 {
            report(.error, GeoJSONDiagnosticCode.bboxLength.code,
                   "bbox must contain 4 elements (for 2D) or 6 elements (for 3D), found \(elements.count)", at: bbox, ["bbox"])
        } else if !elements.contains(where: { json.kind($0) != .number }) {
            let half = elements.count / 2
            let south = json.number(elements[1])!, north = json.number(elements[half + 1])!
            if south > north {
                report(.error, GeoJSONDiagnosticCode.bboxOrder.code, "bbox south edge \(south) is north of its north edge \(north)",
                       at: bbox, ["bbox"])
            }
        }
    }

    mutating func checkFeatureCollection(_ node: Int) {
        checkCRS(node)
        checkBBox(node)
        forbid(node, ["properties", "coordinates"], in: "FeatureCollection")
        guard let features = requiredMember(node, "features", .array) else { return }
        within("features") { check in
            check.checkFeatureArray(features, collection: node)
        }
    }

    /// Checks the members of a `features` array already held in the arena.
    mutating func checkFeatureArray(_ features: Int, collection: Int) {
        let elements = json.elements(features)
        if elements.contains(where: { json.kind($0) != .object }) {
            report(.error, GeoJSONDiagnosticCode.featureNotObject.code, "every feature must be an object", at: collection, [])
            return
        }
        for (index, feature) in elements.enumerated() {
            within(String(index)) { check in
                check.checkDuplicates(feature)
                check.checkFeature(feature)
            }
        }
    }

    /// Checks one Feature (also each member of a FeatureCollection's `features`).
    mutating func checkFeature(_ node: Int) {
        checkCRS(node)
        checkBBox(node)
        if let id = json.member(node, "id"), json.kind(id) != .string && json.kind(id) != .number {
            report(.error, GeoJSONDiagnosticCode.idType.code, "Feature \"id\" member must have a string or number value, not \(json.typeName(id))",
                   at: node, ["id"])
        }
        forbid(node, ["features", "coordinates"], in: "Feature")
        let type = json.member(node, "type").flatMap { json.string($0) }
        if type != "Feature" {
            report(.error, GeoJSONDiagnosticCode.featureType.code, "members of \"features\" must have \"type\": \"Feature\"", at: node, ["type"])
        }
        if let properties = requiredMember(node, "properties", .object), json.kind(properties) == .object {
            within("properties") { check in check.checkDuplicatesWithin(properties) }
        }
        guard let geometry = requiredMember(node, "geometry", .object), json.kind(geometry) == .object else { return }
        within("geometry") { check in
            check.checkObject(geometry)
            check.expectGeometry(geometry)
        }
    }

    /// A Feature's geometry must be a geometry, not a Feature or FeatureCollection.
    private mutating func expectGeometry(_ node: Int) {
        if let type = json.member(node, "type").flatMap({ json.string($0) }), type == "Feature" || type == "FeatureCollection" {
            report(.error, GeoJSONDiagnosticCode.notAGeometry.code, "a \(type) cannot stand where a geometry is expected", at: node, ["type"])
        }
    }

    mutating func checkGeometryCollection(_ node: Int) {
        checkCRS(node)
        checkBBox(node)
        guard let geometries = requiredMember(node, "geometries", .array) else { return }
        let elements = json.elements(geometries)
        if elements.contains(where: { json.kind($0) != .object }) {
            report(.error, GeoJSONDiagnosticCode.geometryNotObject.code,
                   "the geometries array in a GeometryCollection must contain only geometry objects", at: node, ["geometries"])
        }
        if elements.count == 1 {
            report(.warning, GeoJSONDiagnosticCode.collectionSingle.code,
                   "a GeometryCollection with a single geometry should be that geometry or a multi-part geometry",
                   at: geometries, ["geometries"])
        }
        for (index, element) in elements.enumerated() where json.kind(element) == .object {
            if json.member(element, "type").flatMap({ json.string($0) }) == "GeometryCollection" {
                report(.warning, GeoJSONDiagnosticCode.collectionNested.code, "GeometryCollections should not nest (RFC 7946 §3.1.8)",
                       at: geometries, ["geometries", String(index)])
            }
            within("geometries") { check in
                check.within(String(index)) { inner in
                    inner.checkObject(element)
                    inner.expectGeometry(element)
                }
            }
        }
    }

    // MARK: Geometries and coordinates

    private mutating func checkGeometry(_ node: Int, type: String) {
        checkCRS(node)
        checkBBox(node)
        forbid(node, ["properties", "geometry", "features"], in: "geometry")
        guard var coordinates = requiredMember(node, "coordinates", .array) else { return }
        // Runs are read where the type puts positions; anywhere else (a malformed geometry)
        // the checks below see the ordinary nodes the text would give without runs.
        let positionDepth = type == "Point" ? 0 : type == "MultiPoint" || type == "LineString" ? 1
            : type == "MultiPolygon" ? 3 : 2
        if !runsWhereExpected(coordinates, depth: positionDepth) { coordinates = json.expandRuns(coordinates) }
        outOfRange = (0, nil)
        defer { reportOutOfRange() }
        within("coordinates") { check in
            switch type {
            case "Point":
                check.checkPosition(coordinates, line: coordinates)
            case "MultiPoint":
                _ = check.checkPositionArray(coordinates, kind: .none, depth: 1, line: coordinates)
            case "LineString":
                if check.checkPositionArray(coordinates, kind: .line, depth: 1, line: coordinates) == .sound {
                    check.checkGeometryValidity(node, coordinates, depth: 1)
                }
            case "MultiLineString":
                if check.checkPositionArray(coordinates, kind: .line, depth: 2, line: coordinates) == .sound {
                    check.checkGeometryValidity(node, coordinates, depth: 2)
                }
            case "Polygon":
                let verdict = check.checkPositionArray(coordinates, kind: .ring, depth: 2, line: coordinates)
                if verdict != .tooShallow { check.checkRightHandRule(node, coordinates, depth: 2) }
                if verdict == .sound { check.checkGeometryValidity(node, coordinates, depth: 3) }
            default:  // MultiPolygon
                let verdict = check.checkPositionArray(coordinates, kind: .ring, depth: 3, line: coordinates)
                if verdict != .tooShallow { check.checkRightHandRule(node, coordinates, depth: 3) }
                if verdict == .sound { check.checkGeometryValidity(node, coordinates, depth: 4) }
            }
            check.checkAntimeridian(coordinates, depth: type == "Point" ? 0 : type == "MultiPoint" || type == "LineString" ? 1
                                    : type == "MultiPolygon" ? 3 : 2, type: type)
        }
    }

    /// Whether every run below `node` stands where the geometry's positions belong, `depth`
    /// array levels down (1: `node` itself may be a run). O(arrays above the runs).
    private func runsWhereExpected(_ node: Int, depth: Int) -> Bool {
        switch json.kind(node) {
        case .positions:
            return depth == 1
        case .array:
            if depth == 0 { return !json.containsRun(node) }
            for index in 0..<json.childCount(node) where !runsWhereExpected(json.child(node, index), depth: depth - 1) {
                return false
            }
            return true
        default:
            return true
        }
    }

    private mutating func reportOutOfRange() {
        guard let (place, message) = outOfRange.first else { return }
        let more = outOfRange.count > 1 ? "; \(outOfRange.count) positions of this geometry are out of range" : ""
        // The pointer of the first offender is not kept; the line and column name it.
        report(.warning, GeoJSONDiagnosticCode.coordinateRange.code, message + more, at: place, ["coordinates"])
        outOfRange = (0, nil)
    }

    enum RunKind { case none, line, ring }

    /// What a coordinates check found: nothing wrong, a problem, or numbers where arrays belong
    /// (which stops geojsonhint's right-hand-rule check).
    enum Verdict: Comparable { case sound, problem, tooShallow }

    /// Walks nested coordinate arrays `depth` levels above the positions, as geojsonhint does,
    /// reporting each problem at the line of the innermost array that starts on a line.
    private mutating func checkPositionArray(_ node: Int, kind: RunKind, depth: Int, line: Int) -> Verdict {
        if depth == 0 {
            return checkPosition(node, line: line) ? .sound : .problem
        }
        if json.kind(node) == .positions {
            return checkRun(node, kind: kind)
        }
        guard json.kind(node) == .array else {
            report(.error, GeoJSONDiagnosticCode.coordinatesTooShallow.code,
                   "a \(json.typeName(node)) was found where a coordinate array should have been: it needs to be nested more deeply",
                   at: line)
            return .problem
        }
        let count = json.childCount(node)
        var verdict = Verdict.sound
        if depth == 1 && kind == .ring {
            if count > 0, json.kind(json.child(node, count - 1)) != .array {
                let last = json.child(node, count - 1)
                report(.error, GeoJSONDiagnosticCode.coordinatesTooShallow.code,
                       "a \(json.typeName(last)) was found where a coordinate array should have been: it needs to be nested more deeply",
                       at: node)
                return .tooShallow
            }
            if count < 4 {
                report(.error, GeoJSONDiagnosticCode.ringTooShort.code,
                       "a linear ring needs four or more positions, found \(count)", at: node)
                verdict = .problem
            }
            if count > 0, !samePosition(json.child(node, 0), json.child(node, count - 1)) {
                report(.error, GeoJSONDiagnosticCode.ringNotClosed.code,
                       "the first and last positions of a linear ring must be the same", at: node)
                verdict = .problem
            }
        } else if depth == 1 && kind == .line && count < 2 {
            report(.error, GeoJSONDiagnosticCode.lineTooShort.code, "a line needs two or more positions, found \(count)", at: node)
            return .problem
        }
        if depth == 1 {
            // The positions of one run (the bulk of a file): checked in place, the index path's
            // last step overwritten rather than pushed and popped per position.
            indexPath.append(0)
            let last = indexPath.count - 1
            for index in 0..<count {
                let element = json.child(node, index)
                let elementKind = json.kind(element)
                indexPath[last] = index
                if !checkPosition(element, line: elementKind == .array || elementKind == .object ? element : line) {
                    verdict = max(verdict, .problem)
                }
            }
            indexPath.removeLast()
            return verdict
        }
        for index in 0..<count {
            let element = json.child(node, index)
            let elementKind = json.kind(element)
            let elementLine = elementKind == .array || elementKind == .object ? element : line
            indexPath.append(index)
            let elementVerdict = checkPositionArray(element, kind: kind, depth: depth - 1, line: elementLine)
            indexPath.removeLast()
            verdict = max(verdict, elementVerdict)
        }
        return verdict
    }

    /// `checkPositionArray` one level above a run's positions: the same findings in the same
    /// order as on the ordinary nodes, read from the run.
    private mutating func checkRun(_ node: Int, kind: RunKind) -> Verdict {
        let positions = json.run(node)
        let count = positions.count
        var verdict = Verdict.sound
        if kind == .ring {
            // Every element of a run is an array, so a ring is never too shallow here.
            if count < 4 {
                report(.error, GeoJSONDiagnosticCode.ringTooShort.code,
                       "a linear ring needs four or more positions, found \(count)", at: node)
                verdict = .problem
            }
            if count > 0, !sameRunPosition(json.runPositions[positions.lowerBound], json.runPositions[positions.upperBound - 1]) {
                report(.error, GeoJSONDiagnosticCode.ringNotClosed.code,
                       "the first and last positions of a linear ring must be the same", at: node)
                verdict = .problem
            }
        } else if kind == .line && count < 2 {
            report(.error, GeoJSONDiagnosticCode.lineTooShort.code, "a line needs two or more positions, found \(count)", at: node)
            return .problem
        }
        indexPath.append(0)
        let last = indexPath.count - 1
        let runPositions = json.runPositions, coordinates = json.coordinates
        runPositions.withUnsafeBufferPointer { runPositions in
            coordinates.withUnsafeBufferPointer { coordinates in
                for (index, slot) in positions.enumerated() {
                    let position = runPositions[slot]
                    // A sound position (2 or 3 numbers, in range) costs no call: nothing to
                    // report, and excess decimals once the advice's list is full only count.
                    if UInt32(bitPattern: position.count &- 2) <= 1 {
                        let longitude = coordinates[Int(position.start)], latitude = coordinates[Int(position.start) + 1]
                        if latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180 {
                            if Int(position.decimals) <= PrecisionTally.maximumDecimals { continue }
                            if precision.hasUnreported {
                                precision.count += 1
                                continue
                            }
                        }
                    }
                    indexPath[last] = index
                    if !checkRunPosition(position) { verdict = max(verdict, .problem) }
                }
            }
        }
        indexPath.removeLast()
        return verdict
    }

    private func sameRunPosition(_ a: LocatedJSON.RunPosition, _ b: LocatedJSON.RunPosition) -> Bool {
        guard a.count == b.count else { return false }
        for element in 0..<Int(a.count) where json.coordinate(a, element) != json.coordinate(b, element) { return false }
        return true
    }

    /// A position's element count: fewer than 2 is an error (false), more than 3 a warning.
    private mutating func checkPositionCount(_ count: Int, at place: Place) -> Bool {
        if count < 2 {
            report(.error, GeoJSONDiagnosticCode.positionTooShort.code, "a position must have 2 or more elements, found \(count)", at: place)
            return false
        }
        if count > 3 {
            report(.warning, GeoJSONDiagnosticCode.positionTooLong.code,
                   "a position should not have more than 3 elements (RFC 7946 §3.1.1), found \(count)", at: place)
        }
        return true
    }

    /// `checkPosition` for a position of a run: all its elements are finite numbers (the reader
    /// made sure), so only their count, range and precision are left to check.
    @inline(__always)
    private mutating func checkRunPosition(_ position: LocatedJSON.RunPosition) -> Bool {
        let place = Place(line: position.line, column: position.column)
        guard checkPositionCount(Int(position.count), at: place) else { return false }
        let longitude = json.coordinate(position, 0), latitude = json.coordinate(position, 1)
        var sound = true
        if latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180 {
            sound = outOfRange(longitude: longitude, latitude: latitude, at: place)
        }
        if Int(position.decimals) > PrecisionTally.maximumDecimals { excessPrecision(at: place) }
        return sound
    }

    /// Notes a position out of range (one warning per geometry, reported at its end); false
    /// when the latitude leaves the map.
    private mutating func outOfRange(longitude: Double, latitude: Double, at place: Place) -> Bool {
        // A swapped or projected file would otherwise flood the report. Latitudes beyond ±90°
        // have no place on the map, so geometry validity is not judged for them; longitudes a
        // little past ±180° still have one.
        if outOfRange.count == 0 {
            outOfRange.first = (place, latitude < -90 || latitude > 90
                ? "latitude \(latitude) is outside -90…90 (is the position [latitude, longitude], or projected?)"
                : "longitude \(longitude) is outside -180…180")
        }
        outOfRange.count += 1
        return !(latitude < -90 || latitude > 90)
    }

    /// Counts a position with excess precision, reporting the first few one by one.
    private mutating func excessPrecision(at place: Place) {
        precision.count += 1
        if precision.count <= PrecisionTally.reportedLimit {
            report(.note, GeoJSONDiagnosticCode.precision.code,
                   "more than \(PrecisionTally.maximumDecimals) decimals (finer than 10 cm); the precision of coordinates should be reduced",
                   at: place)
        } else if !precision.hasUnreported {
            precision.hasUnreported = true
            precision.firstUnreported = location(place)
        }
    }

    private func samePosition(_ a: Int, _ b: Int) -> Bool {
        let count = json.childCount(a)
        guard json.kind(a) == .array, json.kind(b) == .array, count == json.childCount(b) else { return false }
        for index in 0..<count {
            let x = json.child(a, index), y = json.child(b, index)
            guard json.kind(x) == json.kind(y) && json[x].number == json[y].number else { return false }
        }
        return true
    }

    /// Checks one position; true when it is 2 or 3 numbers within range.
    @discardableResult
    private mutating func checkPosition(_ node: Int, line: Int) -> Bool {
        guard json.kind(node) == .array else {
            report(.error, GeoJSONDiagnosticCode.positionNotArray.code, "a position should be an array, is a \(json.typeName(node)) instead",
                   at: line)
            return false
        }
        let count = json.childCount(node)
        guard checkPositionCount(count, at: place(node)) else { return false }
        var finite = true
        for index in 0..<count {
            let number = json[json.child(node, index)]
            guard number.kind == .number else {
                report(.error, GeoJSONDiagnosticCode.positionNotNumber.code, "each element in a position must be a number", at: node)
                return false
            }
            if !number.number.isFinite { finite = false }
        }
        let longitudeNode = json[json.child(node, 0)], latitudeNode = json[json.child(node, 1)]
        let longitude = longitudeNode.number, latitude = latitudeNode.number
        var sound = true
        if !finite {
            report(.error, .geometryNonFinite, "a position holds a number too large to represent", at: node)
            return false
        }
        if latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180 {
            sound = outOfRange(longitude: longitude, latitude: latitude, at: place(node))
        }
        if Int(longitudeNode.count) > PrecisionTally.maximumDecimals || Int(latitudeNode.count) > PrecisionTally.maximumDecimals {
            excessPrecision(at: place(node))
        }
        return sound
    }

    /// geojsonhint's right-hand-rule check (RFC 7946 §3.1.6): exterior rings counterclockwise,
    /// holes clockwise, by the sign of the ring's area on the sphere.
    private mutating func checkRightHandRule(_ node: Int, _ coordinates: Int, depth: Int) {
        let polygons = depth == 2 ? [coordinates] : json.elements(coordinates)
        for polygon in polygons where json.kind(polygon) == .array {
            for (index, ring) in json.elements(polygon).enumerated() where json.kind(ring) == .array || json.kind(ring) == .positions {
                let clockwise = isClockwiseOnSphere(ring)
                if clockwise == (index == 0) {
                    report(.warning, GeoJSONDiagnosticCode.rightHandRule.code,
                           "polygons should follow the right-hand rule: exterior rings counterclockwise, holes clockwise",
                           at: node)
                    return
                }
            }
        }
    }

    private func isClockwiseOnSphere(_ ring: Int) -> Bool {
        let radians = Double.pi / 180
        var area = 0.0
        var previous: (longitude: Double, sine: Double)?
        if json.kind(ring) == .positions {
            let positions = json.run(ring)
            guard positions.count > 2 else { return true }
            for slot in positions {
                let position = json.runPositions[slot]
                guard position.count >= 2 else { continue }
                let longitude = json.coordinate(position, 0)
                let sine = sin(json.coordinate(position, 1) * radians)
                if let previous {
                    area += (longitude - previous.longitude) * radians * (2 + previous.sine + sine)
                }
                previous = (longitude, sine)
            }
            return area >= 0
        }
        let count = json.childCount(ring)
        guard count > 2 else { return true }
        for index in 0..<count {
            let position = json.child(ring, index)
            guard json.kind(position) == .array, json.childCount(position) >= 2 else { continue }
            let longitude = json[json.child(position, 0)].number
            let sine = sin(json[json.child(position, 1)].number * radians)
            if let previous {
                area += (longitude - previous.longitude) * radians * (2 + previous.sine + sine)
            }
            previous = (longitude, sine)
        }
        return area >= 0
    }

    /// RFC 7946 §3.1.9: geometry that crosses the antimeridian should be cut in two. A segment
    /// spanning more than 180° of longitude is taken as such a crossing.
    private mutating func checkAntimeridian(_ coordinates: Int, depth: Int, type: String) {
        guard depth >= 1, type != "MultiPoint" else { return }
        // A copy (its buffers shared) the longitude sequences read while `report` changes self.
        let json = self.json
        var runs = [coordinates]
        for _ in 1..<depth { runs = runs.flatMap { json.kind($0) == .array ? json.elements($0) : [] } }
        for run in runs {
            switch json.kind(run) {
            case .positions:
                // Most runs have no jump: find that without the general sequence, which then
                // reports the one there is.
                guard Self.hasJump(json.run(run), json.runPositions, json.coordinates) else { continue }
                let longitudes = json.run(run).lazy.map { Optional(json.coordinate(json.runPositions[$0], 0)) }
                if reportedJump(in: longitudes, at: run) { return }
            case .array:
                let longitudes = (0..<json.childCount(run)).lazy.map { index -> Double? in
                    let position = json.child(run, index)
                    guard json.kind(position) == .array, json.childCount(position) > 0 else { return nil }
                    return json.number(json.child(position, 0))
                }
                if reportedJump(in: longitudes, at: run) { return }
            default:
                continue
            }
        }
    }

    /// Whether two consecutive positions of a run differ by more than 180° of longitude.
    private static func hasJump(_ slots: Range<Int>, _ runPositions: [LocatedJSON.RunPosition], _ coordinates: [Double]) -> Bool {
        guard slots.count > 1 else { return false }
        return runPositions.withUnsafeBufferPointer { runPositions in
            coordinates.withUnsafeBufferPointer { coordinates in
                var previous = coordinates[Int(runPositions[slots.lowerBound].start)]
                for slot in slots.dropFirst() {
                    let longitude = coordinates[Int(runPositions[slot].start)]
                    if abs(longitude - previous) > 180 { return true }
                    previous = longitude
                }
                return false
            }
        }
    }

    /// Reports the first jump of more than 180° between consecutive longitudes of `run` (nil: a
    /// position without one, which no segment crosses); whether it found one.
    private mutating func reportedJump(in longitudes: some Sequence<Double?>, at run: Int) -> Bool {
        var previous: Double?
        for longitude in longitudes {
            guard let longitude else {
                previous = nil
                continue
            }
            if let previous, abs(longitude - previous) > 180 {
                report(.warning, GeoJSONDiagnosticCode.antimeridian.code,
                       "a segment jumps from longitude \(previous) to \(longitude): geometry crossing the antimeridian should be cut in two (RFC 7946 §3.1.9)",
                       at: run)
                return true
            }
            previous = longitude
        }
        return false
    }

    // MARK: Geometry validity

    /// Hands sound polygons and lines to `GeometryValidity` in map points and reports what it
    /// finds at the ring or line it names.
    private mutating func checkGeometryValidity(_ node: Int, _ coordinates: Int, depth: Int) {
        guard checksGeometry else { return }
        // depth: 1 line, 2 multi-line, 3 polygon, 4 multipolygon (levels above the numbers).
        // Runs are read in place; ordinary arrays (left by a run the reader declined) copied.
        func buffer(_ run: Int) -> [Coordinate] {
            var list: [Coordinate] = []
            if json.kind(run) == .positions { return Array(RunCoordinates(json, run)) }
            let count = json.childCount(run)
            list.reserveCapacity(count)
            for index in 0..<count {
                let position = json.child(run, index)
                list.append(Coordinate(latitude: json[json.child(position, 1)].number,
                                       longitude: json[json.child(position, 0)].number))
            }
            return list
        }
        switch depth {
        case 1, 2:
            let lines = depth == 1 ? [coordinates] : json.elements(coordinates)
            for (index, line) in lines.enumerated() {
                let findings = json.kind(line) == .positions ? GeometryValidity.checkLine(coordinates: RunCoordinates(json, line))
                    : GeometryValidity.checkLine(buffer(line))
                for finding in findings {
                    let components = depth == 1 ? [] : [String(index)]
                    record(finding, run: line, components: components)
                }
            }
        default:
            let polygonNodes = depth == 3 ? [coordinates] : json.elements(coordinates)
            let ringNodes = polygonNodes.map { json.elements($0) }
            let runs = ringNodes.allSatisfy({ $0.allSatisfy { json.kind($0) == .positions } })
            let findings = runs ? Self.checkRingsInPlace(json, ringNodes)
                ?? GeometryValidity.checkPolygons(coordinates: ringNodes.map { $0.map { RunCoordinates(json, $0) } })
                : GeometryValidity.checkPolygons(ringNodes.map { $0.map(buffer) })
            for finding in findings {
                let polygonNode = polygonNodes[finding.polygon]
                let ringNode = json.elements(polygonNode)[finding.ring]
                let components = (depth == 3 ? [] : [String(finding.polygon)]) + [String(finding.ring)]
                record(finding, run: ringNode, components: components)
            }
        }
    }

    /// Geometry validity of rings that are runs of two-number positions, read where the reader
    /// put their numbers: consecutive (longitude, latitude) pairs are the validity plane's
    /// points as they are (mirrored), no copy. Nil when a ring is not such a run, or not a clean
    /// closed ring (`GeometryValidity.checkClosedRings`); the caller then reads them as before.
    private static func checkRingsInPlace(_ json: LocatedJSON, _ ringNodes: [[Int]]) -> [GeometryValidity.Finding]? {
        var rings: [(polygon: Int, ring: Int, first: Int, count: Int)] = []
        for (polygon, nodes) in ringNodes.enumerated() {
            for (ring, node) in nodes.enumerated() {
                let slots = json.run(node)
                guard let firstSlot = slots.first else { return nil }
                let start = Int(json.runPositions[firstSlot].start)
                guard start % 2 == 0 else { return nil }
                // Two numbers a position, each right after the one before: pairs in the buffer.
                for slot in slots {
                    let position = json.runPositions[slot]
                    guard position.count == 2, Int(position.start) == start + 2 * (slot - firstSlot) else { return nil }
                }
                rings.append((polygon, ring, start / 2, slots.count))
            }
        }
        return json.coordinates.withUnsafeBufferPointer { numbers in
            UnsafeBufferPointer(rebasing: numbers[0..<(numbers.count & ~1)]).withMemoryRebound(to: MapPoint.self) { points in
                GeometryValidity.checkClosedRings(lonLat: points, rings: rings, polygonCount: ringNodes.count)
            }
        }
    }

    private mutating func record(_ finding: GeometryValidity.Finding, run: Int, components: [String]) {
        var extra = components
        var node = run
        if let vertex = finding.vertex {
            extra.append(String(vertex))
            if json.kind(run) == .positions {
                let positions = json.run(run)
                if vertex < positions.count {
                    let position = json.runPositions[positions.lowerBound + vertex]
                    report(finding.severity, finding.code, finding.message, at: Place(line: position.line, column: position.column), extra)
                    return
                }
            }
            let elements = json.elements(run)
            if vertex < elements.count { node = elements[vertex] }
        }
        report(finding.severity, finding.code, finding.message, at: node, extra)
    }
}

/// The positions of a run as coordinates, read where the reader put them (no copy).
private struct RunCoordinates: RandomAccessCollection {
    let coordinates: [Double]
    let positions: [LocatedJSON.RunPosition]
    let first: Int
    let endIndex: Int

    init(_ json: LocatedJSON, _ run: Int) {
        coordinates = json.coordinates
        positions = json.runPositions
        let range = json.run(run)
        first = range.lowerBound
        endIndex = range.count
    }

    var startIndex: Int { 0 }

    subscript(index: Int) -> Coordinate {
        let start = Int(positions[first + index].start)
        return Coordinate(latitude: coordinates[start + 1], longitude: coordinates[start])
    }
}

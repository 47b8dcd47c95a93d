import OverlayModel

extension ValidationProfile {
    /// The profile `--profile` names: a built-in profile's name, else a profile file (JSON, or
    /// the YAML subset `ProfileYAML` reads).
    /// - Throws: `Diagnostic` `profile.unknown` when it is neither; `profile.invalid` (with the
    ///   file, line and column or JSON Pointer) when the file is not a profile.
    public static func named(_ nameOrPath: String) throws -> ValidationProfile {
        if let profile = builtIn[nameOrPath] { return profile }
        let looksLikeFile = nameOrPath.contains("/") || nameOrPath.contains(".")
        guard looksLikeFile, (try? ByteInput(path: nameOrPath)) != nil else {
            throw Diagnostic(.error, code: .profileUnknown,
                             message: "--profile \(nameOrPath): no such built-in profile (\(builtInNames.joined(separator: ", "))) and no such file")
        }
        return try ValidationProfile(contentsOf: nameOrPath)
    }

    /// Reads a profile file: JSON when it is named `.json` or starts with `{`, else YAML.
    ///
    /// ```yaml
    /// name: our-viewer
    /// title: Our field app's viewer
    /// extends: google-maps          # optional: start from a built-in profile's limits
    /// formats: [kml, kmz]
    /// limits:
    ///   - id: features              # replaces the base profile's limit of that id
    ///     measure: features
    ///     max: 500
    ///     severity: error           # error (default), warning or note
    ///     summary: at most 500 features
    ///     source: https://wiki.example.com/viewer-limits
    /// ```
    /// - Throws: `Diagnostic` `profile.invalid` naming the file and the line and column (YAML,
    ///   and JSON syntax) or JSON Pointer of the first problem; `io.*` when it cannot be read.
    public init(contentsOf path: String) throws {
        let bytes = try ByteInput(path: path).readAll()
        let text = String(decoding: bytes, as: UTF8.self)
        let isJSON = path.lowercased().hasSuffix(".json") || text.drop(while: { $0.isWhitespace }).first == "{"
        let value: JSONValue
        var places: [String: SourceLocation] = [:]
        if isJSON {
            do {
                value = try JSONScanner(input: ByteInput(bytes: bytes, name: path)).readValue()
            } catch let diagnostic as Diagnostic where !diagnostic.isIOError {
                throw Diagnostic(.error, code: .profileInvalid, message: "not a profile JSON: \(diagnostic.message)", location: diagnostic.location)
            }
        } else {
            var yaml = try ProfileYAML(text, file: path)
            value = try yaml.value()
            places = yaml.places
        }
        self = try ProfileDocument(file: path, places: places).profile(from: value)
    }
}

/// Turns a profile document's value into a `ValidationProfile`, refusing unknown keys, wrong
/// types and unknown measures or formats, each at its place (line and column when known, else
/// the JSON Pointer).
private struct ProfileDocument {
    let file: String
    let places: [String: SourceLocation]

    func profile(from value: JSONValue) throws -> ValidationProfile {
        let root = try object(value, at: "")
        try onlyKeys(root, ["name", "title", "source", "extends", "formats", "limits"], at: "")
        let name = try string(root["name"], at: "/name", required: true)!
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw failure("name is letters, digits, '-' and '_' (it names SARIF rules)", at: "/name")
        }
        var base: ValidationProfile?
        if let extends = try string(root["extends"], at: "/extends") {
            guard let found = ValidationProfile.builtIn[extends] else {
                throw failure("extends names no built-in profile (\(ValidationProfile.builtInNames.joined(separator: ", ")))", at: "/extends")
            }
            base = found
        }
        var limits = base?.limits ?? []
        if let list = root["limits"] {
            guard case .array(let items) = list else { throw failure("limits is a list", at: "/limits") }
            var ids: Set<String> = []
            for (index, item) in items.enumerated() {
                let limit = try self.limit(item, at: "/limits/\(index)")
                guard ids.insert(limit.id).inserted else { throw failure("limit id '\(limit.id)' appears twice", at: "/limits/\(index)/id") }
                if let replaced = limits.firstIndex(where: { $0.id == limit.id }) { limits[replaced] = limit } else { limits.append(limit) }
            }
        }
        guard !limits.isEmpty || root["formats"] != nil else { throw failure("a profile has limits or formats", at: "") }
        return ValidationProfile(name: name, title: try string(root["title"], at: "/title") ?? name,
                                 source: try string(root["source"], at: "/source") ?? base?.source,
                                 formats: try formats(root["formats"], at: "/formats") ?? base?.formats, limits: limits)
    }

    private func limit(_ value: JSONValue, at pointer: String) throws -> ProfileLimit {
        let entry = try object(value, at: pointer)
        try onlyKeys(entry, ["id", "measure", "max", "min", "formats", "severity", "summary", "source"], at: pointer)
        let id = try string(entry["id"], at: pointer + "/id", required: true)!
        let measureName = try string(entry["measure"], at: pointer + "/measure", required: true)!
        guard let measure = ProfileMeasure(rawValue: measureName) else {
            throw failure("measure '\(measureName)' is none of \(ProfileMeasure.allCases.map(\.rawValue).joined(separator: ", "))",
                          at: pointer + "/measure")
        }
        let maximum = try count(entry["max"], at: pointer + "/max"), minimum = try count(entry["min"], at: pointer + "/min")
        guard maximum != nil || minimum != nil else { throw failure("a limit has max, min or both", at: pointer) }
        if let maximum, let minimum, minimum > maximum { throw failure("min is above max", at: pointer + "/min") }
        var severity = Diagnostic.Severity.error
        if let name = try string(entry["severity"], at: pointer + "/severity") {
            guard let parsed = Diagnostic.Severity(rawValue: name) else { throw failure("severity is error, warning or note", at: pointer + "/severity") }
            severity = parsed
        }
        let formats = try formats(entry["formats"], at: pointer + "/formats")
        if let formats, formats.allSatisfy({ !measure.formats.contains($0) }) {
            throw failure("\(measure.rawValue) measures \(measure.formats.sorted().joined(separator: ", ")) inputs only", at: pointer + "/formats")
        }
        let bounds = [maximum.map { "at most \(ProfileNumbers.format($0))" }, minimum.map { "at least \(ProfileNumbers.format($0))" }]
        let summary = try string(entry["summary"], at: pointer + "/summary")
            ?? "\(bounds.compactMap { $0 }.joined(separator: " and ")) \(measure.unit)"
        return ProfileLimit(id: id, measure: measure, maximum: maximum, minimum: minimum, formats: formats, severity: severity,
                            summary: summary, source: try string(entry["source"], at: pointer + "/source"))
    }

    private func object(_ value: JSONValue, at pointer: String) throws -> JSONObject {
        guard case .object(let object) = value else { throw failure("expected a mapping of keys to values", at: pointer) }
        return object
    }

    private func onlyKeys(_ object: JSONObject, _ allowed: Set<String>, at pointer: String) throws {
        for key in object.keys where !allowed.contains(key) {
            throw failure("'\(key)' is not a profile key here (\(allowed.sorted().joined(separator: ", ")))", at: pointer + "/" + JSONPointer.escape(key))
        }
    }

    private func string(_ value: JSONValue?, at pointer: String, required: Bool = false) throws -> String? {
        switch value {
        case nil, .null?:
            if required { throw failure("\(pointer.split(separator: "/").last ?? "") is required", at: pointer) }
            return nil
        case .string(let text)?: return text
        default: throw failure("expected text", at: pointer)
        }
    }

    private func count(_ value: JSONValue?, at pointer: String) throws -> Int64? {
        switch value {
        case nil, .null?: return nil
        case .integer(let number)? where number >= 0: return number
        case .number(let number)? where number >= 0 && number == number.rounded() && number < 9.2e18: return Int64(number)
        default: throw failure("expected a whole number, 0 or more", at: pointer)
        }
    }

    private func formats(_ value: JSONValue?, at pointer: String) throws -> [String]? {
        switch value {
        case nil, .null?: return nil
        case .array(let items)?:
            return try items.enumerated().map { index, item in
                guard case .string(let name) = item, ValidationProfile.formatNames.contains(name) else {
                    throw failure("a format is one of \(ValidationProfile.formatNames.joined(separator: ", "))", at: pointer + "/\(index)")
                }
                return name
            }
        default: throw failure("formats is a list: [kml, kmz]", at: pointer)
        }
    }

    /// A `profile.invalid` at `pointer`: its line and column when known, else the file and pointer.
    private func failure(_ message: String, at pointer: String) -> Diagnostic {
        var location = places[pointer] ?? SourceLocation(file: file, line: 0, column: 0)
        location.jsonPointer = pointer.isEmpty ? nil : pointer
        return Diagnostic(.error, code: .profileInvalid, message: message, location: location)
    }
}

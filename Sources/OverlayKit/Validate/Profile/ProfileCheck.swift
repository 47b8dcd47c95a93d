import OverlayModel

/// Measures a run's inputs against profiles (`validate --profile`): one `CheckReport` per
/// profile, with a finding for each input of a format the target does not load and for each
/// limit passed, giving the measured value, the limit, and where the count passed it (the
/// 1,001st feature, the layer, the archive entry or tile) when there is such a place.
public struct ProfileCheck: ValidationCheck {
    /// The profiles, in the order reports list them.
    public var profiles: [ValidationProfile]

    /// A check of `profiles`.
    public init(profiles: [ValidationProfile]) {
        self.profiles = profiles
    }

    /// One report per profile. Inputs that could not be read are left to their own findings.
    public func run(on inputs: [ValidationInput]) -> [CheckReport] {
        var reports = profiles.map { profile in
            CheckReport(kind: "profile", name: profile.name, title: profile.title, source: profile.source,
                        rules: profile.limits.map { rule(for: $0, of: profile) } + [formatRule(of: profile)])
        }
        for input in inputs where !input.result.isUnreadable {
            guard let format = input.result.formatName else { continue }
            // Each measure once per input, with every threshold any profile asks about.
            var needs: [ProfileMeasure: Set<Int64>] = [:]
            for profile in profiles where profile.formats?.contains(format) ?? true {
                for limit in profile.limits where limit.applies(to: format) {
                    needs[limit.measure, default: []].formUnion([limit.maximum].compactMap { $0 })
                }
            }
            let measurement = needs.isEmpty ? ProfileMeasurement() : ProfileMeasurer.measure(input, format: format, needs: needs)
            for (index, profile) in profiles.enumerated() {
                reports[index].findings += findings(for: input, format: format, measurement: measurement, profile: profile)
            }
        }
        return reports
    }

    /// What `profile` says of one measured input.
    func findings(for input: ValidationInput, format: String, measurement: ProfileMeasurement,
                  profile: ValidationProfile) -> [CheckFinding] {
        let wholeFile = SourceLocation(file: input.name, line: 0, column: 0)
        if let formats = profile.formats, !formats.contains(format) {
            let diagnostic = Diagnostic(.error, code: .profileFormatNotAccepted,
                                        message: "\(profile.name): \(profile.title) does not load \(format) files; it loads \(formats.joined(separator: ", "))",
                                        location: wholeFile)
            return [CheckFinding(diagnostic, ruleID: formatRule(of: profile).id,
                                 properties: ["profile": .string(profile.name), "measured": .string(format),
                                              "accepted": .array(formats.map { .string($0) })])]
        }
        var found: [CheckFinding] = []
        for limit in profile.limits where limit.applies(to: format) {
            let ruleID = rule(for: limit, of: profile).id
            guard let measured = measurement.values[limit.measure] else {
                if let failure = measurement.failures[limit.measure] {
                    found.append(CheckFinding(Diagnostic(.warning, code: .profileUnmeasured,
                                                         message: "\(profile.name): \(limit.measure.rawValue) could not be measured: \(failure.message)",
                                                         location: failure.location ?? wholeFile),
                                              ruleID: ruleID, properties: ["profile": .string(profile.name)]))
                }
                continue
            }
            let what = ProfileNumbers.describe(measured.value, limit.measure)
            let item = measured.item.map { " (\($0))" } ?? ""
            if let maximum = limit.maximum, measured.value > maximum {
                let message = "\(profile.name): \(what)\(item); \(limit.summary) — \(ProfileNumbers.format(maximum)) allowed"
                found.append(finding(limit, profile, ruleID, code: .profileOverLimit, message: message, measured: measured.value,
                                     bound: ("maximum", maximum), location: measured.passed[maximum] ?? wholeFile))
            }
            if let minimum = limit.minimum, measured.value < minimum {
                let message = "\(profile.name): \(what); \(limit.summary) — at least \(ProfileNumbers.format(minimum)) needed"
                found.append(finding(limit, profile, ruleID, code: .profileUnderLimit, message: message, measured: measured.value,
                                     bound: ("minimum", minimum), location: wholeFile))
            }
        }
        return found
    }

    private func finding(_ limit: ProfileLimit, _ profile: ValidationProfile, _ ruleID: String, code: Diagnostic.Code,
                         message: String, measured: Int64, bound: (name: String, value: Int64), location: SourceLocation) -> CheckFinding {
        CheckFinding(Diagnostic(limit.severity, code: code, message: message, location: location), ruleID: ruleID, properties: [
            "profile": .string(profile.name), "measure": .string(limit.measure.rawValue), "measured": .integer(measured),
            bound.name: .integer(bound.value), "unit": .string(limit.measure.unit),
        ])
    }

    /// The report rule of a limit: `profile/<profile>/<limit>`, with its source and facts.
    func rule(for limit: ProfileLimit, of profile: ValidationProfile) -> CheckRule {
        var properties: JSONObject = ["profile": .string(profile.name), "measure": .string(limit.measure.rawValue)]
        if let maximum = limit.maximum { properties.append("maximum", .integer(maximum)) }
        if let minimum = limit.minimum { properties.append("minimum", .integer(minimum)) }
        properties.append("unit", .string(limit.measure.unit))
        if let formats = limit.formats { properties.append("formats", .array(formats.map { .string($0) })) }
        return CheckRule(id: "profile/\(profile.name)/\(limit.id)",
                         code: limit.maximum != nil ? .profileOverLimit : .profileUnderLimit,
                         summary: limit.summary, helpURI: limit.source ?? profile.source, properties: properties)
    }

    /// The rule that an input's format is one the target loads.
    func formatRule(of profile: ValidationProfile) -> CheckRule {
        CheckRule(id: "profile/\(profile.name)/format", code: .profileFormatNotAccepted,
                  summary: "the input is a format \(profile.title) loads: \((profile.formats ?? ["any"]).joined(separator: ", "))",
                  helpURI: profile.source,
                  properties: ["profile": .string(profile.name), "accepted": .array((profile.formats ?? []).map { .string($0) })])
    }
}

/// Numbers as messages give them: thousands grouped, sizes also in KB/MB.
enum ProfileNumbers {
    /// `1234567` → `1,234,567`.
    static func format(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `3,145,729 bytes (3.1 MB)`, `1,204 features`.
    static func describe(_ value: Int64, _ measure: ProfileMeasure) -> String {
        var text = "\(format(value)) \(measure.unit)"
        if measure.unit == "bytes" && value >= 1_000 {
            let (scaled, unit) = value >= 1_000_000_000 ? (Double(value) / 1e9, "GB") : value >= 1_000_000 ? (Double(value) / 1e6, "MB")
                : (Double(value) / 1e3, "KB")
            text += " (\((scaled * 10).rounded(.down) / 10) \(unit))"
        }
        return text
    }
}

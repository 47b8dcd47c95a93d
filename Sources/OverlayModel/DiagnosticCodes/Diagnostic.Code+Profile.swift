// `overlaykit validate --profile`: a target's limits (Google Maps, Mapbox uploads…) and profile files.

extension Diagnostic.Code {
    /// `profile.format-not-accepted` (finding): The profile's target does not load inputs of this format.
    public static let profileFormatNotAccepted = Diagnostic.Code("profile.format-not-accepted", kind: .finding)
    /// `profile.invalid` (usage): A profile file is not a profile: its JSON or YAML is malformed, or a key or value is not one a profile takes.
    public static let profileInvalid = Diagnostic.Code("profile.invalid", kind: .usage)
    /// `profile.over-limit` (finding): A measured value is above a limit of the profile.
    public static let profileOverLimit = Diagnostic.Code("profile.over-limit", kind: .finding)
    /// `profile.under-limit` (finding): A measured value is below a minimum of the profile (an empty tile set, a KML without layers).
    public static let profileUnderLimit = Diagnostic.Code("profile.under-limit", kind: .finding)
    /// `profile.unknown` (usage): `--profile` names neither a built-in profile nor a profile file.
    public static let profileUnknown = Diagnostic.Code("profile.unknown", kind: .usage)
    /// `profile.unmeasured` (finding): An input could not be measured for a limit (a damaged KMZ or tile set); the limit is not judged.
    public static let profileUnmeasured = Diagnostic.Code("profile.unmeasured", kind: .finding)

    /// The codes above, in order, for ``allDeclared``.
    static let profileCodes: [Diagnostic.Code] = [
        .profileFormatNotAccepted,
        .profileInvalid,
        .profileOverLimit,
        .profileUnderLimit,
        .profileUnknown,
        .profileUnmeasured,
    ]
}

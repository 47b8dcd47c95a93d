import OverlayModel

extension KMLValidator.Walk {
    /// Feature and document rules: the root holds a feature (ATC 45, level 2), a phoneNumber is a `tel:` URI (ATC 24).
    mutating func checkFeatureRules(_ frame: KMLValidator.Frame, text: String) {
        switch frame.name {
        case "kml":
            // ATC 45 (level 2): a feature or NetworkLinkControl under the root.
            if !frame.childCounts.keys.contains(where: { KMLATSChecks.features.contains($0) || $0 == "NetworkLinkControl" }) {
                ats(.warning, .kmlEmptyRoot, "<kml> holds no feature and no NetworkLinkControl", frame)
            }
        case "phoneNumber":
            // ATC 24.
            if !KMLATSChecks.isTelephoneURI(text) {
                ats(.error, .kmlPhoneNumberUri, "phoneNumber '\(text.prefix(40))' is not a tel: URI (RFC 3966), e.g. tel:+1-555-0100", frame)
            }
        default:
            break
        }
    }
}

import OverlayModel

extension KMLValidator.Walk {
    /// Link rules: Link, Icon and Url (ATC 9, 40, 46, 47, 51), NetworkLinkControl (ATC 20).
    mutating func checkLinkRules(_ frame: KMLValidator.Frame) {
        let values = frame.values
        switch frame.name {
        case "Link", "Icon", "Url":
            checkLink(frame)
        case "NetworkLinkControl":
            // ATC 20.
            if let period = values["minRefreshPeriod"].flatMap(KMLATSChecks.number), period < 0 {
                ats(.error, .kmlMinRefreshPeriod, "minRefreshPeriod is negative (\(period))", frame)
            }
        default:
            break
        }
    }

    /// Link, Icon and Url: ATC 9 (positive intervals), ATC 40 (an href), ATC 46, 47, 51 (level 2).
    private mutating func checkLink(_ frame: KMLValidator.Frame) {
        let values = frame.values
        if frame.childCounts["href"] == nil && !frame.inUpdate {
            ats(.error, .kmlLinkHrefMissing, "<\(frame.qualifiedName)> has no <href>", frame)
        }
        for field in ["refreshInterval", "viewRefreshTime", "viewBoundScale"] {
            if let value = values[field].flatMap(KMLATSChecks.number), value <= 0 {
                ats(.error, .kmlLinkValueNotPositive, "<\(field)> must be positive, found \(values[field]!)", frame)
            }
        }
        if values["refreshInterval"] != nil, values["refreshMode"] != "onInterval" {
            ats(.warning, .kmlLinkRefreshMode, "refreshInterval is given but refreshMode is \(values["refreshMode"] ?? "onChange (the default)"), not onInterval", frame)
        }
        if values["viewRefreshTime"] != nil, values["viewRefreshMode"] != "onStop" {
            ats(.warning, .kmlLinkRefreshMode, "viewRefreshTime is given but viewRefreshMode is \(values["viewRefreshMode"] ?? "never (the default)"), not onStop", frame)
        }
        if let format = values["viewFormat"], !format.isEmpty, !format.contains("[") {
            ats(.warning, .kmlViewFormatParameters, "viewFormat '\(format.prefix(60))' holds no [parameter]", frame)
        }
        if let query = values["httpQuery"], !KMLATSChecks.httpQueryParameters.contains(where: query.contains) {
            ats(.warning, .kmlHttpQueryParameters,
                "httpQuery '\(query.prefix(60))' holds none of the parameters \(KMLATSChecks.httpQueryParameters.joined(separator: ", "))", frame)
        }
    }
}

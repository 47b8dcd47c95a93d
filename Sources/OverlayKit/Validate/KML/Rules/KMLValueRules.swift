import OverlayModel

extension KMLValidator.Walk {
    /// Value rules (ATC 2): enumerated and numeric values the schema constrains, and empty
    /// values readers replace by the default.
    mutating func checkValueRules(_ frame: KMLValidator.Frame, text: String) {
        let name = frame.name
        let parentName = stack.last?.name

        // ATC 2: enumerated and numeric values the schema constrains.
        if let allowed = KMLATSChecks.enumerations[name] {
            var allowed = allowed
            if name == "altitudeMode" && accepts23 { allowed.formUnion(["clampToSeaFloor", "relativeToSeaFloor"]) }
            if text.isEmpty {
                ats(.warning, .kmlEmptyValue, "<\(frame.qualifiedName)> is empty; readers take the default", frame)
            } else if !allowed.contains(text) {
                ats(.error, .kmlEnumValue, "<\(frame.qualifiedName)> '\(text.prefix(40))' is not one of \(allowed.sorted().joined(separator: ", "))", frame)
            }
        }
        if let range = KMLATSChecks.numbers[name], !(name == "altitudeMode"), frame.childCounts.isEmpty,
           ["x", "y", "z"].contains(name) ? parentName == "Scale" : true {
            if text.isEmpty {
                ats(.warning, .kmlEmptyValue, "<\(frame.qualifiedName)> is empty; readers take the default", frame)
            } else if let value = KMLATSChecks.number(text) {
                if let range, !range.contains(value) {
                    ats(.error, .kmlValueRange, "<\(frame.qualifiedName)> \(text) is outside \(range.lowerBound)…\(range.upperBound)", frame)
                }
            } else {
                ats(.error, .kmlNumberSyntax, "<\(frame.qualifiedName)> '\(text.prefix(40))' is not a number", frame)
            }
        }
    }
}

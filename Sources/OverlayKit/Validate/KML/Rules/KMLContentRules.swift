import OverlayModel

extension KMLValidator.Walk {
    /// Content rules: an object outside Update is not empty or has an id (ATC 21); styles,
    /// Scale, ExtendedData and Folder are not empty (ATC 42, 44, 58–61, 63–65, level 2); a
    /// Scale gives all of x, y, z (ATC 73, level 3).
    mutating func checkContentRules(_ frame: KMLValidator.Frame) {
        let name = frame.name
        let has = { (child: String) in frame.childCounts[child] != nil }
        // ATC 21: an object outside Update has content (any child node, as the ETS counts
        // them), or an id. An object missing a required child was reported as such. A
        // warning: an empty object draws nothing and loses nothing (OverlayKit's own writer
        // gives a feature without geometry or properties as `<Placemark/>`).
        let isEmpty = frame.childCounts.isEmpty && !frame.hasText
        if frame.childCounts.isEmpty && !frame.hasAnyText && (frame.attributes["id"] ?? "").isEmpty
            && KMLATSChecks.objects.contains(name) && KMLElementRules.required[name] == nil {
            ats(.warning, .kmlEmptyObject, "<\(frame.qualifiedName)> is empty and has no id", frame)
        } else if let rule = KMLATSChecks.nonEmpty[name] {
            // ATC 42, 44, 58–61, 63–65 (level 2): not empty (with an id it passed ATC 21).
            let filled = rule.anyOf.isEmpty ? !isEmpty : rule.anyOf.contains(where: has)
            if !filled {
                let what = rule.anyOf.isEmpty ? "is empty" : "has none of \(rule.anyOf.sorted().joined(separator: ", "))"
                ats(.warning, rule.code, "<\(frame.qualifiedName)> \(what)", frame)
            }
            if name == "Scale" && filled && !["x", "y", "z"].allSatisfy(has) {
                // ATC 73 (level 3).
                ats(.info, .kmlScalePartial, "Scale should give all of x, y, z", frame)
            }
        }
    }
}

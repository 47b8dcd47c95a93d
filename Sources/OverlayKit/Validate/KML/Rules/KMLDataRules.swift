import OverlayModel

extension KMLValidator.Walk {
    /// Custom data rules: Schema (ATC 25), SimpleField (ATC 26), Data (ATC 28, 49), units of measure.
    mutating func checkDataRules(_ frame: KMLValidator.Frame) {
        let has = { (child: String) in frame.childCounts[child] != nil }
        let parentName = stack.last?.name
        switch frame.name {
        case "Schema":
            // ATC 25.
            if (frame.attributes["id"] ?? "").isEmpty {
                ats(.error, .kmlSchemaIdMissing, "<Schema> has no id, so no schemaUrl can name it", frame)
            }
        case "SimpleField":
            // ATC 26 (2): one of ATC 26's XML Schema types (xsd:boolean, bare or prefixed) or the
            // specification's name for it (bool); KML 2.3 (ATC-126) also takes date, dateTime
            // and the types derived from XML Schema's built-in simple types.
            if let type = frame.attributes["type"], KMLSimpleFieldType.resolved(type, kml23: accepts23) == nil {
                let allowed = accepts23 ? "an XML Schema built-in simple type (xsd:string, xsd:int, xsd:boolean, xsd:date…)"
                    : "one of string, int, uint, short, ushort, float, double, bool (or xsd:string, xsd:int, xsd:unsignedInt, xsd:short, xsd:unsignedShort, xsd:float, xsd:double, xsd:boolean)"
                ats(.error, .kmlSimpleFieldType, "SimpleField type '\(type.prefix(40))' is not \(allowed)", frame)
            }
            checkUnitOfMeasure(frame)
        case "Data":
            // ATC 28: names unique in one ExtendedData; ATC 49 (level 2): a name and a value.
            if let dataName = frame.attributes["name"], parentName == "ExtendedData" {
                if stack[stack.count - 1].dataNames.contains(dataName) {
                    ats(.error, .kmlDataNameDuplicate, "Data name '\(dataName.prefix(60))' appears twice in this ExtendedData", frame)
                } else {
                    stack[stack.count - 1].dataNames.insert(dataName)
                }
            }
            if frame.attributes["name"] == nil || !has("value") {
                ats(.warning, .kmlDataIncomplete, "<Data> should have a name attribute and a <value>", frame)
            }
            checkUnitOfMeasure(frame)
        default:
            break
        }
    }

    /// `uom` on Data or SimpleField (ATC 2): KML 2.3 added it, so a KML 2.2 document may not
    /// carry it; in 2.3 it names a unit — a URI (`urn:ogc:def:uom:…`, `http://…`) or a UCUM
    /// code of `knownUnits` — and a word no unit system defines (`furlongs`) is a finding, as
    /// no reader can convert the values it qualifies.
    private mutating func checkUnitOfMeasure(_ frame: KMLValidator.Frame) {
        guard let unit = frame.attributes["uom"] else { return }
        if !accepts23 {
            ats(.error, .kmlDataUom, "<\(frame.qualifiedName)> uom is KML 2.3; a KML 2.2 document (--kml-version 2.2) cannot carry it", frame)
        } else if KMLATSChecks.scheme(of: unit) == nil && !KMLATSChecks.knownUnits.contains(unit) {
            ats(.error, .kmlDataUom, "<\(frame.qualifiedName)> uom '\(unit.prefix(40))' is no known unit of measure: give a UCUM code (m, km/h, Cel…) or a URI naming the unit", frame)
        }
    }
}

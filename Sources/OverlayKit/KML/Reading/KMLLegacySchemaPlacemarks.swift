/// Pre-2.2 typed placemarks, as Google Earth Pro 5.x wrote them from shapefiles:
///
/// ```xml
/// <Schema parent="Placemark" name="S_states"><SimpleField type="wstring" name="STATE"/></Schema>
/// <S_states><name>Ohio</name><STATE>Ohio</STATE><Polygon>…</Polygon></S_states>
/// ```
///
/// A `Schema` with `parent="Placemark"` declares a new element name that *is* a Placemark; its
/// `SimpleField`s are child elements of that placemark holding its typed values (KML 2.0/2.1;
/// 2.2 replaced this with `ExtendedData/SchemaData`). GDAL reads them so; the reader does too,
/// typing each field as a `SchemaData` value of that field would be.
struct KMLLegacySchemaPlacemarks {
    /// One field: its declared type (`wstring`, `int`, `double`, …) and display name.
    typealias Field = (type: String, displayName: String?)

    /// Element name (the Schema's `name`) → field name → field.
    private var schemas: [String: [String: Field]] = [:]

    /// Whether no `Schema parent="Placemark"` has been seen (the usual case: one check per element).
    var isEmpty: Bool { schemas.isEmpty }

    /// Records a `Schema`; only those whose parent is `Placemark` declare placemark elements.
    mutating func define(name: String?, parent: String?, fields: [String: Field]) {
        guard let name, !name.isEmpty, let parent, parent == "Placemark" || parent.hasSuffix(":Placemark") else { return }
        schemas[name] = fields
    }

    /// The fields of the placemark element `name`, or nil when `name` declares none.
    func fields(ofElement name: String) -> [String: Field]? {
        schemas.isEmpty ? nil : schemas[name]
    }
}

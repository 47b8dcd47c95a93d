import Foundation
import TestSupport
import XCTest
@testable import OverlayKit
import OverlayModel

/// The OGC KML 2.2 Abstract Test Suite rules (OGC 07-134r2): for each rule a small document
/// written here that breaks it (the rule's code must appear) and a repaired variant that must
/// validate with no finding at all, at conformance level 3.
final class ValidateKMLATSTests: XCTestCase {
    private static let point = "<Point><coordinates>1,2</coordinates></Point>"
    private static let placemark = "<Placemark>\(point)</Placemark>"

    /// One rule's documents: the body goes inside `<Document>` unless it starts with `<kml`.
    struct Case {
        var code: String
        var invalid: String
        var valid: String
        /// The version the documents are held to (`--kml-version`).
        var version = KMLVersion.automatic
    }

    static let cases: [Case] = {
        let p = placemark, pt = point
        let style = "<Style id=\"s\"><LineStyle><width>2</width></LineStyle></Style>"
        let region = { (box: String, lod: String) in "<Placemark><Region><LatLonAltBox>\(box)</LatLonAltBox><Lod>\(lod)</Lod></Region>\(pt)</Placemark>" }
        let goodBox = "<north>2</north><south>1</south><east>2</east><west>1</west>"
        let link = { (body: String) in "<NetworkLink><Link><href>http://example.com/a.kml</href>\(body)</Link></NetworkLink>" }
        let overlay = { (box: String, extra: String) in
            "<GroundOverlay><Icon><href>map.png</href></Icon>\(extra)<LatLonBox>\(box)</LatLonBox></GroundOverlay>"
        }
        let photo = { (viewVolume: String, camera: String, href: String, pyramid: String) in
            "<PhotoOverlay>\(camera)<Icon><href>\(href)</href></Icon><ViewVolume>\(viewVolume)</ViewVolume>\(pyramid)\(pt)</PhotoOverlay>"
        }
        let fullVolume = "<leftFov>-10</leftFov><rightFov>10</rightFov><bottomFov>-5</bottomFov><topFov>5</topFov><near>10</near>"
        let camera = "<Camera><longitude>1</longitude><latitude>2</latitude><altitude>100</altitude><altitudeMode>absolute</altitudeMode></Camera>"
        let model = { (inside: String) in "<Placemark><Model>\(inside)</Model></Placemark>" }
        let location = "<Location><longitude>1</longitude><latitude>2</latitude></Location>"
        let modelLink = "<Link><href>house.dae</href></Link>"
        let update = { (href: String, change: String) in
            "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><NetworkLinkControl><Update><targetHref>\(href)</targetHref><Change>\(change)</Change></Update></NetworkLinkControl></kml>"
        }
        let lookAt = { (inside: String) in "<Placemark><LookAt>\(inside)</LookAt>\(pt)</Placemark>" }
        let data = { (inside: String) in "<Placemark><ExtendedData>\(inside)</ExtendedData>\(pt)</Placemark>" }
        let schemaData = { (schema: String, value: String) in
            "\(schema)<Placemark><ExtendedData><SchemaData schemaUrl=\"#t\"><SimpleData name=\"n\">\(value)</SimpleData></SchemaData></ExtendedData>\(pt)</Placemark>"
        }
        let intSchema = "<Schema id=\"t\"><SimpleField name=\"n\" type=\"int\"/></Schema>"
        let screen = { (inside: String) in "<ScreenOverlay>\(inside)</ScreenOverlay>" }
        let icon = "<Icon><href>logo.png</href></Icon>"
        let xy = "<screenXY x=\"0\" y=\"0\" xunits=\"fraction\" yunits=\"fraction\"/>"
        let inStyle = { (inside: String) in "<Style id=\"s\">\(inside)</Style><Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark>" }
        let ring = "<coordinates>0,0 1,0 1,1 0,1 0,0</coordinates>"
        let tour = { (playlist: String) in "<gx:Tour><name>t</name><gx:Playlist>\(playlist)</gx:Playlist></gx:Tour>" }
        let flyTo = "<gx:FlyTo><gx:duration>2</gx:duration><gx:flyToMode>smooth</gx:flyToMode>\(camera)</gx:FlyTo>"
        let animatedUpdate = { (duration: String, href: String) in
            "<gx:AnimatedUpdate>\(duration)<Update><targetHref>\(href)</targetHref><Change><IconStyle targetId=\"i\"><scale>2</scale></IconStyle></Change></Update></gx:AnimatedUpdate>"
        }
        let kml23Tour = { (primitive: String) in
            "<kml xmlns=\"http://www.opengis.net/kml/2.2\" version=\"2.3\"><Document><Tour><name>t</name><Playlist>"
                + "<FlyTo><duration>2</duration><flyToMode>smooth</flyToMode>\(camera)</FlyTo>\(primitive)</Playlist></Tour></Document></kml>"
        }
        let quad = { (corners: String) in "<GroundOverlay>\(icon)<gx:LatLonQuad><coordinates>\(corners)</coordinates></gx:LatLonQuad></GroundOverlay>" }
        return [
            // Level 1
            Case(code: "kml.enum-value", invalid: "<Placemark><Point><altitudeMode>onTheGround</altitudeMode><coordinates>1,2,3</coordinates></Point></Placemark>",
                 valid: "<Placemark><Point><altitudeMode>relativeToGround</altitudeMode><coordinates>1,2,3</coordinates></Point></Placemark>"),
            Case(code: "kml.number-syntax", invalid: lookAt("<longitude>east</longitude><latitude>2</latitude><range>10</range>"),
                 valid: lookAt("<longitude>1</longitude><latitude>2</latitude><range>10</range>")),
            Case(code: "kml.value-range", invalid: lookAt("<longitude>1</longitude><latitude>95</latitude><range>10</range>"),
                 valid: lookAt("<longitude>1</longitude><latitude>45</latitude><range>10</range>")),
            Case(code: "kml.empty-value", invalid: "<Style id=\"s\"><LineStyle><width></width></LineStyle></Style>",
                 valid: style),
            Case(code: "kml.timespan-empty", invalid: "<Placemark><TimeSpan id=\"t\"></TimeSpan>\(pt)</Placemark>",
                 valid: "<Placemark><TimeSpan><begin>2001</begin></TimeSpan>\(pt)</Placemark>"),
            Case(code: "kml.timespan-order", invalid: "<Placemark><TimeSpan><begin>2002</begin><end>2001</end></TimeSpan>\(pt)</Placemark>",
                 valid: "<Placemark><TimeSpan><begin>2001</begin><end>2001</end></TimeSpan>\(pt)</Placemark>"),
            Case(code: "kml.timestamp-when-missing", invalid: "<Placemark><TimeStamp id=\"t\"/>\(pt)</Placemark>",
                 valid: "<Placemark><TimeStamp><when>2001-02-03T04:05:06Z</when></TimeStamp>\(pt)</Placemark>"),
            Case(code: "kml.time-syntax", invalid: "<Placemark><TimeStamp><when>yesterday</when></TimeStamp>\(pt)</Placemark>",
                 valid: "<Placemark><TimeStamp><when>2001-02</when></TimeStamp>\(pt)</Placemark>"),
            Case(code: "kml.style-url-fragment", invalid: "\(style)<Placemark><styleUrl>s</styleUrl>\(pt)</Placemark>",
                 valid: "\(style)<Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark>"),
            Case(code: "kml.style-url-scheme", invalid: "<Placemark><styleUrl>ftp://example.com/a.kml#s</styleUrl>\(pt)</Placemark>",
                 valid: "<Placemark><styleUrl>http://example.com/a.kml#s</styleUrl>\(pt)</Placemark>"),
            Case(code: "kml.style-url-missing", invalid: "\(style)<Placemark><styleUrl>#nowhere</styleUrl>\(pt)</Placemark>",
                 valid: "<Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark>\(style)"),
            Case(code: "kml.shared-style-parent", invalid: "<Folder>\(style)<Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark></Folder>",
                 valid: "\(style)<Folder><Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark></Folder>"),
            Case(code: "kml.latlonaltbox-extent", invalid: region("<north>1</north><south>2</south><east>2</east><west>1</west>", "<minLodPixels>128</minLodPixels>"),
                 valid: region(goodBox, "<minLodPixels>128</minLodPixels>")),
            Case(code: "kml.latlonaltbox-altitude",
                 invalid: region(goodBox + "<minAltitude>100</minAltitude><maxAltitude>50</maxAltitude><altitudeMode>absolute</altitudeMode>", "<minLodPixels>128</minLodPixels>"),
                 valid: region(goodBox + "<minAltitude>50</minAltitude><maxAltitude>100</maxAltitude><altitudeMode>absolute</altitudeMode>", "<minLodPixels>128</minLodPixels>")),
            Case(code: "kml.latlonaltbox-altitude",
                 invalid: region(goodBox + "<minAltitude>50</minAltitude><maxAltitude>100</maxAltitude>", "<minLodPixels>128</minLodPixels>"),
                 valid: region(goodBox + "<minAltitude>50</minAltitude><maxAltitude>100</maxAltitude><altitudeMode>relativeToGround</altitudeMode>", "<minLodPixels>128</minLodPixels>")),
            Case(code: "kml.link-value-not-positive", invalid: link("<refreshMode>onInterval</refreshMode><refreshInterval>0</refreshInterval>"),
                 valid: link("<refreshMode>onInterval</refreshMode><refreshInterval>60</refreshInterval>")),
            Case(code: "kml.latlonbox-incomplete", invalid: overlay("<north>2</north><south>1</south><east>2</east>", ""), valid: overlay(goodBox, "")),
            Case(code: "kml.latlonbox-extent", invalid: overlay("<north>2</north><south>1</south><east>1</east><west>2</west>", ""), valid: overlay(goodBox, "")),
            Case(code: "kml.extrude-clamped", invalid: "<Placemark><Point><extrude>1</extrude><coordinates>1,2,3</coordinates></Point></Placemark>",
                 valid: "<Placemark><Point><extrude>1</extrude><altitudeMode>relativeToGround</altitudeMode><coordinates>1,2,3</coordinates></Point></Placemark>"),
            Case(code: "kml.tessellate-altitude",
                 invalid: "<Placemark><LineString><tessellate>1</tessellate><altitudeMode>absolute</altitudeMode><coordinates>1,2,3 3,4,5</coordinates></LineString></Placemark>",
                 valid: "<Placemark><LineString><tessellate>1</tessellate><coordinates>1,2 3,4</coordinates></LineString></Placemark>"),
            Case(code: "kml.viewvolume-incomplete",
                 invalid: photo("<leftFov>-10</leftFov><rightFov>10</rightFov><bottomFov>-5</bottomFov><topFov>5</topFov>", camera, "photo.jpg", ""),
                 valid: photo(fullVolume, camera, "photo.jpg", "")),
            Case(code: "kml.min-refresh-period",
                 invalid: "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><NetworkLinkControl><minRefreshPeriod>-1</minRefreshPeriod></NetworkLinkControl></kml>",
                 valid: "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><NetworkLinkControl><minRefreshPeriod>10</minRefreshPeriod></NetworkLinkControl></kml>"),
            Case(code: "kml.empty-object", invalid: "<Placemark><Style/>\(pt)</Placemark>",
                 valid: "<Placemark><Style><LineStyle><width>2</width></LineStyle></Style>\(pt)</Placemark>"),
            // A relative targetHref is a URL too (issue 21: it was flagged); an empty one or one with spaces is not.
            Case(code: "kml.update-target-href", invalid: update("", "<Placemark targetId=\"p\"><name>x</name></Placemark>"),
                 valid: update("changes.kml", "<Placemark targetId=\"p\"><name>x</name></Placemark>")),
            Case(code: "kml.update-target-href", invalid: update("my changes.kml", "<Placemark targetId=\"p\"><name>x</name></Placemark>"),
                 valid: update("http://example.com/a.kml", "<Placemark targetId=\"p\"><name>x</name></Placemark>")),
            Case(code: "kml.update-target-id", invalid: update("http://example.com/a.kml", "<Placemark id=\"p\"><name>x</name></Placemark>"),
                 valid: update("http://example.com/a.kml", "<Placemark targetId=\"p\"><name>x</name></Placemark>")),
            Case(code: "kml.phone-number-uri", invalid: "<Placemark><phoneNumber>555-0100</phoneNumber>\(pt)</Placemark>",
                 valid: "<Placemark><phoneNumber>tel:+1-555-0100</phoneNumber>\(pt)</Placemark>"),
            Case(code: "kml.schema-id-missing", invalid: "<Schema name=\"t\"><SimpleField name=\"n\" type=\"int\"/></Schema>\(p)",
                 valid: "\(intSchema)\(p)"),
            Case(code: "kml.simple-field-type", invalid: "<Schema id=\"t\"><SimpleField name=\"n\" type=\"wstring\"/></Schema>\(p)",
                 valid: "<Schema id=\"t\"><SimpleField name=\"n\" type=\"string\"/></Schema>\(p)"),
            // xsd:int is the QName of int: valid, and its values are checked as int.
            Case(code: "kml.simple-field-type", invalid: "<Schema id=\"t\"><SimpleField name=\"n\" type=\"xsd:integer\"/></Schema>\(p)",
                 valid: schemaData("<Schema id=\"t\"><SimpleField name=\"n\" type=\"xsd:int\"/></Schema>", "7"), version: .v2_2),
            // ATC 26 lists XML Schema types: xsd:boolean (also bare) is bool; xs:bool is no type.
            Case(code: "kml.simple-field-type", invalid: "<Schema id=\"t\"><SimpleField name=\"n\" type=\"xs:bool\"/></Schema>\(p)",
                 valid: "<Schema id=\"t\"><SimpleField name=\"a\" type=\"boolean\"/><SimpleField name=\"b\" type=\"xsd:boolean\"/>"
                    + "<SimpleField name=\"c\" type=\"unsignedShort\"/><SimpleField name=\"d\" type=\"bool\"/></Schema>\(p)"),
            // KML 2.3 (version="2.3", ATC-126) adds xsd:date, xsd:dateTime and the derived built-in types;
            // a name XML Schema does not define is no type in either version.
            Case(code: "kml.simple-field-type", invalid: "<Schema id=\"t\"><SimpleField name=\"d\" type=\"xs:calendar\"/></Schema>\(p)",
                 valid: "<kml xmlns=\"http://www.opengis.net/kml/2.2\" version=\"2.3\"><Document><Schema id=\"t\"><SimpleField name=\"d\" type=\"xs:date\"/>"
                    + "<SimpleField name=\"g\" type=\"positiveInteger\"/></Schema>\(p)</Document></kml>"),
            Case(code: "kml.simple-data-type", invalid: schemaData("<Schema id=\"t\"><SimpleField name=\"n\" type=\"xsd:int\"/></Schema>", "seven"),
                 valid: schemaData("<Schema id=\"t\"><SimpleField name=\"n\" type=\"xs:int\"/></Schema>", "7")),
            // References reach the right kind of element, by id.
            Case(code: "kml.style-url-wrong-kind", invalid: "<Folder id=\"f\"><Placemark><styleUrl>#f</styleUrl>\(pt)</Placemark></Folder>",
                 valid: "\(style)<Folder><Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark></Folder>"),
            Case(code: "kml.style-url-wrong-kind", invalid: "\(intSchema)<Placemark><styleUrl>#t</styleUrl>\(pt)</Placemark>",
                 valid: "\(style)<Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark>"),
            Case(code: "kml.schema-url-wrong-kind", invalid: "<Placemark id=\"t\"><ExtendedData><SchemaData schemaUrl=\"#t\"><SimpleData name=\"n\">1</SimpleData></SchemaData></ExtendedData>\(pt)</Placemark>",
                 valid: schemaData(intSchema, "1")),
            Case(code: "kml.schema-url-missing", invalid: schemaData("<Schema id=\"other\" name=\"t\"><SimpleField name=\"n\" type=\"int\"/></Schema>", "1"),
                 valid: schemaData("<Schema id=\"t\" name=\"other\"><SimpleField name=\"n\" type=\"int\"/></Schema>", "1")),
            // ListStyle belongs in a Style: on a NetworkLink the schema rejects it and it styles nothing.
            Case(code: "kml.misplaced-element", invalid: "<NetworkLink><ListStyle><listItemType>check</listItemType></ListStyle><Link><href>a.kml</href></Link></NetworkLink>",
                 valid: "<NetworkLink><Style><ListStyle><listItemType>check</listItemType></ListStyle></Style><Link><href>a.kml</href></Link></NetworkLink>"),
            // uom: KML 2.3 only, and a unit someone defines.
            Case(code: "kml.data-uom", invalid: data("<Data name=\"h\" uom=\"m\"><value>3</value></Data>"),
                 valid: data("<Data name=\"h\"><value>3</value></Data>"), version: .v2_2),
            Case(code: "kml.data-uom",
                 invalid: "<kml xmlns=\"http://www.opengis.net/kml/2.3\"><Placemark><ExtendedData><Data name=\"h\" uom=\"furlongs\"><value>3</value></Data></ExtendedData>\(pt)</Placemark></kml>",
                 valid: "<kml xmlns=\"http://www.opengis.net/kml/2.3\"><Placemark><ExtendedData><Data name=\"h\" uom=\"km/h\"><value>3</value></Data><Data name=\"d\" uom=\"urn:ogc:def:uom:EPSG::9001\"><value>3</value></Data></ExtendedData>\(pt)</Placemark></kml>"),
            Case(code: "kml.missing-attribute", invalid: "<Schema id=\"t\"><SimpleField type=\"int\"/></Schema>\(p)", valid: "\(intSchema)\(p)"),
            Case(code: "kml.schema-url-missing", invalid: schemaData("", "1"), valid: schemaData(intSchema, "1")),
            Case(code: "kml.simple-data-type", invalid: schemaData(intSchema, "one"), valid: schemaData(intSchema, "+1")),
            Case(code: "kml.simple-data-type", invalid: schemaData("", "3000000000") + intSchema, valid: schemaData("", "-3") + intSchema),
            Case(code: "kml.simple-data-unknown-field", invalid: schemaData("<Schema id=\"t\"><SimpleField name=\"m\" type=\"int\"/></Schema>", "1"),
                 valid: schemaData(intSchema, "1")),
            Case(code: "kml.data-name-duplicate", invalid: data("<Data name=\"a\"><value>1</value></Data><Data name=\"a\"><value>2</value></Data>"),
                 valid: data("<Data name=\"a\"><value>1</value></Data><Data name=\"b\"><value>2</value></Data>")),
            Case(code: "kml.atom-author", invalid: "<atom:author><atom:name>Ann</atom:name><atom:email>ann at example</atom:email></atom:author>\(p)",
                 valid: "<atom:author><atom:name>Ann</atom:name><atom:email>ann@example.com</atom:email><atom:uri>http://example.com/ann</atom:uri></atom:author>\(p)"),
            Case(code: "kml.atom-link-rel", invalid: "<atom:link href=\"http://example.com\"/>\(p)",
                 valid: "<atom:link rel=\"related\" href=\"http://example.com\"/>\(p)"),
            Case(code: "kml.orientation-empty", invalid: model("\(location)<Orientation id=\"o\"></Orientation>\(modelLink)"),
                 valid: model("\(location)<Orientation><heading>1</heading><tilt>2</tilt><roll>3</roll></Orientation>\(modelLink)")),
            Case(code: "kml.ground-overlay-altitude", invalid: overlay(goodBox, "<altitudeMode>absolute</altitudeMode>"),
                 valid: overlay(goodBox, "<altitude>10</altitude><altitudeMode>absolute</altitudeMode>")),
            Case(code: "kml.model-incomplete", invalid: model(location), valid: model(location + modelLink)),
            Case(code: "kml.photo-overlay-incomplete", invalid: photo(fullVolume, "", "photo.jpg", ""), valid: photo(fullVolume, camera, "photo.jpg", "")),
            // ATC 36: every Pair, also one of a StyleMap nested in a Pair (the schema allows it),
            // has a style.
            Case(code: "kml.stylemap-pair",
                 invalid: "\(style)<StyleMap id=\"m\"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>highlight</key>"
                    + "<StyleMap><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>highlight</key></Pair></StyleMap></Pair></StyleMap>",
                 valid: "\(style)<StyleMap id=\"m\"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>highlight</key>"
                    + "<StyleMap><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>highlight</key><Style><LineStyle><width>3</width></LineStyle></Style></Pair></StyleMap></Pair></StyleMap>"),
            Case(code: "kml.enum-value", invalid: "\(style)<StyleMap id=\"m\"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>hover</key><styleUrl>#s</styleUrl></Pair></StyleMap>",
                 valid: "\(style)<StyleMap id=\"m\"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#s</styleUrl></Pair></StyleMap>"),
            // KML 2.3 ATC-136: fetch states belong to a NetworkLink's icons.
            Case(code: "kml.item-icon-state",
                 invalid: "<Placemark><Style><ListStyle><ItemIcon><state>fetching0 fetching1</state><href>f.png</href></ItemIcon></ListStyle></Style>\(pt)</Placemark>",
                 valid: "<NetworkLink><Style><ListStyle><ItemIcon><state>fetching0 fetching1</state><href>f.png</href></ItemIcon></ListStyle></Style><Link><href>a.kml</href></Link></NetworkLink>"),
            Case(code: "kml.item-icon-href", invalid: inStyle("<ListStyle><ItemIcon><state>open</state></ItemIcon></ListStyle>"),
                 valid: inStyle("<ListStyle><ItemIcon><state>open</state><href>open.png</href></ItemIcon></ListStyle>")),
            Case(code: "kml.lookat-incomplete", invalid: lookAt("<longitude>1</longitude><latitude>2</latitude>"),
                 valid: lookAt("<longitude>1</longitude><latitude>2</latitude><range>10</range>")),
            Case(code: "kml.lookat-tilt", invalid: lookAt("<longitude>1</longitude><latitude>2</latitude><tilt>120</tilt><range>10</range>"),
                 valid: lookAt("<longitude>1</longitude><latitude>2</latitude><tilt>60</tilt><range>10</range>")),
            Case(code: "kml.lookat-altitude", invalid: lookAt("<longitude>1</longitude><latitude>2</latitude><range>10</range><altitudeMode>absolute</altitudeMode>"),
                 valid: lookAt("<longitude>1</longitude><latitude>2</latitude><altitude>5</altitude><range>10</range><altitudeMode>absolute</altitudeMode>")),
            Case(code: "kml.lod-pixels", invalid: region(goodBox, "<minLodPixels>256</minLodPixels><maxLodPixels>128</maxLodPixels>"),
                 valid: region(goodBox, "<minLodPixels>128</minLodPixels><maxLodPixels>-1</maxLodPixels>")),
            Case(code: "kml.link-href-missing", invalid: "<NetworkLink><Link><refreshMode>onChange</refreshMode></Link></NetworkLink>",
                 valid: link("<refreshMode>onChange</refreshMode>")),
            Case(code: "kml.region-incomplete", invalid: "<Placemark><Region><LatLonAltBox>\(goodBox)</LatLonAltBox></Region>\(pt)</Placemark>",
                 valid: region(goodBox, "<minLodPixels>128</minLodPixels>")),
            Case(code: "kml.point-coordinates", invalid: "<Placemark><Point><coordinates>1,2 3,4</coordinates></Point></Placemark>", valid: p),
            Case(code: "kml.line-too-short", invalid: "<Placemark><LineString><coordinates>1,2</coordinates></LineString></Placemark>",
                 valid: "<Placemark><LineString><coordinates>1,2 3,4</coordinates></LineString></Placemark>"),
            Case(code: "kml.missing-child", invalid: "<Placemark><Polygon><innerBoundaryIs><LinearRing>\(ring)</LinearRing></innerBoundaryIs></Polygon></Placemark>",
                 valid: "<Placemark><Polygon><outerBoundaryIs><LinearRing>\(ring)</LinearRing></outerBoundaryIs></Polygon></Placemark>"),
            // Level 2
            Case(code: "kml.polystyle-empty", invalid: inStyle("<PolyStyle id=\"p\"> </PolyStyle>"), valid: inStyle("<PolyStyle><fill>0</fill></PolyStyle>")),
            Case(code: "kml.coordinates-altitude-missing", invalid: "<Placemark><Point><altitudeMode>absolute</altitudeMode><coordinates>1,2</coordinates></Point></Placemark>",
                 valid: "<Placemark><Point><altitudeMode>absolute</altitudeMode><coordinates>1,2,3</coordinates></Point></Placemark>"),
            Case(code: "kml.scale-empty", invalid: model("\(location)<Scale id=\"c\"> </Scale>\(modelLink)"),
                 valid: model("\(location)<Scale><x>1</x><y>1</y><z>2</z></Scale>\(modelLink)")),
            Case(code: "kml.empty-root", invalid: "<kml xmlns=\"http://www.opengis.net/kml/2.2\"></kml>",
                 valid: "<kml xmlns=\"http://www.opengis.net/kml/2.2\">\(p)</kml>"),
            Case(code: "kml.view-format-parameters", invalid: link("<viewFormat>BBOX</viewFormat>"), valid: link("<viewFormat>BBOX=[bboxWest]</viewFormat>")),
            Case(code: "kml.http-query-parameters", invalid: link("<httpQuery>client=x</httpQuery>"), valid: link("<httpQuery>client=[clientName]</httpQuery>")),
            // ATC 47: one of the four parameters httpQuery defines, not any bracketed word.
            Case(code: "kml.http-query-parameters", invalid: link("<httpQuery>client=[name]</httpQuery>"),
                 valid: link("<httpQuery>v=[kmlVersion]&amp;lang=[language]</httpQuery>")),
            Case(code: "kml.ring-in-polygon-members",
                 invalid: "<Placemark><Polygon><outerBoundaryIs><LinearRing><tessellate>1</tessellate>\(ring)</LinearRing></outerBoundaryIs></Polygon></Placemark>",
                 valid: "<Placemark><Polygon><tessellate>1</tessellate><outerBoundaryIs><LinearRing>\(ring)</LinearRing></outerBoundaryIs></Polygon></Placemark>"),
            Case(code: "kml.data-incomplete", invalid: data("<Data name=\"a\"><displayName>A</displayName></Data>"), valid: data("<Data name=\"a\"><value>1</value></Data>")),
            Case(code: "kml.resource-map-alias",
                 invalid: model("\(location)\(modelLink)<ResourceMap><Alias><targetHref>a.png</targetHref><sourceHref>t.png</sourceHref></Alias><Alias><targetHref>b.png</targetHref><sourceHref>t.png</sourceHref></Alias></ResourceMap>"),
                 valid: model("\(location)\(modelLink)<ResourceMap><Alias><targetHref>a.png</targetHref><sourceHref>t.png</sourceHref></Alias><Alias><targetHref>b.png</targetHref><sourceHref>u.png</sourceHref></Alias></ResourceMap>")),
            Case(code: "kml.link-refresh-mode", invalid: link("<refreshInterval>60</refreshInterval>"),
                 valid: link("<refreshMode>onInterval</refreshMode><refreshInterval>60</refreshInterval>")),
            Case(code: "kml.photo-overlay-pyramid", invalid: photo(fullVolume, camera, "tiles/$[level]/$[x]_$[y].jpg", ""),
                 valid: photo(fullVolume, camera, "tiles/$[level]/$[x]_$[y].jpg", "<ImagePyramid><tileSize>256</tileSize><maxWidth>4096</maxWidth><maxHeight>2048</maxHeight></ImagePyramid>")),
            // ATC 52, the converse: an ImagePyramid and an Icon without an href (so no parameters).
            Case(code: "kml.photo-overlay-pyramid",
                 invalid: "<PhotoOverlay>\(camera)<Icon id=\"i\"><refreshMode>onChange</refreshMode></Icon><ViewVolume>\(fullVolume)</ViewVolume>"
                    + "<ImagePyramid><tileSize>256</tileSize><maxWidth>4096</maxWidth><maxHeight>2048</maxHeight></ImagePyramid>\(pt)</PhotoOverlay>",
                 valid: photo(fullVolume, camera, "tiles/$[level]/$[x]_$[y].jpg", "<ImagePyramid><tileSize>256</tileSize><maxWidth>4096</maxWidth><maxHeight>2048</maxHeight></ImagePyramid>")),
            // ATC 68 (level 2): two Pairs, one normal and one highlight.
            Case(code: "kml.stylemap-keys",
                 invalid: "\(style)<StyleMap id=\"m\"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair></StyleMap>",
                 valid: "\(style)<StyleMap id=\"m\"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair><Pair><key>highlight</key><styleUrl>#s</styleUrl></Pair></StyleMap>"),
            Case(code: "kml.stylemap-keys", invalid: "\(style)<StyleMap id=\"m\"><Pair><key>normal</key><styleUrl>#s</styleUrl></Pair></StyleMap>",
                 valid: "\(style)<StyleMap id=\"m\"><Pair><key>highlight</key><styleUrl>#s</styleUrl></Pair><Pair><styleUrl>#s</styleUrl><key>normal</key></Pair></StyleMap>"),
            Case(code: "kml.ground-overlay-box", invalid: "<GroundOverlay>\(icon)</GroundOverlay>", valid: overlay(goodBox, "")),
            Case(code: "kml.camera-incomplete", invalid: "<Placemark><Camera><longitude>1</longitude><latitude>2</latitude><altitudeMode>absolute</altitudeMode></Camera>\(pt)</Placemark>",
                 valid: "<Placemark>\(camera)\(pt)</Placemark>"),
            Case(code: "kml.camera-altitude-mode", invalid: "<Placemark><Camera><longitude>1</longitude><latitude>2</latitude><altitude>100</altitude></Camera>\(pt)</Placemark>",
                 valid: "<Placemark>\(camera)\(pt)</Placemark>"),
            Case(code: "kml.location-incomplete", invalid: model("<Location><longitude>1</longitude></Location>\(modelLink)"), valid: model(location + modelLink)),
            Case(code: "kml.overlay-icon-missing", invalid: screen(xy), valid: screen(icon + xy)),
            Case(code: "kml.screen-overlay-xy", invalid: screen(icon), valid: screen(icon + xy)),
            Case(code: "kml.balloonstyle-empty", invalid: inStyle("<BalloonStyle id=\"b\"> </BalloonStyle>"), valid: inStyle("<BalloonStyle><text>$[name]</text></BalloonStyle>")),
            Case(code: "kml.extended-data-empty", invalid: "<Placemark><ExtendedData> </ExtendedData>\(pt)</Placemark>", valid: data("<Data name=\"a\"><value>1</value></Data>")),
            Case(code: "kml.folder-empty", invalid: "<Folder id=\"f\"> </Folder>", valid: "<Folder>\(p)</Folder>"),
            Case(code: "kml.iconstyle-empty", invalid: inStyle("<IconStyle id=\"i\"> </IconStyle>"), valid: inStyle("<IconStyle><scale>2</scale></IconStyle>")),
            Case(code: "kml.image-pyramid", invalid: photo(fullVolume, camera, "t/$[level]/$[x]_$[y].jpg", "<ImagePyramid><tileSize>300</tileSize><maxWidth>4096</maxWidth><maxHeight>2048</maxHeight></ImagePyramid>"),
                 valid: photo(fullVolume, camera, "t/$[level]/$[x]_$[y].jpg", "<ImagePyramid><tileSize>512</tileSize><maxWidth>4096</maxWidth><maxHeight>2048</maxHeight></ImagePyramid>")),
            Case(code: "kml.labelstyle-empty", invalid: inStyle("<LabelStyle id=\"l\"> </LabelStyle>"), valid: inStyle("<LabelStyle><scale>0</scale></LabelStyle>")),
            Case(code: "kml.liststyle-empty", invalid: inStyle("<ListStyle id=\"l\"> </ListStyle>"), valid: inStyle("<ListStyle><listItemType>check</listItemType></ListStyle>")),
            Case(code: "kml.style-empty", invalid: "<Style id=\"s\"> </Style><Placemark><styleUrl>#s</styleUrl>\(pt)</Placemark>", valid: inStyle("<LineStyle><width>1</width></LineStyle>")),
            // KML 2.3 ATC-147: one coord per when.
            Case(code: "kml.track-count-mismatch",
                 invalid: "<Placemark><gx:Track><when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when><gx:coord>1 2 3</gx:coord></gx:Track></Placemark>",
                 valid: "<Placemark><gx:Track><when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when><gx:coord>1 2 3</gx:coord><gx:coord>1 2.1 3</gx:coord></gx:Track></Placemark>"),
            Case(code: "kml.multigeometry-single", invalid: "<Placemark><MultiGeometry>\(pt)</MultiGeometry></Placemark>",
                 valid: "<Placemark><MultiGeometry>\(pt)\(pt)</MultiGeometry></Placemark>"),
            Case(code: "kml.placemark-no-geometry", invalid: "<Placemark><name>x</name></Placemark>", valid: "<Placemark><name>x</name>\(pt)</Placemark>"),
            // Tours (KML 2.3 ATS, OGC 14-068r2 ATC-141–145, 228–230; gx: in KML 2.2).
            Case(code: "kml.tour-playlist", invalid: "<gx:Tour><name>t</name><gx:Playlist></gx:Playlist></gx:Tour>", valid: tour(flyTo)),
            Case(code: "kml.tour-playlist", invalid: "<gx:Tour><name>t</name></gx:Tour>", valid: tour(flyTo)),
            Case(code: "kml.flyto-view", invalid: tour("<gx:FlyTo><gx:duration>2</gx:duration><gx:flyToMode>smooth</gx:flyToMode></gx:FlyTo>"),
                 valid: tour(flyTo)),
            Case(code: "kml.tour-control-play-mode", invalid: tour(flyTo + "<gx:TourControl></gx:TourControl>"),
                 valid: tour(flyTo + "<gx:TourControl><gx:playMode>pause</gx:playMode></gx:TourControl>")),
            Case(code: "kml.flyto-mode", invalid: tour("<gx:FlyTo><gx:duration>2</gx:duration>\(camera)</gx:FlyTo>"), valid: tour(flyTo)),
            Case(code: "kml.tour-duration", invalid: tour(flyTo + "<gx:Wait><gx:duration>0</gx:duration></gx:Wait>"),
                 valid: tour(flyTo + "<gx:Wait><gx:duration>1.5</gx:duration></gx:Wait>")),
            Case(code: "kml.tour-duration", invalid: tour(animatedUpdate("<gx:duration>-1</gx:duration>", "")),
                 valid: tour(animatedUpdate("<gx:duration>6.5</gx:duration>", ""))),
            Case(code: "kml.animated-update-target", invalid: tour(animatedUpdate("<gx:duration>1</gx:duration>", "changes.kml")),
                 valid: tour(animatedUpdate("<gx:duration>1</gx:duration>", "http://example.com/changes.kml"))),
            // The same in a KML 2.3 document: KML's own namespace, version="2.3".
            Case(code: "kml.tour-control-play-mode", invalid: kml23Tour("<TourControl></TourControl>"),
                 valid: kml23Tour("<TourControl><playMode>pause</playMode></TourControl>")),
            Case(code: "kml.update-target-id",
                 invalid: kml23Tour("<AnimatedUpdate><duration>1</duration><Update><targetHref/><Change><IconStyle targetId=\"i\" id=\"x\"><scale>2</scale></IconStyle></Change></Update></AnimatedUpdate>"),
                 valid: kml23Tour("<AnimatedUpdate><duration>1</duration><Update><targetHref/><Change><IconStyle targetId=\"i\"><scale>2</scale></IconStyle></Change></Update></AnimatedUpdate>")),
            // KML 2.3 ATC-149 (and Google's gx:LatLonQuad): counterclockwise and convex.
            Case(code: "kml.latlonquad", invalid: quad("-123,49 -123,51 -121,51 -121,49"), valid: quad("-123,49 -121,49 -121,51 -123,51")),
            Case(code: "kml.latlonquad", invalid: quad("-123,50 -122,49 -121,50 -122,49.5"), valid: quad("-123,49.5 -122,49 -121,49.5 -122,51")),
            Case(code: "kml.latlonquad", invalid: quad("-123,49 -121,49 -121,51"), valid: quad("179,0 -179,0 -179,1 179,1")),
            Case(code: "kml.latlonquad",
                 invalid: "<kml xmlns=\"http://www.opengis.net/kml/2.2\" version=\"2.3\"><GroundOverlay>\(icon)<LatLonQuad><coordinates>-123,49 -123,51 -121,51 -121,49</coordinates></LatLonQuad></GroundOverlay></kml>",
                 valid: "<kml xmlns=\"http://www.opengis.net/kml/2.2\" version=\"2.3\"><GroundOverlay>\(icon)<LatLonQuad><coordinates>-123,49 -121,49 -121,51 -123,51</coordinates></LatLonQuad></GroundOverlay></kml>"),
            // Level 3
            Case(code: "kml.deprecated-balloon-color", invalid: inStyle("<BalloonStyle><color>ff00ffff</color></BalloonStyle>"),
                 valid: inStyle("<BalloonStyle><bgColor>ff00ffff</bgColor></BalloonStyle>")),
            Case(code: "kml.deprecated-metadata", invalid: "<Placemark><Metadata>x</Metadata>\(pt)</Placemark>", valid: data("<Data name=\"a\"><value>x</value></Data>")),
            Case(code: "kml.deprecated-snippet", invalid: "<Placemark><Snippet>x</Snippet>\(pt)</Placemark>", valid: "<Placemark><snippet>x</snippet>\(pt)</Placemark>"),
            Case(code: "kml.deprecated-url", invalid: "<NetworkLink><Url><href>http://example.com/a.kml</href></Url></NetworkLink>", valid: link("")),
            Case(code: "kml.scale-partial", invalid: model("\(location)<Scale><x>2</x></Scale>\(modelLink)"),
                 valid: model("\(location)<Scale><x>2</x><y>2</y><z>2</z></Scale>\(modelLink)")),
            Case(code: "kml.lod-fade-extents", invalid: region(goodBox, "<minLodPixels>128</minLodPixels><maxLodPixels>256</maxLodPixels><minFadeExtent>100</minFadeExtent><maxFadeExtent>100</maxFadeExtent>"),
                 valid: region(goodBox, "<minLodPixels>128</minLodPixels><maxLodPixels>256</maxLodPixels><minFadeExtent>50</minFadeExtent><maxFadeExtent>50</maxFadeExtent>")),
            // KML 2.3 ATC-301: the outer boundary counterclockwise.
            Case(code: "kml.polygon-orientation",
                 invalid: "<Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0,1 1,1 1,0 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>",
                 valid: "<Placemark><Polygon><outerBoundaryIs><LinearRing>\(ring)</LinearRing></outerBoundaryIs></Polygon></Placemark>"),
            Case(code: "kml.orientation-partial", invalid: model("\(location)<Orientation><heading>1</heading></Orientation>\(modelLink)"),
                 valid: model("\(location)<Orientation><heading>1</heading><tilt>0</tilt><roll>0</roll></Orientation>\(modelLink)")),
        ]
    }()

    private func findings(_ body: String, level: Int = 3, version: KMLVersion = .automatic) -> [Diagnostic] {
        let text = body.hasPrefix("<kml") ? body : """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2" xmlns:atom="http://www.w3.org/2005/Atom">
        <Document>
        \(body)
        </Document>
        </kml>
        """
        let result = Validator.validate(ByteInput(string: text, name: "ats.kml"), format: .kml, options: ValidationOptions(atsLevel: level, kmlVersion: version))
        XCTAssertFalse(result.isUnreadable, "\(result.findings)")
        return result.findings
    }

    func testEveryRuleFiresOnItsDocumentAndTheRepairedDocumentIsClean() {
        for rule in Self.cases {
            let broken = findings(rule.invalid, version: rule.version)
            XCTAssertTrue(broken.contains { $0.code.rawValue == rule.code }, "\(rule.code) did not fire on \(rule.invalid)\nfound: \(broken.map(\.description))")
            XCTAssertEqual(findings(rule.valid, version: rule.version).map(\.description), [], "\(rule.code): the repaired document is not clean: \(rule.valid)")
        }
    }

    func testEveryCatalogRuleHasATestDocumentAndAKnownLevel() {
        // Checked elsewhere: well-formedness, root, XSD, coordinates, rings and geometry
        // (ValidateKMLTests, ValidateGeometryTests).
        let elsewhere: Set<String> = [
            "kml.root", "kml.no-root", "kml.namespace", "kml.xml-syntax", "kml.entity-reference", "kml.unknown-element",
            "kml.misplaced-element", "kml.boundary-rings", "kml.schema", "kml.coordinate-syntax", "kml.coordinate-extra",
            "kml.coordinate-range", "kml.ring-too-short", "kml.ring-not-closed", "geometry.hole-outside-shell",
            "geometry.hole-crosses-shell", "geometry.holes-cross", "geometry.self-intersection",
        ]
        let tested = Set(Self.cases.map(\.code))
        for rule in KMLRuleCatalog.rules where !elsewhere.contains(rule.code.rawValue) {
            XCTAssertTrue(tested.contains(rule.code.rawValue), "no test document for \(rule.code.rawValue)")
        }
        for code in tested { XCTAssertNotNil(KMLRuleCatalog.byCode.keys.first { $0.rawValue == code }, "\(code) is not in the catalog") }
        // All 77 ATS tests but the three that dereference links (10, 18, 29).
        XCTAssertEqual(Set(KMLRuleCatalog.rules.flatMap(\.tests)), Set(1...77).subtracting([10, 18, 29]))
        XCTAssertEqual(KMLRuleCatalog.byCode[.kmlDataNameDuplicate]?.identifiers,
                       ["http://www.opengis.net/kml/2.2/atc/level-1/ExtendedData-Data"])
    }

    func testLevelsGateTheRulesAndSetTheirSeverity() {
        let body = "<Placemark><name>x</name><Snippet>s</Snippet></Placemark>"
        XCTAssertEqual(findings(body, level: 1).map(\.code.rawValue), [])
        XCTAssertEqual(findings(body, level: 2).map { "\($0.severity) \($0.code.rawValue)" }, ["warning kml.placemark-no-geometry"])
        XCTAssertEqual(findings(body, level: 3).map { "\($0.severity) \($0.code.rawValue)" },
                       ["warning kml.placemark-no-geometry", "note kml.deprecated-snippet"])
        // Level 1 by default: a duplicate Data name is an error with its place.
        let duplicate = findings("<Placemark><ExtendedData><Data name=\"a\"><value>1</value></Data>\n<Data name=\"a\"><value>2</value></Data></ExtendedData></Placemark>", level: 1)
        // The reader's rename (kml.duplicate-property, docs/kml.md "Property names") is said too.
        XCTAssertEqual(duplicate.map { "\($0.location?.line ?? 0) \($0.severity) \($0.code.rawValue)" },
                       ["4 warning kml.duplicate-property", "5 error kml.data-name-duplicate"])
        XCTAssertEqual(duplicate.last?.location?.kmlPath, "/kml/Document/Placemark/ExtendedData/Data[2]")
    }

    func testKML23DocumentsUseTheAdoptedNames() {
        let text = """
        <kml xmlns="http://www.opengis.net/kml/2.3"><Document><Placemark><Track><altitudeMode>relativeToSeaFloor</altitudeMode>
        <when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when><coord>-122.2 37.3 156</coord><coord>-122.2 37.4 152</coord></Track></Placemark>
        <Placemark><Track><when>2010-05-28T02:02:09Z</when></Track></Placemark></Document></kml>
        """
        let result = Validator.validate(ByteInput(string: text, name: "t23.kml"), format: .kml)
        XCTAssertEqual(result.findings.map { "\($0.location?.line ?? 0) \($0.code.rawValue)" }, ["3 kml.track-count-mismatch"])
        // OGC 12-007r2 keeps KML 2.2's namespace and says 2.3 with version="2.3"; an empty coord
        // is a missing position (ATC-146), and Tour, Track and LatLonQuad are KML's own.
        let versioned = """
        <kml xmlns="http://www.opengis.net/kml/2.2" version="2.3"><Document><Placemark><Track>
        <when>2010-05-28T02:02:09Z</when><when>2010-05-28T02:02:35Z</when><coord>-122.2 37.3 156</coord><coord/></Track></Placemark>
        <Placemark><Track><when>2010-05-28T02:02:09Z</when></Track></Placemark></Document></kml>
        """
        let versionedResult = Validator.validate(ByteInput(string: versioned, name: "v23.kml"), format: .kml, options: ValidationOptions(atsLevel: 3))
        XCTAssertEqual(versionedResult.findings.map { "\($0.location?.line ?? 0) \($0.code.rawValue)" }, ["3 kml.track-count-mismatch"])
        // The same document without version="2.3": KML 2.3 kept 2.2's namespace, so its
        // constructs are taken as 2.3's (OGC's 2.3 suite calls them valid); held to KML 2.2
        // (`--kml-version 2.2`), <Track> is no KML element.
        let unversioned = versioned.replacingOccurrences(of: " version=\"2.3\"", with: "")
        let automatic = Validator.validate(ByteInput(string: unversioned, name: "v22.kml"), format: .kml).findings.map(\.code.rawValue)
        XCTAssertEqual(automatic, ["kml.track-count-mismatch"])
        let held = Validator.validate(ByteInput(string: unversioned, name: "v22.kml"), format: .kml,
                                      options: ValidationOptions(kmlVersion: .v2_2)).findings.map(\.code.rawValue)
        XCTAssertTrue(held.contains("kml.unknown-element"), "\(held)")
    }

    /// Issue 51 item 10: what OGC's suites call valid. A SimpleField uom, SimpleArrayField and
    /// XML Schema types in KML's shared namespace are KML 2.3 (errors only when held to 2.2); a
    /// styleUrl fragment that names nothing is a warning (the suites take it; nothing draws it);
    /// a styleUrl naming an element that is no style (a Document) is an error.
    func testVerdictsAgreeWithOGCsSuites() {
        let constructs = """
            <Schema id="s" name="s"><SimpleField name="h" type="positiveInteger" uom="http://example.com/m"><displayName>H</displayName></SimpleField>
            <SimpleArrayField name="a" type="double"/></Schema>
            <Placemark><ExtendedData><SchemaData schemaUrl="#s"><SimpleData name="h">3</SimpleData></SchemaData></ExtendedData>\(Self.point)</Placemark>
            """
        XCTAssertEqual(findings(constructs, level: 1).map(\.description), [])
        let held = findings(constructs, level: 1, version: .v2_2).map { "\($0.severity) \($0.code.rawValue)" }
        XCTAssertEqual(held, ["error kml.simple-field-type", "error kml.data-uom", "warning kml.unknown-element"])
        let references = findings("<Placemark><styleUrl>#nowhere</styleUrl>\(Self.point)</Placemark>", level: 1)
        XCTAssertEqual(references.map { "\($0.severity) \($0.code.rawValue)" }, ["warning kml.style-url-missing"])
        let document = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document id="d"><Placemark><styleUrl>#d</styleUrl>\(Self.point)</Placemark></Document></kml>
            """
        XCTAssertEqual(findings(document, level: 1).map { "\($0.severity) \($0.code.rawValue)" }, ["error kml.style-url-wrong-kind"])
    }

    func testOneParseGivesTheSameVerdictsAsEachTypeAlone() {
        let values = ["", "0", "1", "+7", "-1", "70000", "-40000", "3000000000", "-3000000000", "99999999999999999999", "1.5", "1e3",
                      "INF", "NaN", "true", "false", "yes", "0x10", "inf", " 1"]
        // The SimpleField types whose values are checked.
        let checkedTypes = ["int", "short", "uint", "ushort", "float", "double", "bool"]
        for value in values {
            let expected = checkedTypes.filter { !KMLValidator.value(value, fits: $0) }
            XCTAssertEqual(KMLValidator.typesMissed(by: value), expected, "'\(value)'")
        }
    }

    // MARK: Peer corpus

    /// Every error the validator (level 1) finds on the corpus's KML and KMZ files, each
    /// inspected and a real violation: togeojson's `bad.kml`, `addresses.kml` (empty Point
    /// coordinates, gx:Track without when) and `selfclosing.kml` are broken on purpose;
    /// `extractStyle-*.kml` are `<Style>` fragments; `remote-style.kml` tests a garbage and a
    /// dangling styleUrl; `linear_ring.kml` writes styleUrl `AOI_boundary` without `#`;
    /// `timespan.kml` a 3-position ring and a dangling style;
    /// `linear-ring.kml` LinearRings without coordinates; the self-intersections are the rings
    /// shapely/GEOS also calls invalid. False errors: none.
    static let corpusErrors: [String: Int] = [
        "kml-samples/kml/MultiGeometry/multi-rollover.kml geometry.self-intersection": 1,
        "kml-samples/kml/MultiGeometry/polygon-point.kml geometry.self-intersection": 1,
        "kml-samples/kml/Placemark/LinearRing/linear-ring.kml kml.missing-child": 2,
        "kml-samples/kml/Style/remote-style.kml kml.style-url-fragment": 1,
        "kml-samples/kml/misc/thematic1/states.kml geometry.self-intersection": 3,
        "togeojson/kml/addresses.kml kml.point-coordinates": 15,
        "togeojson/kml/addresses.kml kml.track-count-mismatch": 7,
        "togeojson/kml/bad.kml kml.coordinate-syntax": 13,
        "togeojson/kml/bad.kml kml.line-too-short": 1,
        "togeojson/kml/bad.kml kml.point-coordinates": 1,
        "togeojson/kml/bad.kml kml.ring-too-short": 2,
        "togeojson/kml/linear_ring.kml kml.style-url-fragment": 1,
        "togeojson/kml/selfclosing.kml kml.line-too-short": 1,
        "togeojson/kml/timespan.kml kml.ring-too-short": 1,
        "togeojson/unit-cases/extractStyle-1.kml kml.root": 1,
        "togeojson/unit-cases/extractStyle-2.kml kml.root": 1,
    ]

    func testCorpusErrorsAreExactlyTheInspectedViolations() throws {
        let corpus = try Prerequisite.corpus("kml-samples").deletingLastPathComponent()
        var files: [String] = []
        for folder in ["kml-samples", "togeojson", "real"] {
            let enumerator = FileManager.default.enumerator(atPath: corpus.appendingPathComponent(folder).path)
            while let path = enumerator?.nextObject() as? String {
                let lower = path.lowercased()
                if lower.hasSuffix(".kml") || lower.hasSuffix(".kmz") { files.append(folder + "/" + path) }
            }
        }
        var errors: [String: Int] = [:]
        var unreadable: [String] = []
        for file in files.sorted() {
            let result = Validator.validate(path: corpus.appendingPathComponent(file).path)
            if result.isUnreadable { unreadable.append(file) }
            for finding in result.findings where finding.severity == .error { errors["\(file) \(finding.code.rawValue)", default: 0] += 1 }
        }
        print("KML corpus: \(files.count) files, \(errors.values.reduce(0, +)) errors, all inspected violations")
        XCTAssertEqual(files.count, 95)
        XCTAssertEqual(unreadable, [])
        XCTAssertEqual(errors, Self.corpusErrors)
    }
}

import Foundation
import XCTest
@testable import OverlayKit
import OverlayModel
import TestSupport

/// The verdicts of OGC's own executable test suites on their own test documents, compared with
/// ours: `opengeospatial/ets-kml22` (the KML 2.2 ATS, OGC 07-134r2) and `opengeospatial/ets-kml2`
/// (the KML 2.3 ATS, OGC 14-068r2). Each ETS has unit tests ("Verify…") that run one of its checks
/// on a test document and expect it to pass or fail; every such verdict that one document can
/// decide is a row below. A verdict agrees when `validate`, at the check's conformance level,
/// reports a finding of a rule the catalog maps to the check's ATS tests exactly when the ETS
/// expects the check to fail. A check agrees when all its verdicts do.
///
/// Needs checkouts of both repositories (`git clone https://github.com/opengeospatial/ets-kml22`
/// and `…/ets-kml2`) in one folder named by `OVERLAYKIT_ETS_KML`; skipped otherwise (no test
/// document is copied here), and the corpus's offline OGC schema, with which the ATC 2 / ATC-102
/// verdicts (schema validity) run `--schema`.
///
/// Left out, with the reason: verdicts that need the network (the ETS itself ignores those
/// tests), another file (a link's referent, a model's textures, a remote style or Schema, the
/// file an Update targets), a mocked fixture instead of the document, and the ETS's tests of its
/// internal helper classes (`validation/Verify*Validator`, which are not ETS checks).
final class ValidateKMLETSTests: XCTestCase {
    enum Suite: String {
        /// ets-kml22: OGC 07-134r2 ATC numbers.
        case kml22 = "ets-kml22"
        /// ets-kml2: OGC 14-068r2 ATC-nnn numbers.
        case kml2 = "ets-kml2"
    }

    /// One ETS verdict: the check (ETS class and method) on a document, at a level.
    struct Verdict {
        var suite: Suite
        var document: String
        var check: String
        var tests: [Int]
        var level: Int
        var fails: Bool
        var id: String { "\(suite.rawValue) \(check) \(document)" }
    }

    static func v22(_ document: String, _ check: String, _ tests: [Int], level: Int = 1, fails: Bool) -> Verdict {
        Verdict(suite: .kml22, document: "kml/" + document, check: check, tests: tests, level: level, fails: fails)
    }

    static func v2(_ document: String, _ check: String, _ tests: [Int], level: Int = 1, fails: Bool) -> Verdict {
        Verdict(suite: .kml2, document: document, check: check, tests: tests, level: level, fails: fails)
    }

    /// Every single-document verdict of the two ETS's unit tests (their `src/test/java`).
    static let verdicts: [Verdict] = [
        // ets-kml22, level 1
        v22("features/Placemark-Author.xml", "FeatureTests.verifyAtomAuthor", [30], fails: false),
        Verdict(suite: .kml22, document: "kmz/small_world.kmz", check: "FeatureTests.verifyRegion", tests: [41], level: 1, fails: false),
        Verdict(suite: .kml22, document: "atom-feed.xml", check: "KmlDocumentTests.verifyXmlSchemaConstraints", tests: [2], level: 1, fails: true),
        v22("KML_Samples.kml", "KmlDocumentTests.verifyXmlSchemaConstraints", [2], fails: false),
        v22("emptyPlacemarkWithoutId.xml", "KmlDocumentTests.verifyEmptyObjectHasId", [21], fails: true),
        v22("spatial/LatLonAltBox-SgtN.xml", "SpatialTests.checkLatValues", [8], fails: true),
        v22("spatial/Placemark-TruncatedLineString.xml", "SpatialTests.verifyLineStringCoordinates", [15], fails: true),
        v22("spatial/invalidPolygonBoundary.xml", "SpatialTests.verifyPolygonBoundary", [17], fails: true),
        v22("spatial/LineString-ClampToGround.xml", "SpatialTests.verifyGeometryTesselate", [13], fails: false),
        v22("spatial/LineString-Tessellate.xml", "SpatialTests.verifyGeometryTesselate", [13], fails: false),
        v22("spatial/Polygon-Absolute.xml", "SpatialTests.verifyGeometryTesselate", [13], fails: true),
        v22("KML_Samples.kml", "StyleTests.checkStyleTarget", [6], fails: false),
        v22("styles/StyleMap-Ok.xml", "StyleTests.verifyStyleMap", [36], fails: false),
        v22("styles/StyleMap-Error.xml", "StyleTests.verifyStyleMap", [36], fails: true),
        v22("custom/SimpleField-Ok.xml", "UserDefinedDataTests.verifySimpleField", [26], fails: false),
        v22("custom/SimpleField-UnsupportedType.xml", "UserDefinedDataTests.verifySimpleField", [26], fails: true),
        v22("custom/SchemaData-Ok.xml", "UserDefinedDataTests.verifySchemaData", [27], fails: false),
        v22("custom/SchemaData-NoSchema.xml", "UserDefinedDataTests.verifySchemaData", [27], fails: true),
        v22("custom/SchemaData-InvalidDatum.xml", "UserDefinedDataTests.verifySchemaData", [27], fails: true),
        v22("custom/Data-Ok.xml", "UserDefinedDataTests.verifyUntypedDataAreUnique", [28], fails: false),
        v22("custom/Data-Duplicate.xml", "UserDefinedDataTests.verifyUntypedDataAreUnique", [28], fails: true),
        v22("views/LookAt-Ok.xml", "ViewTests.verifyLookAt", [38], fails: false),
        v22("views/LookAt-Error.xml", "ViewTests.verifyLookAt", [38], fails: true),
        v22("views/LookAt-MissingAltitudeMode.xml", "ViewTests.verifyLookAt", [38], fails: false),
        v22("views/LookAt-MissingAltitudeModeAndAltitude.xml", "ViewTests.verifyLookAt", [38], fails: false),
        v22("views/LookAt-ClampToGround.xml", "ViewTests.verifyLookAt", [38], fails: false),
        // ets-kml22, level 2
        v22("links/Link.xml", "Recommendations.verifyHttpQuery", [47], level: 2, fails: false),
        v22("links/Link-BadHttpQuery.xml", "Recommendations.verifyHttpQuery", [47], level: 2, fails: true),
        v22("links/Link.xml", "Recommendations.verifyLinkRefresh", [51], level: 2, fails: true),
        v22("features/PhotoOverlay-PyramidWithoutHref.xml", "Recommendations.verifyImagePyramidInPhotoOverlay", [52], level: 2, fails: true),
        v22("features/PhotoOverlay-HrefParamsWithoutImagePyramid.xml", "Recommendations.verifyImagePyramidInPhotoOverlay", [52], level: 2, fails: true),
        v22("features/PhotoOverlay.xml", "Recommendations.verifyImagePyramidInPhotoOverlay", [52], level: 2, fails: false),
        v22("features/Folder-Empty.xml", "Recommendations.verifyFolderNotEmpty", [60], level: 2, fails: true),
        v22("styles/StyleMap-Ok.xml", "StyleRecommendations.verifyStyleMapPairs", [68], level: 2, fails: false),
        v22("styles/StyleMap-DuplicateKeys.xml", "StyleRecommendations.verifyStyleMapPairs", [68], level: 2, fails: true),
        // ets-kml2, conformance class 1 (the Verify tests set level 2 where noted)
        v2("kml22/PlacemarkStyle-003.xml", "CommonFeatureTests.validStyleReference", [106], fails: false),
        v2("kml22/Document-001.xml", "CommonFeatureTests.checkFeatureConstraints", [135, 232], level: 2, fails: true),
        v2("kml23/Placemark-Camera.xml", "CommonFeatureTests.validViewpoint", [137, 213], level: 2, fails: true),
        v2("schemas/Schema-002.xml", "ContainerTests.validSchema", [125, 126], fails: true),
        v2("kml22/Folder-001.xml", "ContainerTests.atomAuthor+phoneNumber", [124, 130], fails: false),
        v2("kml22/Placemark-001.xml", "KmlResourceTests.isSchemaValid", [102], fails: true),
        v2("kml23/Placemark-001.xml", "KmlResourceTests.isSchemaValid", [102], fails: true),
        v2("kml23/Placemark-002.xml", "LinearRingTests.validLinearRingCoordinates", [103, 116], fails: true),
        v2("kml23/NetworkLinkControl-001.xml", "NetworkLinkControlTests.refreshPeriod", [120], fails: false),
        v2("kml23/NetworkLinkControl-002.xml", "NetworkLinkControlTests.refreshPeriod", [120], fails: false),
        v2("kml23/NetworkLinkControl-003.xml", "NetworkLinkControlTests.refreshPeriod", [120], fails: true),
        v2("kml23/NetworkLinkControl-005.xml", "NetworkLinkControlTests.validUpdate", [123], fails: true),
        // validLink also fetches the link's referent (ATC-110); one document decides its ATC-109 part.
        v2("features/NetworkLink-001.xml", "NetworkLinkTests.validLink", [109], fails: false),
        v2("features/NetworkLink-002.xml", "NetworkLinkTests.validLink", [109], fails: true),
        v2("kml23/GroundOverlay-001.xml", "OverlayTests.groundOverlayExtent", [111, 149], fails: true),
        v2("kml23/GroundOverlay-002.xml", "OverlayTests.groundOverlayExtent", [111, 149], fails: true),
        v2("features/PhotoOverlay-003.xml", "OverlayTests.checkOverlayConstraints", [119, 132, 134], fails: true),
        v2("features/GroundOverlay-001.xml", "OverlayTests.checkOverlayConstraints", [119, 132, 134], fails: true),
        v2("features/GroundOverlay-002.xml", "OverlayTests.checkOverlayConstraints", [119, 132, 134], fails: false),
        v2("kml23/Placemark-Track-1.xml", "PlacemarkTests.validTrack", [146, 147, 148], fails: false),
        v2("kml23/Placemark-Track-2.xml", "PlacemarkTests.validTrack", [146, 147, 148], fails: true),
        v2("kml22/Placemark-001.xml", "PointTests.validPointCoordinates", [103, 114], fails: false),
        v2("kml22/PlacemarkPoint-002.xml", "PointTests.validPointCoordinates", [103, 114], fails: true),
        v2("geom/PointRelativeToGround.xml", "PointTests.validPointCoordinates", [103, 114], fails: true),
        v2("kml23/Placemark-003.xml", "PolygonTests.validPolygonBoundary", [103, 117], fails: true),
        v2("time/TimeSpan-valid.xml", "TimeSpanTests.validTimeSpan", [104], fails: false),
        v2("time/TimeSpan-invalid.xml", "TimeSpanTests.validTimeSpan", [104], fails: true),
        // animatedUpdateTarget reports an id in the update context (ATC-123) under ATC-145.
        v2("kml23/Tour-AnimatedUpdate-1.xml", "TourTests.animatedUpdateTarget", [145, 123], fails: false),
        v2("kml23/Tour-AnimatedUpdate-2.xml", "TourTests.animatedUpdateTarget", [145, 123], fails: true),
        v2("kml23/Tour-AnimatedUpdate-2.xml", "TourTests.checkTourConstraints", [141, 142, 143], fails: true),
        // ets-kml2, conformance classes 2 and 3
        v2("features/PhotoOverlay-004.xml", "CL2OverlayTests.photoOverlayForTiledImage", [211], level: 2, fails: true),
        v2("features/PhotoOverlay-005.xml", "CL2OverlayTests.photoOverlayForTiledImage", [211], level: 2, fails: false),
        v2("kml23/Tour-AnimatedUpdate-1.xml", "CL2TourTests.checkTourConstraints", [228, 229, 230], level: 2, fails: true),
        v2("styles/Style-002.xml", "c2.StyleTests.checkStyleConstraints", [201, 217, 220, 222, 223, 224, 227], level: 2, fails: true),
        v2("features/Placemark-101.xml", "PlacemarkGeometryTests.polygonBoundaryOrientation", [301], level: 3, fails: true),
        v2("features/Placemark-102.xml", "PlacemarkGeometryTests.simpleRing", [302], level: 3, fails: true),
    ]

    /// Verdicts where `validate` and the ETS disagree, each with the reason (the test fails when
    /// one starts agreeing or another starts disagreeing).
    static let knownDisagreements: [String: String] = [
        "ets-kml2 PointTests.validPointCoordinates geom/PointRelativeToGround.xml":
            "a 2D position under relativeToGround: the ETS fails it inside its level-1 coordinate check, but the ATS puts "
            + "that assertion in ATC-202 (ATC 43 in KML 2.2), a level-2 recommendation; validate reports it from level 2 "
            + "(kml.coordinates-altitude-missing), as the ATS text says",
    ]

    /// The finding codes that implement `tests` of `suite`'s ATS.
    static func codes(for tests: [Int], in suite: Suite) -> Set<Diagnostic.Code> {
        Set(KMLRuleCatalog.rules.filter { rule in
            !Set(suite == .kml22 ? rule.tests : rule.kml23Tests).isDisjoint(with: tests)
        }.map(\.code))
    }

    func testETSVerdictsAgree() throws {
        let root = ProcessInfo.processInfo.environment["OVERLAYKIT_ETS_KML"] ?? ""
        try Prerequisite.require(!root.isEmpty, "set OVERLAYKIT_ETS_KML to a folder holding checkouts of opengeospatial/ets-kml22 and ets-kml2")
        // Schema validity (ATC 2, ATC-102) is the XSD's to judge, element order included.
        let schema = try Prerequisite.corpus("schemas/kml22-offline/ogckml22.xsd").path
        var agreed = 0
        var disagreements: [String: String] = [:]
        var checks: [String: Bool] = [:]
        for verdict in Self.verdicts {
            let path = "\(root)/\(verdict.suite.rawValue)/src/test/resources/\(verdict.document)"
            guard FileManager.default.fileExists(atPath: path) else {
                XCTFail("\(path) is missing: is \(root)/\(verdict.suite.rawValue) a checkout of opengeospatial/\(verdict.suite.rawValue)?")
                continue
            }
            let schemaTest = verdict.tests.contains(verdict.suite == .kml22 ? 2 : 102)
            let options = ValidationOptions(schemaPath: schemaTest ? schema : nil, atsLevel: verdict.level)
            let format: FileFormat = path.hasSuffix(".kmz") ? .kmz : .kml
            let result = Validator.validate(path: path, format: format, options: options)
            let codes = Self.codes(for: verdict.tests, in: verdict.suite)
            let hits = result.findings.filter { codes.contains($0.code) }
            let agrees = hits.isEmpty != verdict.fails
            checks["\(verdict.suite.rawValue) \(verdict.check)", default: true] = checks["\(verdict.suite.rawValue) \(verdict.check)", default: true] && agrees
            if agrees {
                agreed += 1
            } else {
                disagreements[verdict.id] = verdict.fails ? "ETS fails it; validate finds nothing of \(codes.map(\.rawValue).sorted())"
                    : "ETS passes it; validate finds \(hits.map { "\($0.code.rawValue) (\($0.message))" })"
            }
        }
        let checksAgreed = checks.values.filter { $0 }.count
        print("OGC ETS KML verdicts: \(agreed) of \(Self.verdicts.count) agree; ETS checks: \(checksAgreed) of \(checks.count) agree")
        for (id, reason) in disagreements.sorted(by: { $0.key < $1.key }) { print("  disagree: \(id): \(reason)") }
        for (id, reason) in disagreements where Self.knownDisagreements[id] == nil { XCTFail("\(id): \(reason)") }
        for id in Self.knownDisagreements.keys where disagreements[id] == nil { XCTFail("\(id) agrees now; remove it from knownDisagreements") }
    }
}

import Foundation
import TestSupport
import OverlayKitTestFixtures
import XCTest

/// The real corpus (Natural Earth, US states, earthquakes as KML): every tile's MLT decodes to
/// the features of the MVT of the same tile (geometry, ids, properties as MLT's typed columns
/// hold them). Skips without the corpus (fails when it is required).
final class MLTCorpusTests: XCTestCase {
    func testEveryTileOfTheRealCorpusMatchesItsMVT() throws {
        let inputs: [(String, Int)] = [
            ("real/ne_50m_admin_0_countries.geojson", 5), ("real/ne_50m_admin_1_states_provinces.geojson", 4),
            ("real/ne_10m_land.geojson", 4), ("real/states.kml", 6), ("real/2012_Earthquakes_Mag5.kml", 6),
            ("real/2012-02-10.kml", 8),
        ]
        for (name, maxZoom) in inputs {
            let url = try Prerequisite.corpus(name)
            let tiles = try MLTTileComparison.compareEveryTile(of: url.path, maxZoom: maxZoom)
            print("MLT = MVT: \(name) to z\(maxZoom), \(tiles) tiles")
            XCTAssertGreaterThan(tiles, 0, name)
        }
    }
}

import Foundation
import OverlayKit
import TestSupport
import XCTest

/// Pages skipped by the page index (Parquet's ColumnIndex and OffsetIndex of the 1.1 covering
/// columns) inside the row groups a box read keeps: the features that meet the box are the
/// full read's, in order, whatever the threads and properties; pages were skipped (observable
/// in `statistics`); a page index inconsistent with the file is refused, naming the file, the
/// row group and the column. paged.parquet and its broken copies are written by
/// Tests/Scripts/geoparquet_scale_corpus.py (pyarrow, `write_page_index=True`, small pages whose
/// row ranges differ from column to column: 10 pages of the covering columns a row group, 38 of
/// the geometry column, 5 of `name`, 7 of the list column `tags`).
final class GeoParquetPageIndexTests: XCTestCase {
    private func paged(_ name: String = "paged") throws -> String {
        try GeoParquetScaleTests.corpus().appendingPathComponent("\(name).parquet").path
    }

    private func read(_ path: String, hints: FeatureReadHints = FeatureReadHints()) throws -> (features: [Feature], statistics: GeoParquetReader.Statistics) {
        var reader = try GeoParquetReader(path: path, hints: hints)
        return (try reader.readAll(), reader.statistics)
    }

    private func text(_ features: [Feature]) throws -> String {
        String(decoding: try FeatureIO.encode(features, as: .geojsonseq), as: UTF8.self)
    }

    func testPagesOutsideTheBoxAreSkippedAndTheFeaturesInItAreTheSame() throws {
        let path = try paged()
        let all = try read(path)
        XCTAssertEqual(all.features.count, 2400)
        XCTAssertEqual(all.statistics.pagesSkipped, 0)
        // The rows of the same features without a page index: the row group reader is unchanged.
        let covering = try read(try GeoParquetScaleTests.corpus().appendingPathComponent("covering.parquet").path).features
        XCTAssertEqual(try text(all.features), try text(covering))
        for box in ["0,-90,10,90", "100,0,120,30", "-20,-5,-19,5", "-180,-90,180,90", "170,-90,-170,90", "-100,-90,-99.99,90"] {
            var filter = FeatureFilter()
            filter.intersecting = try GeographicBox(parsing: box)
            let expected = try all.features.filter { try filter.matches($0) }
            for threads in [1, 3] {
                let pushed = try read(path, hints: FeatureReadHints(extent: filter.intersecting, threads: threads))
                XCTAssertEqual(try text(try pushed.features.filter { try filter.matches($0) }), try text(expected), "\(box), \(threads) threads")
                if box != "-180,-90,180,90" {
                    // Sorted west to east: a narrow box keeps a page or two (128 rows each) of the
                    // row group it meets; the other row group is skipped whole.
                    XCTAssertGreaterThan(pushed.statistics.pagesSkipped, 0, box)
                    XCTAssertLessThanOrEqual(pushed.features.count, 3 * 128, box)
                    XCTAssertEqual(pushed.features.count + pushed.statistics.rowsSkipped, 1200, box)
                } else {
                    XCTAssertEqual(pushed.statistics.pagesSkipped, 0, box)
                    XCTAssertEqual(pushed.features.count, 2400, box)
                }
            }
        }
    }

    /// Properties whose pages start at other rows than the covering's (`name`, the repeated
    /// `tags`) are cut to the same rows as the geometry, and so is a column with no page index
    /// (paged_name_unindexed: `name` decoded whole).
    func testColumnsWithOtherPageBoundariesGiveTheSameRows() throws {
        var filter = FeatureFilter()
        filter.intersecting = try GeographicBox(parsing: "-30,-90,-20,90")
        let paged = try self.paged(), unindexed = try self.paged("paged_name_unindexed")
        let cases: [(String, Set<String>?)] = [(paged, nil), (paged, ["tags"]), (paged, ["name", "n"]), (paged, []),
                                               (unindexed, nil), (unindexed, ["name"])]
        for (path, properties) in cases {
            let expected = try read(path, hints: FeatureReadHints(properties: properties)).features.filter { try filter.matches($0) }
            XCTAssertFalse(expected.isEmpty)
            let pushed = try read(path, hints: FeatureReadHints(extent: filter.intersecting, properties: properties))
            XCTAssertGreaterThan(pushed.statistics.pagesSkipped, 0)
            XCTAssertEqual(try text(try pushed.features.filter { try filter.matches($0) }), try text(expected), "\(path) \(properties ?? [])")
        }
    }

    /// A page index that disagrees with the file is refused when it is used (a read with a box),
    /// with exit status 65's code and the file, row group and column; a read of everything
    /// never looks at it.
    func testAnInconsistentPageIndexIsRefused() throws {
        // A box in the first row group (its page index is read only for row groups kept).
        let box = FeatureReadHints(extent: try GeographicBox(parsing: "-30,-90,-20,90"))
        for (name, reason) in [("paged_bad_offset", "points outside the file"), ("paged_bad_rows", "first rows must rise"),
                               ("paged_bad_count", "where the offset index lists 10 pages")] {
            let path = try paged(name)
            XCTAssertEqual(try read(path).features.count, 2400, name)
            XCTAssertThrowsError(try read(path, hints: box), name) { error in
                guard let diagnostic = error as? Diagnostic else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(diagnostic.code, .geoparquetBadFile, name)
                XCTAssertEqual(diagnostic.code.kind.exitStatus, 65, name)
                XCTAssertTrue(diagnostic.message.contains("\(name).parquet: row group 0, column bbox.xmin: "), diagnostic.message)
                XCTAssertTrue(diagnostic.message.contains(reason), diagnostic.message)
            }
        }
    }
}

@testable import OverlayKit
import Foundation
import TestSupport
import XCTest

/// Reading ahead on a second thread hands over exactly what reading directly gives: the same
/// features, warnings and errors in the same order, and the document context at the end.
final class ReadAheadFeatureReaderTests: XCTestCase {
    /// Every step of a reader: a feature's id and warning codes, or the error code.
    private func trace(_ reader: inout any FeatureReader, steps: Int = 200) -> [String] {
        var trace: [String] = []
        for _ in 0..<steps {
            do {
                guard let feature = try reader.next() else {
                    trace.append("end \(reader.takeWarnings().map(\.code)) \(reader.documentContext.collectionMembers.keys)")
                    break
                }
                trace.append("\(feature.id.map { "\($0)" } ?? "-") \(feature.shape.map { "\($0)" }?.prefix(40) ?? "") \(reader.takeWarnings().map(\.code))")
            } catch let diagnostic as Diagnostic {
                trace.append("error \(diagnostic.code) \(diagnostic.location.map { "\($0)" } ?? "") \(reader.takeWarnings().map(\.code))")
            } catch {
                trace.append("error \(error)")
            }
        }
        return trace
    }

    @discardableResult
    private func compare(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        var direct: any FeatureReader = try FeatureIO.reader(for: ByteInput(string: text, name: "t.geojson"))
        var ahead: any FeatureReader = try ReadAheadFeatureReader(try FeatureIO.reader(for: ByteInput(string: text, name: "t.geojson")), depth: 2)
        let expected = trace(&direct, steps: 60)
        XCTAssertEqual(trace(&ahead, steps: 60), expected, file: file, line: line)
        XCTAssertGreaterThan(expected.count, 2, file: file, line: line)
        return expected
    }

    func testSameFeaturesWarningsAndContextAsReadingDirectly() throws {
        let features = (0..<50).map { index in
            #"{"type":"Feature","id":\#(index),"properties":{"n":\#(index),"n":\#(index + 1)},"geometry":{"type":"Point","coordinates":[\#(index),1]}}"#
        }
        let steps = try compare(#"{"type":"FeatureCollection","name":"places","features":["# + features.joined(separator: ",") + "]}")
        XCTAssertTrue(steps[0].contains("duplicate"), steps[0])
        XCTAssertTrue(steps.last!.contains("name"), steps.last!)
    }

    func testErrorsArriveAtTheSamePoint() throws {
        var lines = (0..<30).map { #"{"type":"Feature","id":\#($0),"properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"# }
        lines[7] = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1]}}"#
        lines[20] = #"{"type":"Feature","properties":{},"geometry":{"type":"Pointy","coordinates":[1,2]}}"#
        let steps = try compare("\u{1E}" + lines.joined(separator: "\n\u{1E}") + "\n")
        XCTAssertTrue(steps[7].hasPrefix("error geojson.position-too-short t.geojson:8:"), steps[7])
        XCTAssertTrue(steps[8].hasPrefix("error"), "the reader does not resume here; reading ahead must not either: \(steps[8])")
    }

    /// The reading thread has a main-thread-sized stack: the deepest nesting the reader
    /// accepts (511 GeometryCollections) reads there too.
    func testDeepNestingReadsOnTheReadingThread() throws {
        let depth = 511
        let text = String(repeating: #"{"type":"GeometryCollection","geometries":["#, count: depth) + #"{"type":"Point","coordinates":[1,2]}"#
            + String(repeating: "]}", count: depth)
        let reader = try ReadAheadFeatureReader(try FeatureIO.reader(for: ByteInput(string: text)))
        XCTAssertNotNil(try reader.next())
        XCTAssertNil(try reader.next())
        XCTAssertNil(try reader.next(), "after the end, nil again")
    }

    /// A caller that stops early releases the reader; the reading thread, waiting for room,
    /// ends instead of blocking the process.
    func testStoppingEarlyEndsTheReadingThread() throws {
        let text = #"{"type":"FeatureCollection","features":["# + (0..<10_000).map {
            #"{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[\#($0 % 180),1]}}"#
        }.joined(separator: ",") + "]}"
        for _ in 0..<20 {
            var reader: ReadAheadFeatureReader? = try ReadAheadFeatureReader(try FeatureIO.reader(for: ByteInput(string: text)), depth: 1)
            XCTAssertNotNil(try reader?.next())
            reader = nil
        }
    }

    /// One usable core (`taskset -c 0`): no reading thread; more: one. The count follows the
    /// process's CPU affinity, which `ProcessInfo.activeProcessorCount` ignores.
    func testReadsAheadOnlyWithASecondCore() throws {
        let cores = ReadAheadFeatureReader.usableCores
        XCTAssertGreaterThanOrEqual(cores, 1)
        XCTAssertLessThanOrEqual(cores, ProcessInfo.processInfo.activeProcessorCount)
        let reader = try ReadAheadFeatureReader.whenUseful(try FeatureIO.reader(for: ByteInput(string: "{\"type\":\"Point\",\"coordinates\":[1,2]}")))
        XCTAssertEqual(reader is ReadAheadFeatureReader, cores > 1)
        #if os(Linux)
        let pinned = Process()
        pinned.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        pinned.arguments = ["-c", "0", "/usr/bin/nproc"]
        let pipe = Pipe()
        pinned.standardOutput = pipe
        try Prerequisite.require((try? pinned.run()) != nil, "taskset not available (Debian: util-linux)")
        pinned.waitUntilExit()
        let nproc = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(nproc.trimmingCharacters(in: .whitespacesAndNewlines), "1", "nproc, like usableCores, follows the affinity")
        #endif
    }
}

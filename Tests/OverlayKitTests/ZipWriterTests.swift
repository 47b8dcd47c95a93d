import Foundation
@testable import OverlayKit
import OverlayModel
import XCTest

/// `ZipWriter`: one pass, readable by our reader and by Python's zipfile, zip64 past 65,535
/// entries, deterministic (issue 25 item 14).
final class ZipWriterTests: XCTestCase {
    private func archive(_ entries: [(String, [UInt8])], bigFile: [UInt8]? = nil) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var writer = try ZipWriter { bytes.append(contentsOf: $0) }
        if let bigFile {
            let file = try TemporaryFile()
            try file.write(bigFile)
            try writer.add(path: "doc.kml", file: file)
        }
        for (path, content) in entries { try writer.add(path: path, bytes: content) }
        try writer.finish()
        return bytes
    }

    private func readBack(_ bytes: [UInt8]) throws -> [(String, [UInt8])] {
        let zip = try RandomAccessBytes(ByteInput(bytes: bytes))
        return try ZipDirectory.entries(of: zip).map { entry in
            var content: [UInt8] = []
            try ZipEntryReader.read(entry, from: zip) { content.append(contentsOf: $0) }
            return (entry.path, content)
        }
    }

    func testEntriesReadBackWithTheirNamesAndBytes() throws {
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7 / 3) }
        let entries: [(String, [UInt8])] = [("files/é.png", Array("png".utf8)), ("empty", []), ("a/b/c.txt", Array(repeating: 65, count: 100_000))]
        let bytes = try archive(entries, bigFile: big)
        let read = try readBack(bytes)
        XCTAssertEqual(read.map(\.0), ["doc.kml"] + entries.map(\.0))
        XCTAssertEqual(read.map(\.1), [big] + entries.map(\.1))
        XCTAssertEqual(try archive(entries, bigFile: big), bytes, "same entries, same bytes")
        // An independent reader agrees (Python's zipfile checks every CRC in testzip).
        guard let python = KMLTestSupport.executable("python3") else { return }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zipwriter-\(getpid()).zip")
        try Data(bytes).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let (status, output) = try KMLTestSupport.run(python, ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); "
            + "print(z.testzip(), [i.filename for i in z.infolist()], [i.date_time for i in z.infolist()][0])", path.path])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output, "None ['doc.kml', 'files/é.png', 'empty', 'a/b/c.txt'] (1980, 1, 1, 0, 0, 0)\n")
    }

    /// Past 65,535 entries the count needs the zip64 end records.
    func testMoreThan65535EntriesUseZip64EndRecords() throws {
        let count = 70_000
        let bytes = try archive((0..<count).map { ("f\($0)", [UInt8(truncatingIfNeeded: $0)]) })
        let read = try readBack(bytes)
        XCTAssertEqual(read.count, count)
        XCTAssertEqual(read[69_999].0, "f69999")
        XCTAssertEqual(read[69_999].1, [UInt8(truncatingIfNeeded: 69_999)])
        // The zip64 end record and its locator sit before the classic end record.
        let tail = Array(bytes.suffix(22 + 20 + 56))
        XCTAssertEqual(Array(tail[0..<4]), [0x50, 0x4b, 0x06, 0x06])
        XCTAssertEqual(Array(tail[56..<60]), [0x50, 0x4b, 0x06, 0x07])
    }
}

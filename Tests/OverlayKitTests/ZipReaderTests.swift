@testable import OverlayKit
import XCTest

/// The zip reader behind KMZ: entries read back exactly, and every kind of damage is an error
/// that comes at once (ZIPFoundation, used before, spun forever on truncated deflate data).
final class ZipReaderTests: XCTestCase {
    /// One entry to put in a hand-built zip; `declared…` override what the directory says.
    private struct Part {
        var name: String
        var data: [UInt8]
        var deflate = true
        var declaredCRC: UInt32?
        var declaredCompressedSize: Int?
        var cutDeflateTo: Int?
    }

    /// Raw deflate of `bytes`: our gzip without its 10-byte header and 8-byte trailer.
    private func rawDeflate(_ bytes: [UInt8]) throws -> [UInt8] {
        let gzip = try Gzip.compress(bytes)
        return Array(gzip[10..<(gzip.count - 8)])
    }

    private func crc(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { Inflater.crc32(0, $0) } }

    /// A zip with local headers, data, a central directory and its end record.
    private func zip(_ parts: [Part], declaredCount: Int? = nil) throws -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xff) } }
        var body: [UInt8] = []
        var directory: [UInt8] = []
        for part in parts {
            var stored = part.deflate ? try rawDeflate(part.data) : part.data
            if let cut = part.cutDeflateTo { stored = Array(stored.prefix(cut)) }
            let name = Array(part.name.utf8)
            let fields = le16(part.deflate ? 8 : 0) + [0, 0, 0, 0] + le32(part.declaredCRC ?? crc(part.data))
                + le32(UInt32(part.declaredCompressedSize ?? stored.count)) + le32(UInt32(part.data.count)) + le16(name.count) + le16(0)
            let offset = UInt32(body.count)
            body += le32(0x0403_4b50) + le16(20) + le16(0) + fields + name + stored
            directory += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + fields + le16(0) + le16(0) + le16(0)
                + le32(0) + le32(offset) + name
        }
        let count = declaredCount ?? parts.count
        return body + directory + le32(0x0605_4b50) + le16(0) + le16(0) + le16(count) + le16(count)
            + le32(UInt32(directory.count)) + le32(UInt32(body.count)) + le16(0)
    }

    private func readAll(_ zipBytes: [UInt8]) throws -> [String: [UInt8]] {
        let source = try RandomAccessBytes(ByteInput(bytes: zipBytes))
        var result: [String: [UInt8]] = [:]
        for entry in try ZipDirectory.entries(of: source) {
            var bytes: [UInt8] = []
            try ZipEntryReader.read(entry, from: source) { bytes.append(contentsOf: $0) }
            result[entry.path] = bytes
        }
        return result
    }

    private func assertFailure(_ zipBytes: [UInt8], _ phrase: String, line: UInt = #line) {
        XCTAssertThrowsError(try readAll(zipBytes), line: line) { error in
            XCTAssertTrue(error is ZipFailure, "\(error)", line: line)
            XCTAssertTrue("\(error)".contains(phrase), "\(error)", line: line)
        }
    }

    func testStoredAndDeflatedEntriesReadBack() throws {
        let kml = Array(String(repeating: "<Placemark><name>å</name></Placemark>\n", count: 20_000).utf8)
        let icon = (0..<300).map { UInt8($0 % 256) }
        let entries = try readAll(zip([Part(name: "doc.kml", data: kml), Part(name: "files/ícon.png", data: icon, deflate: false)]))
        XCTAssertEqual(entries["doc.kml"], kml)
        XCTAssertEqual(entries["files/ícon.png"], icon)
    }

    func testTruncatedDeflateDataIsAnErrorNotAHang() throws {
        let kml = Array(String(repeating: "<Point><coordinates>1,2</coordinates></Point>", count: 5_000).utf8)
        let full = try rawDeflate(kml).count
        assertFailure(try zip([Part(name: "doc.kml", data: kml, cutDeflateTo: full / 2)]), "ends early")
        assertFailure(try zip([Part(name: "doc.kml", data: kml, cutDeflateTo: 1)]), "ends early")
    }

    func testChecksumAndSizeMismatchesAreErrors() throws {
        let kml = Array("<kml/>".utf8)
        assertFailure(try zip([Part(name: "doc.kml", data: kml, declaredCRC: 0x1234)]), "CRC-32")
        assertFailure(try zip([Part(name: "doc.kml", data: kml, declaredCompressedSize: 1 << 30)]), "past the end")
    }

    func testDamagedDirectoriesAreErrors() throws {
        let good = try zip([Part(name: "doc.kml", data: Array("<kml/>".utf8))])
        assertFailure(Array(good.prefix(good.count - 22)), "no zip end-of-directory")
        assertFailure(Array("not a zip at all, just some text".utf8), "no zip end-of-directory")
        var corrupted = good
        corrupted[corrupted.count - 22 - 46 - 7] = 0  // the directory record's signature
        assertFailure(corrupted, "bad signature")
        // A count of 65,535 with one record: the directory's size bounds the walk.
        let overstated = try zip([Part(name: "doc.kml", data: Array("<kml/>".utf8))], declaredCount: 65_535)
        XCTAssertEqual(try readAll(overstated).count, 1)
    }

    /// The `kmz` fuzz target's input (Fuzz/README.md): a KMZ whose deflate data ends before its
    /// final block made `convert` spin forever; now it is `kmz.corrupt`, exit 65, at once.
    func testFuzzedTruncatedKMZIsCorrupt() throws {
        let input = try XCTUnwrap(Data(base64Encoded: Self.fuzzedKMZ))
        var reader: KMLReader?
        XCTAssertThrowsError(reader = try KMZ.reader(for: ByteInput(bytes: Array(input), name: "fuzzed.kmz"))) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "kmz.corrupt", "\(error)")
        }
        XCTAssertNil(reader)
    }

    static let fuzzedKMZ = """
UEsDBBQAAAgIAAAAIQBO6zaCNgIAAHMGAAAHAAAAZG9jLmttbJ1Vy46bMBTd5yuQZ5tgIJsqMp6qmqaq1FZRk9lM1QWDHeIO2Mh2mqCq/95rHgnJkBY1IuJin/s8x0Duj0Xu/eTaCCVjFPoB8rhMFRMyi9HjZjl7g+7phLwACpDSxGhnbbnA+HA4+KrkMhPGl9xiQODIjxCAH1S6L7i0YK5tlXNPsBiZEFHySUheL1GSqlxput0G8NtuCW6eyUEwu6ORHxDcmAT3nHBzh7jpjheJJ5OCx6jUUIi2gkOOOlfpcq1FUeZ8KXjOPFuVgBPSotZFIjyEMFZD4x2IORBuUt3OGbU5o8GcEFHySUheL1GSqlxput0G8NtuCW6eyUEwu6ORHxDcmAT3nHBzh7jpjheJJ5OCx6jUUIi2gkOOOlfpcq1FUeZ8KXjOPFuVgBPSotZFIjyEMFZD4x2IORBuUt3OGbU5o8GclxFTpTSMQmluYXJ5RmxMmSfVF8DQH0ZJgvsrUMI57IiC5m1B8xEFvc24KrjV1cztjhmKSJW8nMtS5YwDdX6fLgmu7xOyypMUAPqlqQaKMY68R53TOxMSfHoi74+WS8bZQ2IT2nblbM/UJmBidNfjtN7reKTzbj6t+zWEIXq8hOBzCni4zP55n1vxoR1KJ1jXv1NsR56hwTTwwmnoZHte7KTawFcqrzIlKVF7y/U7tZcs0dVH0wRN9NcbQevAHthDwTs3/CooPuXDVz3gExN9VijZiIKvywQ8nnkmJI2CCHI2NoGRuAXo0FkEn8Hj2IqG2BqWUEsBAhUDFAAACAgAAAAhAE7rNoI2AgAAcwYAAAcAAAAAAAAAAAAAAKSBAAAAAGRvYy5rbWxQSwUGAAAAAAEAAQA1AAAAWwIAAAAA
"""
}

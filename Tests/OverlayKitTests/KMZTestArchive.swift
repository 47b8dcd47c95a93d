@testable import OverlayKit

/// Builds small zip archives in memory for KMZ tests (entries stored, not deflated).
enum KMZTestArchive {
    static func stored(_ entries: [(path: String, bytes: [UInt8])]) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xff) } }
        var body: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.path.utf8)
            let crc = entry.bytes.withUnsafeBytes { Inflater.crc32(0, $0) }
            let fields = le16(0) + [0, 0, 0, 0] + le32(crc) + le32(UInt32(entry.bytes.count)) + le32(UInt32(entry.bytes.count))
                + le16(name.count) + le16(0)
            let offset = UInt32(body.count)
            body += le32(0x0403_4b50) + le16(20) + le16(0) + fields + name + entry.bytes
            directory += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + fields + le16(0) + le16(0) + le16(0)
                + le32(0) + le32(offset) + name
        }
        return body + directory + le32(0x0605_4b50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
            + le32(UInt32(directory.count)) + le32(UInt32(body.count)) + le16(0)
    }
}

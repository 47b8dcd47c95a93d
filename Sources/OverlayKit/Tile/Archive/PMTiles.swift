import OverlayModel

/// The PMTiles v3 format's parts (protomaps/PMTiles `spec/v3/spec.md`): the 127-byte header,
/// Hilbert tile ids, and varint-encoded directories.
enum PMTiles {
    /// Header length in bytes.
    static let headerLength = 127
    /// The root directory, with the header, must fit in the first 16 KiB.
    static let rootLimit = 16384 - headerLength
    /// The largest directory (root or leaf) read, uncompressed: 16 MiB, four million entries at
    /// the spec's four bytes or more each; writers keep leaves to a few thousand entries. Checked
    /// while inflating, so a directory that inflates to gigabytes stops at this.
    static let maximumDirectoryBytes = 16 << 20
    /// Compression codes (header bytes 97 and 98).
    static let compressionNone: UInt8 = 1, compressionGzip: UInt8 = 2
    /// Tile type codes (header byte 99).
    static let tileTypeUnknown: UInt8 = 0, tileTypeMVT: UInt8 = 1, tileTypeMLT: UInt8 = 6

    /// The spec's Hilbert tile id: tiles of all lower zooms first, then along a Hilbert curve.
    static func tileID(_ id: TileID) -> UInt64 {
        let z = id.z
        let accumulator = firstID(ofZoom: z)
        var x = UInt64(id.x), y = UInt64(id.y)
        var distance: UInt64 = 0
        var step = z > 0 ? UInt64(1) << (z - 1) : 0
        while step > 0 {
            let rx: UInt64 = (x & step) != 0 ? 1 : 0
            let ry: UInt64 = (y & step) != 0 ? 1 : 0
            distance += step * step * ((3 * rx) ^ ry)
            // The spec's reference code rotates within the whole grid here (n = 2^z).
            rotate(UInt64(1) << z, &x, &y, rx, ry)
            step >>= 1
        }
        return accumulator + distance
    }

    /// The id of zoom `z`'s first tile: the number of tiles in every lower zoom, (4^z − 1) / 3.
    static func firstID(ofZoom z: Int) -> UInt64 {
        ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
    }

    /// The tile for a Hilbert id (nil above zoom 26, beyond any tile a reader can ask for).
    static func tile(_ hilbert: UInt64) -> TileID? {
        var accumulator: UInt64 = 0
        for z in 0...26 {
            let count = UInt64(1) << (2 * z)
            if hilbert < accumulator + count {
                var position = hilbert - accumulator
                var x: UInt64 = 0, y: UInt64 = 0
                var step: UInt64 = 1
                let size = UInt64(1) << z
                while step < size {
                    let rx = 1 & (position / 2)
                    let ry = 1 & (position ^ rx)
                    rotate(step, &x, &y, rx, ry)
                    x += step * rx
                    y += step * ry
                    position /= 4
                    step <<= 1
                }
                return TileID(z: z, x: Int(x), y: Int(y))
            }
            accumulator += count
        }
        return nil
    }

    private static func rotate(_ size: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = size - 1 - x
            y = size - 1 - y
        }
        swap(&x, &y)
    }

    /// One directory entry: `runLength` consecutive tile ids with the same bytes, or (run length
    /// 0) a leaf directory at `offset` in the leaf section.
    struct Entry: Hashable {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    /// A directory, before internal compression: count, delta ids, run lengths, lengths, offsets
    /// (0 when contiguous with the previous entry, else offset + 1), all varints.
    static func encodeDirectory(_ entries: [Entry]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(entries.count * 8 + 8)
        func varint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                out.append(UInt8(value & 0x7f) | 0x80)
                value >>= 7
            }
            out.append(UInt8(value))
        }
        varint(UInt64(entries.count))
        var last: UInt64 = 0
        for entry in entries {
            varint(entry.tileID - last)
            last = entry.tileID
        }
        for entry in entries { varint(UInt64(entry.runLength)) }
        for entry in entries { varint(UInt64(entry.length)) }
        for (index, entry) in entries.enumerated() {
            if index > 0 && entry.offset == entries[index - 1].offset + UInt64(entries[index - 1].length) {
                varint(0)
            } else {
                varint(entry.offset + 1)
            }
        }
        return out
    }

    /// Reads an uncompressed directory; every count and value is checked.
    /// - Throws: `Diagnostic` `tile.archive-pmtiles` naming `source`.
    static func decodeDirectory(_ bytes: [UInt8], source: String) throws -> [Entry] {
        var position = 0
        func bad(_ why: String) -> Diagnostic {
            Diagnostic(.error, code: .tileArchivePmtiles, message: "\(source): directory \(why)")
        }
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < bytes.count else { throw bad("ends inside a number") }
                guard shift < 64 else { throw bad("has a number longer than 64 bits") }
                let byte = bytes[position]
                position += 1
                result |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }
        let count = try varint()
        // Each entry takes at least 4 bytes (one varint in each of the four columns).
        guard count <= UInt64(bytes.count / 4) else { throw bad("claims \(count) entries in \(bytes.count) bytes") }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var last: UInt64 = 0
        for index in entries.indices {
            let (sum, overflow) = last.addingReportingOverflow(try varint())
            guard !overflow else { throw bad("has a tile id beyond 64 bits") }
            entries[index].tileID = sum
            last = sum
        }
        for index in entries.indices {
            guard let run = UInt32(exactly: try varint()) else { throw bad("has a run length beyond 32 bits") }
            entries[index].runLength = run
        }
        for index in entries.indices {
            guard let length = UInt32(exactly: try varint()) else { throw bad("has a length beyond 32 bits") }
            entries[index].length = length
        }
        for index in entries.indices {
            let value = try varint()
            if value == 0 {
                guard index > 0 else { throw bad("starts with a contiguous offset") }
                let (next, overflow) = entries[index - 1].offset.addingReportingOverflow(UInt64(entries[index - 1].length))
                guard !overflow else { throw bad("has a tile offset beyond 64 bits") }
                entries[index].offset = next
            } else {
                entries[index].offset = value - 1
            }
        }
        guard position == bytes.count else { throw bad("has \(bytes.count - position) bytes after its entries") }
        return entries
    }

    /// The header's fields.
    struct Header: Hashable {
        var rootOffset: UInt64 = 0, rootLength: UInt64 = 0
        var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
        var leafOffset: UInt64 = 0, leafLength: UInt64 = 0
        var dataOffset: UInt64 = 0, dataLength: UInt64 = 0
        var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
        var clustered = true
        var internalCompression = PMTiles.compressionGzip
        var tileCompression = PMTiles.compressionGzip
        var tileType = PMTiles.tileTypeMVT
        var minZoom: UInt8 = 0, maxZoom: UInt8 = 0
        /// Degrees × 10⁷.
        var minLonE7: Int32 = 0, minLatE7: Int32 = 0, maxLonE7: Int32 = 0, maxLatE7: Int32 = 0
        var centerZoom: UInt8 = 0
        var centerLonE7: Int32 = 0, centerLatE7: Int32 = 0

        /// The 127 bytes, little-endian.
        func encode() -> [UInt8] {
            var out = Array("PMTiles".utf8) + [3]
            func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
            func i32(_ value: Int32) { for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> Int32(shift))) } }
            for value in [rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength,
                          dataOffset, dataLength, addressedTiles, tileEntries, tileContents] { u64(value) }
            out += [clustered ? 1 : 0, internalCompression, tileCompression, tileType, minZoom, maxZoom]
            for value in [minLonE7, minLatE7, maxLonE7, maxLatE7] { i32(value) }
            out.append(centerZoom)
            i32(centerLonE7)
            i32(centerLatE7)
            return out
        }

        /// Reads the 127 bytes.
        /// - Throws: `Diagnostic` `tile.archive-pmtiles` when the magic or version is wrong.
        init(_ bytes: [UInt8], source: String) throws {
            guard bytes.count >= PMTiles.headerLength, Array(bytes[0..<7]) == Array("PMTiles".utf8) else {
                throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(source) is not a PMTiles file (no PMTiles header)")
            }
            guard bytes[7] == 3 else {
                throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(source) is PMTiles version \(bytes[7]); only 3 is read")
            }
            func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << UInt64(8 * $1) } }
            func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << UInt32(8 * $1) }) }
            rootOffset = u64(8); rootLength = u64(16); metadataOffset = u64(24); metadataLength = u64(32)
            leafOffset = u64(40); leafLength = u64(48); dataOffset = u64(56); dataLength = u64(64)
            addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
            clustered = bytes[96] == 1
            internalCompression = bytes[97]; tileCompression = bytes[98]; tileType = bytes[99]
            minZoom = bytes[100]; maxZoom = bytes[101]
            minLonE7 = i32(102); minLatE7 = i32(106); maxLonE7 = i32(110); maxLatE7 = i32(114)
            centerZoom = bytes[118]; centerLonE7 = i32(119); centerLatE7 = i32(123)
        }

        init() {}
    }

    /// Degrees to the header's fixed point (clamped to the valid range).
    static func e7(_ degrees: Double) -> Int32 {
        let clamped = min(max(degrees, -180), 180)
        return Int32((clamped * 10_000_000).rounded())
    }
}

import Foundation
import OverlayModel

/// An archive writer that logs its tiles to a named file instead of storing them, so a run split
/// over machines (`TileJob`) can cut each partition where it likes and put every tile into the
/// one archive at the end, by the writer calls one run would have made. The log ends in the
/// CRC-32 of everything before it, and every record is checked as it is replayed (a log from
/// another machine is hostile input): a damaged one is `tile.bad-work-file` with its offset.
///
///     per tile: u8 kind (0 tile, 1 block), u8 zoom, u32 x, u32 y, u8 block zoom, u32 length, bytes
///     end: u8 kind 2, u32 CRC-32 of every byte before it (little-endian)
final class TileLogWriter: TileArchiveWriter, @unchecked Sendable {
    let path: String
    private let output: AtomicOutput
    private let descriptor: Int32
    private let lock = NSLock()
    private var buffer = [UInt8]()
    private var size = 0
    private var crc: UInt32 = 0
    private let blocksOnce: Bool

    /// A log at `path`; `storesBlocksOnce` as the archive it stands in for.
    init(path: String, storesBlocksOnce: Bool) throws {
        self.path = path
        blocksOnce = storesBlocksOnce
        output = try AtomicOutput(path: path, kind: .stream, replaceExisting: true)
        descriptor = try output.openStream()
    }

    var storesBlocksOnce: Bool { blocksOnce }

    func write(_ id: TileID, _ tile: [UInt8]) throws {
        try log(kind: 0, id, blockZoom: id.z, tile)
    }

    func writeBlock(_ block: TileBlock, _ tile: [UInt8]) throws {
        try log(kind: 1, block.root, blockZoom: block.zoom, tile)
    }

    private func log(kind: UInt8, _ id: TileID, blockZoom: Int, _ tile: [UInt8]) throws {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(kind)
        buffer.append(UInt8(id.z))
        withUnsafeBytes(of: UInt32(id.x).littleEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(id.y).littleEndian) { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(blockZoom))
        withUnsafeBytes(of: UInt32(tile.count).littleEndian) { buffer.append(contentsOf: $0) }
        buffer += tile
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try POSIX.writeAll(descriptor, buffer, at: size, what: path)
        crc = buffer.withUnsafeBytes { Inflater.crc32(crc, $0) }
        size += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Puts the log in place.
    func commit() throws {
        lock.lock()
        defer { lock.unlock() }
        try flush()
        var end: [UInt8] = [Self.endKind]
        let checksum = end.withUnsafeBytes { Inflater.crc32(crc, $0) }          // the end's kind byte included
        withUnsafeBytes(of: checksum.littleEndian) { end.append(contentsOf: $0) }
        try POSIX.writeAll(descriptor, end, at: size, what: path)
        size += end.count
        try output.commit(descriptor: descriptor)
    }

    /// Puts the log in place (the metadata is the finishing step's to write).
    func finish(metadata: TileSetMetadata) throws { try commit() }

    func abort() { output.abort() }

    /// The kind byte of the log's end (its checksum).
    private static let endKind: UInt8 = 2
    private static let headerBytes = 15

    /// Replays the log at `path` into `writer`, tile by tile and block by block. Each record is
    /// checked before it reaches the writer: a tile of zoom 0…`maxZoom` inside its zoom's grid,
    /// a block whose zoom lies from its root's to `maxZoom`, a tile of at most
    /// `Gzip.maximumTileSize` bytes; the end's checksum covers the rest (the writer's output is
    /// abandoned by the caller when this throws).
    /// - Throws: `tile.bad-work-file` naming the log and the byte offset of a damaged record;
    ///   the writer's errors.
    static func replay(_ path: String, maxZoom: Int, into writer: any TileArchiveWriter) throws {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is missing: cut its partition first")
        }
        defer { try? input.close() }
        var pending = Data()
        var offset = 0                  // of pending's first byte in the file
        var crc: UInt32 = 0
        var ended = false
        func damaged(_ at: Int, _ why: String) -> Diagnostic {
            Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) (byte \(at)): \(why); cut its partition again")
        }
        while true {
            let chunk = input.readData(ofLength: 1 << 20)
            pending += chunk
            var start = pending.startIndex
            while !ended, start < pending.endIndex {
                let at = offset + (start - pending.startIndex)
                let kind = pending[start]
                if kind == endKind {
                    guard pending.endIndex - start >= 5 else { break }
                    let stored = pending[start + 1..<start + 5].withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
                    crc = pending[start..<start + 1].withUnsafeBytes { Inflater.crc32(crc, $0) }
                    guard stored == crc else { throw damaged(at, "the log's checksum does not match its bytes") }
                    start += 5
                    ended = true
                    break
                }
                guard kind <= 1 else { throw damaged(at, "a record of unknown kind \(kind)") }
                guard pending.endIndex - start >= headerBytes else { break }
                let header = pending[start..<start + headerBytes]
                let zoom = Int(header[start + 1]), blockZoom = Int(header[start + 10])
                let (x, y, length) = header.withUnsafeBytes {
                    (Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 2, as: UInt32.self))),
                     Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 6, as: UInt32.self))),
                     Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 11, as: UInt32.self))))
                }
                guard zoom <= maxZoom, x < 1 << zoom, y < 1 << zoom else {
                    throw damaged(at, "tile \(zoom)/\(x)/\(y) is not a tile of zooms 0…\(maxZoom)")
                }
                guard kind == 1 ? (zoom...maxZoom).contains(blockZoom) : blockZoom == zoom else {
                    throw damaged(at, "a \(kind == 1 ? "block" : "tile") at \(zoom)/\(x)/\(y) reaching zoom \(blockZoom)")
                }
                guard length <= Gzip.maximumTileSize else { throw damaged(at, "a tile of \(length) bytes") }
                guard pending.endIndex - start >= headerBytes + length else { break }
                let record = pending[start..<start + headerBytes + length]
                crc = record.withUnsafeBytes { Inflater.crc32(crc, $0) }
                let tile = [UInt8](record.dropFirst(headerBytes))
                let id = TileID(z: zoom, x: x, y: y)
                if kind == 1 {
                    try writer.writeBlock(TileBlock(root: id, zoom: blockZoom), tile)
                } else {
                    try writer.write(id, tile)
                }
                start += headerBytes + length
            }
            offset += start - pending.startIndex
            pending = Data(pending[start...])
            if ended && !pending.isEmpty { throw damaged(offset, "bytes after the log's end") }
            if chunk.isEmpty {
                guard pending.isEmpty, ended else { throw damaged(offset, "the log ends inside a record or without its checksum") }
                return
            }
        }
    }
}

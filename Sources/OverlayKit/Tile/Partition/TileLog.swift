import Foundation
import OverlayModel

/// An archive writer that logs its tiles to a named file instead of storing them, so a run split
/// over machines (`TileJob`) can cut each partition where it likes and put every tile into the
/// one archive at the end, by the writer calls one run would have made.
///
///     per tile: u8 kind (0 tile, 1 block), u8 zoom, u32 x, u32 y, u8 block zoom, u32 length, bytes
final class TileLogWriter: TileArchiveWriter, @unchecked Sendable {
    let path: String
    private let output: AtomicOutput
    private let descriptor: Int32
    private let lock = NSLock()
    private var buffer = [UInt8]()
    private var size = 0
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
        size += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Puts the log in place.
    func commit() throws {
        lock.lock()
        defer { lock.unlock() }
        try flush()
        try output.commit(descriptor: descriptor)
    }

    /// Puts the log in place (the metadata is the finishing step's to write).
    func finish(metadata: TileSetMetadata) throws { try commit() }

    func abort() { output.abort() }

    /// Replays the log at `path` into `writer`, tile by tile and block by block.
    /// - Throws: `tile.bad-work-file` for a damaged log; the writer's errors.
    static func replay(_ path: String, into writer: any TileArchiveWriter) throws {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) is missing: cut its partition first")
        }
        defer { try? input.close() }
        var pending = Data()
        func damaged() -> Diagnostic {
            Diagnostic(.error, code: .tileBadWorkFile, message: "\(path) ends inside a tile")
        }
        while true {
            let chunk = input.readData(ofLength: 1 << 20)
            pending += chunk
            var start = pending.startIndex
            while pending.endIndex - start >= 15 {
                let header = pending[start..<start + 15]
                let length = Int(header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 11, as: UInt32.self)) })
                guard pending.endIndex - start >= 15 + length else { break }
                let kind = header[header.startIndex], zoom = Int(header[header.startIndex + 1])
                let (x, y) = header.withUnsafeBytes {
                    (Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 2, as: UInt32.self))),
                     Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 6, as: UInt32.self))))
                }
                let blockZoom = Int(header[header.startIndex + 10])
                let tile = [UInt8](pending[start + 15..<start + 15 + length])
                let id = TileID(z: zoom, x: x, y: y)
                if kind == 1 {
                    try writer.writeBlock(TileBlock(root: id, zoom: blockZoom), tile)
                } else {
                    try writer.write(id, tile)
                }
                start += 15 + length
            }
            pending = Data(pending[start...])
            if chunk.isEmpty {
                guard pending.isEmpty else { throw damaged() }
                return
            }
        }
    }
}

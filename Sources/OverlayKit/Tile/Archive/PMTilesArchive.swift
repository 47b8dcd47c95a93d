#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// Writes a PMTiles v3 archive. Tiles arrive in any order from several threads: each is
/// gzipped and appended to a staging file (identical tiles, found by content hash and compared
/// byte for byte, are stored once). `finish` sorts by Hilbert id, merges consecutive identical
/// tiles into run-length entries, splits the directory into leaves when the root would pass
/// 16 KiB, and writes header, root, metadata, leaves and the tile data in id order (clustered)
/// to a temporary file renamed into place.
final class PMTilesWriter: TileArchiveWriter, @unchecked Sendable {
    let path: String
    private let output: AtomicOutput
    private let staging: (path: String, descriptor: Int32)
    private let lock = NSLock()
    private var stagedLength = 0
    /// Staged tiles: Hilbert id → (staging offset, gzip length).
    private var staged: [UInt64: (offset: Int, length: Int)] = [:]
    /// Content hash → staging offsets of distinct tiles with that hash.
    private var byHash: [UInt64: [(offset: Int, length: Int)]] = [:]
    /// Staged blocks of identical tiles: first Hilbert id, tile count, staging location.
    private var stagedBlocks: [(first: UInt64, count: UInt64, location: (offset: Int, length: Int))] = []
    /// Root directory size limit; tests lower it to force leaf directories.
    var rootLimit = PMTiles.rootLimit

    init(output: AtomicOutput) throws {
        self.output = output
        path = output.path
        staging = try output.temporaryFile()
    }

    deinit {
        POSIX.close(staging.descriptor)
        output.abort()
    }

    func write(_ id: TileID, _ tile: [UInt8]) throws {
        try write(id, tile, gzipped: Gzip.compress(tile))
    }

    func write(_ id: TileID, _ tile: [UInt8], gzipped compressed: [UInt8]) throws {
        let hilbert = PMTiles.tileID(id)
        let hash = Self.hash(tile)
        lock.lock()
        defer { lock.unlock() }
        guard staged[hilbert] == nil else {
            throw Diagnostic(.error, code: .tileDuplicateTile, message: "tile \(id) was written twice to \(path)")
        }
        staged[hilbert] = try stage(compressed, hash: hash)
    }

    /// A block is one run of Hilbert ids (the curve fills every aligned square in one go):
    /// stored once, whatever its size.
    var storesBlocksOnce: Bool { true }

    func writeBlock(_ block: TileBlock, _ tile: [UInt8]) throws {
        try writeBlock(block, tile, gzipped: Gzip.compress(tile))
    }

    func writeBlock(_ block: TileBlock, _ tile: [UInt8], gzipped compressed: [UInt8]) throws {
        let hash = Self.hash(tile)
        let depth = 2 * UInt64(block.zoom - block.root.z)
        let count = UInt64(1) << depth
        // The root's first descendant in curve order starts the run: any descendant's id with
        // the low 2·depth bits (its place inside the block) cleared, counted from the zoom's first id.
        let corner = TileID(z: block.zoom, x: block.root.x << (block.zoom - block.root.z), y: block.root.y << (block.zoom - block.root.z))
        let zoomStart = PMTiles.firstID(ofZoom: block.zoom)
        let first = zoomStart + (((PMTiles.tileID(corner) - zoomStart) >> depth) << depth)
        lock.lock()
        defer { lock.unlock() }
        stagedBlocks.append((first, count, try stage(compressed, hash: hash)))
    }

    /// Where `compressed` is in the staging file: a byte-equal tile staged before, or appended now.
    /// Call under the lock.
    private func stage(_ compressed: [UInt8], hash: UInt64) throws -> (offset: Int, length: Int) {
        for candidate in byHash[hash] ?? [] where candidate.length == compressed.count {
            if try ArchiveFiles.read(staging.descriptor, count: candidate.length, at: candidate.offset, path: staging.path) == compressed {
                return candidate
            }
        }
        try ArchiveFiles.writeAll(staging.descriptor, compressed, at: stagedLength, path: staging.path)
        let location = (offset: stagedLength, length: compressed.count)
        stagedLength += compressed.count
        byHash[hash, default: []].append(location)
        return location
    }

    /// FNV-1a over the uncompressed bytes (equal gzip output follows from equal input).
    private static func hash(_ bytes: [UInt8]) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return value ^ UInt64(bytes.count)
    }

    func finish(metadata: TileSetMetadata) throws {
        do {
            try writeArchive(metadata)
        } catch {
            output.abort()
            throw error
        }
    }

    private func writeArchive(_ metadata: TileSetMetadata) throws {
        lock.lock()
        var runs = staged.map { (first: $0.key, count: UInt64(1), location: $0.value) }
        runs += stagedBlocks
        lock.unlock()
        runs.sort { $0.first < $1.first }
        // Tile data in id order; a tile seen before keeps its first offset (clustered allows it).
        var entries = [PMTiles.Entry]()
        var placed = [Int: UInt64]()   // staging offset → data offset
        var order = [(offset: Int, length: Int)]()
        var dataLength: UInt64 = 0
        var addressed: UInt64 = 0
        for (first, count, location) in runs {
            let offset: UInt64
            if let known = placed[location.offset] {
                offset = known
            } else {
                offset = dataLength
                placed[location.offset] = offset
                order.append(location)
                dataLength += UInt64(location.length)
            }
            addressed += count
            var hilbert = first, remaining = count
            while remaining > 0 {
                if let last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == hilbert,
                   last.runLength < UInt32.max {
                    let added = min(remaining, UInt64(UInt32.max - last.runLength))
                    entries[entries.count - 1].runLength += UInt32(added)
                    hilbert += added
                    remaining -= added
                } else {
                    let taken = min(remaining, UInt64(UInt32.max))
                    entries.append(PMTiles.Entry(tileID: hilbert, offset: offset, length: UInt32(location.length),
                                                 runLength: UInt32(taken)))
                    hilbert += taken
                    remaining -= taken
                }
            }
        }
        let (root, leaves) = try Self.directories(entries, rootLimit: rootLimit)
        let metadataBytes = try Gzip.compress(metadata.pmtilesJSON())

        var header = PMTiles.Header()
        header.rootOffset = UInt64(PMTiles.headerLength)
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadataBytes.count)
        header.leafOffset = header.metadataOffset + header.metadataLength
        header.leafLength = UInt64(leaves.count)
        header.dataOffset = header.leafOffset + header.leafLength
        header.dataLength = dataLength
        header.addressedTiles = addressed
        header.tileEntries = UInt64(entries.count)
        header.tileContents = UInt64(order.count)
        header.tileType = metadata.format == "pbf" ? PMTiles.tileTypeMVT
            : metadata.format == "mlt" ? PMTiles.tileTypeMLT : PMTiles.tileTypeUnknown
        header.minZoom = UInt8(clamping: metadata.minZoom)
        header.maxZoom = UInt8(clamping: metadata.maxZoom)
        if let bounds = metadata.bounds {
            header.minLonE7 = PMTiles.e7(bounds.west)
            header.minLatE7 = PMTiles.e7(bounds.south)
            header.maxLonE7 = PMTiles.e7(bounds.east)
            header.maxLatE7 = PMTiles.e7(bounds.north)
        }
        if let center = metadata.center {
            header.centerZoom = UInt8(clamping: center.zoom)
            header.centerLonE7 = PMTiles.e7(center.longitude)
            header.centerLatE7 = PMTiles.e7(center.latitude)
        }

        let (finalPath, fd) = try output.temporaryFile()
        defer { POSIX.close(fd) }
        var position = 0
        for part in [header.encode(), root, metadataBytes, leaves] {
            try ArchiveFiles.writeAll(fd, part, at: position, path: finalPath)
            position += part.count
        }
        // Copy distinct tiles from staging in id order, in chunks of about 4 MiB.
        var chunk = [UInt8]()
        chunk.reserveCapacity(4 << 20)
        for location in order {
            chunk += try ArchiveFiles.read(staging.descriptor, count: location.length, at: location.offset, path: staging.path)
            if chunk.count >= 4 << 20 {
                try ArchiveFiles.writeAll(fd, chunk, at: position, path: finalPath)
                position += chunk.count
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try ArchiveFiles.writeAll(fd, chunk, at: position, path: finalPath)
        try ArchiveFiles.sync(fd, path: finalPath)
        try output.commit(finalPath)
    }

    /// The spec's directory layout: everything in the root when it fits `rootLimit` gzipped,
    /// otherwise leaves of `leafSize` entries (4096, grown by 20 % until the root fits).
    static func directories(_ entries: [PMTiles.Entry], rootLimit: Int) throws -> (root: [UInt8], leaves: [UInt8]) {
        let whole = try Gzip.compress(PMTiles.encodeDirectory(entries))
        if whole.count <= rootLimit { return (whole, []) }
        var leafSize = rootLimit < PMTiles.rootLimit ? max(2, rootLimit / 16) : 4096
        while true {
            var rootEntries = [PMTiles.Entry]()
            var leaves = [UInt8]()
            var start = 0
            while start < entries.count {
                let slice = Array(entries[start..<min(start + leafSize, entries.count)])
                let leaf = try Gzip.compress(PMTiles.encodeDirectory(slice))
                rootEntries.append(PMTiles.Entry(tileID: slice[0].tileID, offset: UInt64(leaves.count),
                                                 length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += leafSize
            }
            let root = try Gzip.compress(PMTiles.encodeDirectory(rootEntries))
            if root.count <= rootLimit || rootEntries.count == 1 { return (root, leaves) }
            leafSize += max(1, leafSize / 5)
        }
    }

    func abort() { output.abort() }
}

/// Reads a PMTiles v3 archive: header, root and leaf directories (at most three levels deep),
/// gzip or uncompressed directories and tiles. Bytes are read with `pread`, never mapped: a file
/// cut short or rewritten while it is open (a server's archive replaced in place) makes a read
/// fail with `tile.archive-truncated` instead of a SIGBUS.
final class PMTilesReader: TileArchiveReader {
    let path: String
    let metadata: TileSetMetadata
    let header: PMTiles.Header
    private let descriptor: Int32
    /// The file's size when it was opened: every offset is checked against it.
    private let size: UInt64
    private let rootEntries: [PMTiles.Entry]

    /// Directory entries beyond this (leaves expanded) are refused: 16,777,216 entries, 512 MB
    /// as `TileRun`s. Runs are not expanded here, so the tiles they address are not
    /// limited but by the Hilbert ids of zooms 0–26 (`maximumAddressedTiles`).
    static let maximumEntries = 1 << 24
    /// Every tile of zooms 0–26, the zooms `PMTiles.tile` reads: a run addressing more is damage.
    static let maximumAddressedTiles = Int(PMTiles.firstID(ofZoom: 27))
    /// The most tiles ``tileIDs()`` lists one by one (what still asks for every id): 16,777,216
    /// `TileID`s, 400 MB. `info`, `tile-join`, `diff` and profile checks read archives by their
    /// runs (``tileRuns()``), whatever the tiles those address.
    static let maximumListedTiles = 1 << 24

    init(path: String) throws {
        self.path = path
        switch POSIX.open(path, O_RDONLY | O_CLOEXEC) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(path): \(error)")
        }
        let info: stat
        switch POSIX.status(of: descriptor) {
        case .success(let status): info = status
        case .failure(let error):
            POSIX.close(descriptor)
            throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(path): \(error)")
        }
        size = UInt64(max(0, info.st_size))
        let descriptor = self.descriptor, size = self.size, source = path
        func bytes(_ offset: UInt64, _ length: UInt64, _ what: String) throws -> [UInt8] {
            try Self.read(descriptor, size: size, offset, length, what, path: source)
        }
        do {
            let header = try PMTiles.Header(try bytes(0, min(UInt64(PMTiles.headerLength), size), "header"), source: path)
            self.header = header
            for compression in [header.internalCompression, header.tileCompression]
            where compression != PMTiles.compressionGzip && compression != PMTiles.compressionNone {
                throw Diagnostic(.error, code: .tileArchivePmtiles,
                                 message: "\(path) uses compression \(compression); only gzip (2) and none (1) are read")
            }
            let internalGzip = header.internalCompression == PMTiles.compressionGzip
            func unpack(_ raw: [UInt8], _ what: String) throws -> [UInt8] {
                internalGzip ? try Gzip.decompress(raw, limit: PMTiles.maximumDirectoryBytes, source: "\(source) (\(what))") : raw
            }
            rootEntries = try PMTiles.decodeDirectory(
                unpack(bytes(header.rootOffset, header.rootLength, "root directory"), "root directory"), source: path)
            let json = try unpack(bytes(header.metadataOffset, header.metadataLength, "metadata"), "metadata")
            let bounds = TileSetMetadata.Bounds(west: Double(header.minLonE7) / 1e7, south: Double(header.minLatE7) / 1e7,
                                                east: Double(header.maxLonE7) / 1e7, north: Double(header.maxLatE7) / 1e7)
            let center = TileSetMetadata.Center(longitude: Double(header.centerLonE7) / 1e7, latitude: Double(header.centerLatE7) / 1e7,
                                                zoom: Int(header.centerZoom))
            var stored = try TileSetMetadata.fromPMTilesJSON(json, source: path, bounds: bounds, center: center,
                                                             minZoom: Int(header.minZoom), maxZoom: Int(header.maxZoom))
            // The header's tile type decides the encoding (other writers' JSON may not say it).
            if header.tileType == PMTiles.tileTypeMLT { stored.format = "mlt" }
            metadata = stored
        } catch {
            POSIX.close(descriptor)
            throw error
        }
    }

    deinit { POSIX.close(descriptor) }

    /// `length` bytes at `offset`, refused when they lie beyond the file's size at opening, and
    /// `tile.archive-truncated` when the file has been cut shorter since.
    private static func read(_ descriptor: Int32, size: UInt64, _ offset: UInt64, _ length: UInt64, _ what: String,
                             path: String) throws -> [UInt8] {
        guard offset <= size, length <= size - offset else {
            throw Diagnostic(.error, code: .tileArchivePmtiles,
                             message: "\(path): \(what) at \(offset)+\(length) lies beyond the file's \(size) bytes")
        }
        return try ArchiveFiles.read(descriptor, count: Int(length), at: Int(offset), path: path)
    }

    private func slice(_ offset: UInt64, _ length: UInt64, _ what: String) throws -> [UInt8] {
        try Self.read(descriptor, size: size, offset, length, what, path: path)
    }

    private func leaf(_ entry: PMTiles.Entry) throws -> [PMTiles.Entry] {
        guard entry.offset <= UInt64.max - header.leafOffset else {
            throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(path): leaf directory offset overflows")
        }
        var raw = try slice(header.leafOffset + entry.offset, UInt64(entry.length), "leaf directory")
        if header.internalCompression == PMTiles.compressionGzip {
            raw = try Gzip.decompress(raw, limit: PMTiles.maximumDirectoryBytes, source: "\(path) (leaf directory)")
        }
        return try PMTiles.decodeDirectory(raw, source: path)
    }

    /// Every tile entry as a run (leaves expanded), in tile id order: an entry starting inside an
    /// earlier one's run cuts that run short (a lookup of those ids finds the later entry), so
    /// runs never overlap. Runs are never expanded: a run of 2^28 tiles is one `TileRun`.
    /// - Throws: `tile.archive-too-large` past ``maximumEntries`` entries; `tile.archive-pmtiles`
    ///   for leaves nested deeper than 3 levels, entries out of tile id order, runs addressing
    ///   more than ``maximumAddressedTiles`` tiles or ids beyond zoom 26.
    func tileRuns() throws -> [TileRun] {
        var result = [TileRun]()
        var total = 0
        func walk(_ entries: [PMTiles.Entry], depth: Int) throws {
            for entry in entries {
                if entry.runLength == 0 {
                    guard depth < 3 else {
                        throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(path): leaf directories nest deeper than 3 levels")
                    }
                    try walk(leaf(entry), depth: depth + 1)
                    continue
                }
                total += Int(entry.runLength)
                guard total <= Self.maximumAddressedTiles else {
                    throw Diagnostic(.error, code: .tileArchivePmtiles,
                                     message: "\(path) addresses more than \(Self.maximumAddressedTiles) tiles, every tile of zooms 0–26")
                }
                guard result.count < Self.maximumEntries else {
                    throw Diagnostic(.error, code: .tileArchiveTooLarge,
                                     message: "\(path) has more than \(Self.maximumEntries) directory entries")
                }
                guard entry.tileID < TileRun.endOfIDs, UInt64(entry.runLength) <= TileRun.endOfIDs - entry.tileID else {
                    throw Diagnostic(.error, code: .tileArchivePmtiles,
                                     message: "\(path): the run of tile id \(entry.tileID) reaches beyond zoom 26")
                }
                if let last = result.last {
                    guard entry.tileID >= last.firstID else {
                        throw Diagnostic(.error, code: .tileArchivePmtiles,
                                         message: "\(path): tile id \(entry.tileID) follows \(last.firstID); directory entries must be in tile id order")
                    }
                    if last.endID > entry.tileID {
                        result[result.count - 1].count = entry.tileID - last.firstID
                        if result[result.count - 1].count == 0 { result.removeLast() }
                    }
                }
                result.append(TileRun(firstID: entry.tileID, count: UInt64(entry.runLength),
                                      content: TileRun.Content(offset: entry.offset, length: entry.length)))
            }
        }
        try walk(rootEntries, depth: 0)
        return result
    }

    func tileIDs() throws -> [TileID] {
        let runs = try tileRuns()
        // Counted before a single id is made: a run of 2^28 would otherwise be gigabytes of ids.
        let addressed = runs.reduce(0) { $0 + Int($1.count) }
        guard addressed <= Self.maximumListedTiles else {
            throw Diagnostic(.error, code: .tileArchiveTooLarge,
                             message: "\(path) addresses \(addressed) tiles; they are listed one by one up to \(Self.maximumListedTiles) (info, tile-join and diff read it by its runs)")
        }
        var ids = [TileID]()
        ids.reserveCapacity(addressed)
        for run in runs {
            for step in 0..<run.count {
                guard let id = PMTiles.tile(run.firstID + step) else {
                    throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(path): tile id \(run.firstID + step) is beyond zoom 26")
                }
                ids.append(id)
            }
        }
        return ids.sorted()
    }

    func tile(_ id: TileID) throws -> [UInt8]? {
        try storedTile(id)?.uncompressed(source: "\(path) (tile \(id))")
    }

    var contentType: TileContentType { TileContentType(pmtilesType: header.tileType, format: metadata.format) }

    /// The bytes a run points at, without a directory lookup (`info` and `tile-join` read each
    /// run once this way: looking each up again inflated its leaf directory once per run).
    func storedTile(of run: TileRun) throws -> StoredTile? {
        try storedTile(at: run.content, id: run.firstID)
    }

    private func storedTile(at content: TileRun.Content, id: UInt64) throws -> StoredTile {
        guard content.offset <= UInt64.max - header.dataOffset else {
            throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(path): tile offset overflows")
        }
        let raw = try slice(header.dataOffset + content.offset, UInt64(content.length), "tile id \(id)")
        return StoredTile(bytes: raw, compression: header.tileCompression == PMTiles.compressionGzip ? .gzip : .none)
    }

    func storedTile(_ id: TileID) throws -> StoredTile? {
        let wanted = PMTiles.tileID(id)
        var entries = rootEntries
        for _ in 0...3 {
            // The last entry whose id is at or before the wanted one.
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].tileID <= wanted { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            let entry = entries[low - 1]
            if entry.runLength == 0 {
                entries = try leaf(entry)
                continue
            }
            guard wanted - entry.tileID < UInt64(entry.runLength) else { return nil }
            return try storedTile(at: TileRun.Content(offset: entry.offset, length: entry.length), id: entry.tileID)
        }
        throw Diagnostic(.error, code: .tileArchivePmtiles, message: "\(path): leaf directories nest deeper than 3 levels")
    }
}

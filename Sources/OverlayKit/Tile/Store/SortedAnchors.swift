import OverlayModel

/// The features' anchors in Z-order, from files of unsorted 16-byte anchors (`DiskFeatureStore.Part`),
/// with memory bounded whatever their number (an external merge sort): chunks of at most
/// ``runEntries`` anchors are sorted in memory and written as sorted runs, which every pass
/// then merges. A pass hands the anchors over in the order `SpatialOrder` gives in memory (key,
/// then input position), so thinning and zoom guesses come out the same.
final class SortedAnchors: @unchecked Sendable {
    /// One anchor: its Z-order key, the feature's input position, and whether all its parts are points.
    struct Entry {
        var key: UInt64
        var source: Int
        var pointsOnly: Bool
    }

    /// Anchors sorted in memory at once: 2 Mi (32 MiB, and up to half that again while sorted).
    static let runEntries = 1 << 21

    /// The sorted runs (each a file of (key, marked source) pairs), or the one run in memory.
    private var runs = [RecordFile]()
    private var inMemory: [(UInt64, UInt64)]?
    /// Anchors in all.
    private(set) var count = 0

    /// Sorts the anchors of `files` (each with the offset of its input positions) into runs in
    /// `folder`; chunks of `runEntries` (tests make them small).
    /// - Throws: `io.*` when the files cannot be read or written.
    init(_ files: [(file: RecordFile, sourceOffset: Int)], folder: String, usage: RecordFileUsage,
         runEntries: Int = SortedAnchors.runEntries) throws {
        var chunk = [(UInt64, UInt64)]()
        chunk.reserveCapacity(min(runEntries, files.reduce(0) { $0 + $1.file.size / 16 }))
        func flush() throws {
            guard !chunk.isEmpty else { return }
            chunk.sort { $0.0 != $1.0 ? $0.0 < $1.0 : ($0.1 & Self.positionMask) < ($1.1 & Self.positionMask) }
            let run = try RecordFile(in: folder, usage: usage)
            // Written a slice at a time: the chunk is not copied whole.
            let sliceBytes = 1 << 20
            var bytes = [UInt8]()
            bytes.reserveCapacity(sliceBytes)
            for (key, source) in chunk {
                withUnsafeBytes(of: key.littleEndian) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: source.littleEndian) { bytes.append(contentsOf: $0) }
                if bytes.count >= sliceBytes {
                    try run.append(bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
            try run.append(bytes)
            try run.flush()
            runs.append(run)
            chunk.removeAll(keepingCapacity: true)
        }
        for (file, offset) in files {
            try file.flush()
            var at = 0
            while at < file.size {
                let bytes = try file.read(at: at, count: min(1 << 20, file.size - at))
                guard bytes.count % 16 == 0, !bytes.isEmpty else { throw Self.damaged(folder) }
                bytes.withUnsafeBytes { raw in
                    for index in stride(from: 0, to: raw.count, by: 16) {
                        let key = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        let marked = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
                        chunk.append((key, ((marked & Self.positionMask) + UInt64(offset)) | (marked & ~Self.positionMask)))
                    }
                }
                count += bytes.count / 16
                at += bytes.count
                if chunk.count >= runEntries { try flush() }
            }
        }
        if runs.isEmpty {
            chunk.sort { $0.0 != $1.0 ? $0.0 < $1.0 : ($0.1 & Self.positionMask) < ($1.1 & Self.positionMask) }
            inMemory = chunk
        } else {
            try flush()
        }
    }

    private static let positionMask: UInt64 = ~(1 << 63)

    private static func damaged(_ folder: String) -> Diagnostic {
        Diagnostic(.error, code: .ioReadFailed, message: "a temporary file in \(folder) ends inside an anchor")
    }

    /// Calls `body` with every anchor in order (a merge of the sorted runs); may be called again.
    func forEach(_ body: (Entry) throws -> Void) throws {
        func entry(_ key: UInt64, _ marked: UInt64) -> Entry {
            Entry(key: key, source: Int(marked & Self.positionMask), pointsOnly: marked & ~Self.positionMask == 0)
        }
        if let inMemory {
            for (key, marked) in inMemory { try body(entry(key, marked)) }
            return
        }
        var readers = try runs.map { try RunReader($0) }
        // A small heap would save comparisons; with a handful of runs a scan is as quick.
        var heads = try readers.indices.map { try readers[$0].next() }
        while true {
            var best: Int?
            for index in heads.indices {
                guard let head = heads[index] else { continue }
                if let current = best, let other = heads[current] {
                    let earlier = head.0 != other.0 ? head.0 < other.0
                        : (head.1 & Self.positionMask) < (other.1 & Self.positionMask)
                    if earlier { best = index }
                } else {
                    best = index
                }
            }
            guard let index = best, let (key, marked) = heads[index] else { return }
            try body(entry(key, marked))
            heads[index] = try readers[index].next()
        }
    }

    /// Reads one sorted run's pairs through a buffer.
    private struct RunReader {
        let file: RecordFile
        private var buffer = [UInt8]()
        private var position = 0
        private var offset = 0

        init(_ file: RecordFile) throws {
            self.file = file
        }

        mutating func next() throws -> (UInt64, UInt64)? {
            if position + 16 > buffer.count {
                guard offset < file.size else { return nil }
                buffer = try file.read(at: offset, count: min(1 << 20, file.size - offset))
                offset += buffer.count
                position = 0
                guard buffer.count >= 16 else { return nil }
            }
            defer { position += 16 }
            return buffer.withUnsafeBytes {
                (UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: UInt64.self)),
                 UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self)))
            }
        }
    }
}

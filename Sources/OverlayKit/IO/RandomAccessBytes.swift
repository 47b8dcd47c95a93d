#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import OverlayModel

/// Bytes read at any offset: a file (through `pread`), or memory. For formats whose directory
/// is at the end, like zip.
final class RandomAccessBytes {
    private enum Storage {
        case descriptor(Int32)
        case temporary(TemporaryFile)
        case memory([UInt8])
    }

    private let storage: Storage
    /// The name diagnostics use.
    let name: String
    /// The total number of bytes.
    let size: Int64

    /// Opens the file behind `input`, or, for standard input, copies it to an unnamed
    /// temporary file first; an input in memory is used as it is.
    init(_ input: ByteInput) throws {
        name = input.name ?? "<stdin>"
        if let bytes = input.unreadMemory {
            storage = .memory(bytes)
            size = Int64(bytes.count)
        } else if let path = input.name {
            let fd: Int32
            switch POSIX.open(path, O_RDONLY) {
            case .success(let opened): fd = opened
            case .failure(let error):
                throw Diagnostic(.error, code: .ioOpenFailed, message: "cannot open \(path): \(error)")
            }
            let info: stat
            switch POSIX.status(of: fd) {
            case .success(let status): info = status
            case .failure(let error):
                POSIX.close(fd)
                throw Diagnostic(.error, code: .ioReadFailed, message: "cannot read \(path): \(error)")
            }
            storage = .descriptor(fd)
            size = Int64(info.st_size)
        } else {
            let copy = try TemporaryFile()
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try input.read(into: $0) }
                if count == 0 { break }
                try chunk.withUnsafeBytes { try copy.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            storage = .temporary(copy)
            size = Int64(copy.size)
        }
    }

    /// True when the bytes were given in memory.
    var isInMemory: Bool {
        if case .memory = storage { true } else { false }
    }

    deinit {
        if case .descriptor(let fd) = storage { POSIX.close(fd) }
    }

    /// Up to `count` bytes from `offset`: fewer at the end, none past it.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        let count = Int(min(Int64(count), size - offset))
        switch storage {
        case .memory(let bytes):
            return Array(bytes[Int(offset)..<Int(offset) + count])
        case .temporary(let file):
            return try file.read(at: Int(offset), count: count)
        case .descriptor(let fd):
            return try readFully(fd, at: offset, count: count, what: name)
        }
    }
}

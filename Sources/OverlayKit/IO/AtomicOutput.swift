#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OverlayModel

/// The one way OverlayKit puts an output in place, for every command and every kind of output
/// (a feature file, an image, a PMTiles or MBTiles archive, a tile directory).
///
/// The policy:
/// - An existing output is refused (`io.output-exists`) unless `replaceExisting` (the CLI's
///   `--force`/`-f`); an empty directory does not count as an output for a tile directory.
/// - A symbolic link is followed: the file or directory it names is replaced, the link stays
///   (as `cp` does); a dangling link creates the file it names.
/// - A FIFO, a device or a socket (`-o /dev/null`, `-o >(gzip)`) is opened and written in place
///   for a stream; renaming over it would replace the device with a regular file. Archives need
///   a regular file or a directory.
/// - The folder that is to hold the output must exist (`io.create-failed`); none is created.
/// - The output is built beside its target and renamed over it when complete, so a failed or
///   killed run leaves the old output or none, never a partial one. A stream uses an unnamed
///   file (Linux `O_TMPFILE`) that no kill can strand; archives use `TARGET.tmp-XXXXXX` under a
///   `TARGET.lock` (`flock`, released by the kernel even on SIGKILL), so a second run on the same
///   target fails at once (`io.output-locked`) and the next run removes what a killed one left.
/// - Temporaries are registered with `InterruptCleanup`, which removes them on SIGINT, SIGTERM
///   and SIGHUP once a program installs it.
/// - An existing file keeps its permission bits; new files are 0644, new directories 0755.
final class AtomicOutput: @unchecked Sendable {
    /// What is written at the target.
    enum Kind {
        /// One stream of bytes (feature files, images).
        case stream
        /// A tile archive: a file (PMTiles, MBTiles) or a directory, built under a lock.
        case archive
    }

    /// The output path as given (trailing slashes removed).
    let path: String
    /// Where the result goes: `path`, or what a symbolic link at `path` names.
    let target: String
    /// True when the target is a FIFO, a device or a socket, written in place.
    let writesInPlace: Bool
    private let kind: Kind
    private let mode: mode_t
    private var lockDescriptor: Int32 = -1
    private var lockToken: Int?
    private let lock = NSLock()
    private var temporaries: [(path: String, token: Int)] = []
    private var finished = false

    /// Checks the target against the policy and, for an archive, takes its lock.
    /// - Throws: `Diagnostic` `io.output-exists`, `io.output-locked` or `io.create-failed`.
    init(path: String, kind: Kind, replaceExisting: Bool) throws {
        let checked = try Self.check(path: path, kind: kind, replaceExisting: replaceExisting)
        self.path = checked.path
        self.kind = kind
        target = checked.target
        mode = checked.mode
        writesInPlace = checked.writesInPlace
        guard kind == .archive else { return }
        try takeLock()
        // Again under the lock: another run may have finished meanwhile.
        if !replaceExisting && Self.holdsOutput(target) {
            release()
            throw Self.exists(checked.path)
        }
    }

    /// What the policy says of `path` before anything is created: the checks of `init`
    /// without its lock, for commands that should fail before a long read.
    /// - Throws: `Diagnostic` `io.output-exists` or `io.create-failed`.
    static func check(path: String, kind: Kind, replaceExisting: Bool) throws
        -> (path: String, target: String, mode: mode_t, writesInPlace: Bool) {
        let name = PathName(path)
        guard !name.path.isEmpty else {
            throw Diagnostic(.error, code: .ioCreateFailed, message: "the output path is empty")
        }
        let target = resolveLink(name.path)
        var mode: mode_t = 0o644
        var writesInPlace = false
        if let existing = POSIX.status(target) {
            let type = POSIX.type(existing)
            switch (type, kind) {
            case (S_IFREG, _):
                mode = existing.st_mode & 0o7777
            case (S_IFDIR, .stream):
                throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot write \(name.path): it is a directory")
            case (S_IFDIR, .archive):
                break
            case (_, .stream):
                writesInPlace = true
            case (_, .archive):
                throw Diagnostic(.error, code: .ioCreateFailed,
                                 message: "cannot write a tile set to \(name.path): it is neither a regular file nor a directory")
            }
        } else {
            let folder = PathName(target).directory
            guard let info = POSIX.status(folder), POSIX.type(info) == S_IFDIR else {
                throw Diagnostic(.error, code: .ioCreateFailed,
                                 message: "cannot create \(name.path): the folder \(folder) does not exist")
            }
        }
        if !writesInPlace && !replaceExisting && holdsOutput(target) { throw exists(name.path) }
        return (name.path, target, mode, writesInPlace)
    }

    private static func exists(_ path: String) -> Diagnostic {
        Diagnostic(.error, code: .ioOutputExists, message: "\(path) exists; use --force (-f) to replace it")
    }

    deinit { abort() }

    /// The path a symbolic link names (resolved fully when it exists; a dangling link's
    /// destination, relative to the link's folder); any other path unchanged.
    private static func resolveLink(_ path: String) -> String {
        guard let info = POSIX.linkStatus(path), POSIX.type(info) == S_IFLNK else { return path }
        if let resolved = POSIX.resolvedPath(path) { return resolved }
        guard let destination = POSIX.linkDestination(path) else { return path }
        return destination.hasPrefix("/") ? destination : PathName(PathName(path).directory).appending(destination)
    }

    /// Whether something at `path` would be replaced: a file, or a directory with entries.
    private static func holdsOutput(_ path: String) -> Bool {
        guard let info = POSIX.status(path) else { return false }
        guard POSIX.type(info) == S_IFDIR else { return true }
        return !((try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false)
    }

    private func takeLock() throws {
        let lockPath = target + ".lock"
        let descriptor: Int32
        switch POSIX.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC) {
        case .success(let opened): descriptor = opened
        case .failure(let error):
            throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot create \(lockPath): \(error)")
        }
        guard case .success = POSIX.lockExclusivelyWithoutWaiting(descriptor) else {
            POSIX.close(descriptor)
            throw Diagnostic(.error, code: .ioOutputLocked,
                             message: "\(path) is being written by another run (it holds \(lockPath))")
        }
        lockDescriptor = descriptor
        lockToken = InterruptCleanup.register(lockPath)
        removeLeftovers()
    }

    /// Temporary siblings of killed runs: only a run holding the lock may have made them.
    private func removeLeftovers() {
        let name = PathName(target)
        let prefix = name.lastComponent + ".tmp-"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: name.directory)) ?? [] where entry.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: PathName(name.directory).appending(entry))
        }
    }

    private func release() {
        guard lockDescriptor >= 0 else { return }
        POSIX.unlink(target + ".lock")
        POSIX.close(lockDescriptor)
        lockDescriptor = -1
        InterruptCleanup.unregister(lockToken)
        lockToken = nil
    }

    // MARK: Streams

    /// A descriptor to write the stream to: the target itself when it is written in place,
    /// otherwise an unnamed file beside it (or a named temporary file where the file system has
    /// no unnamed files). Pass it to `commit(descriptor:)`.
    func openStream() throws -> Int32 {
        if writesInPlace {
            switch POSIX.open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: mode) {
            case .success(let descriptor): return descriptor
            case .failure(let error):
                throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot open \(path): \(error)")
            }
        }
        #if os(Linux)
        // O_TMPFILE is a compound macro Swift does not import: __O_TMPFILE | O_DIRECTORY.
        let unnamed: Int32 = 0o20_000_000 | O_DIRECTORY
        if case .success(let descriptor) = POSIX.open(PathName(target).directory, unnamed | O_WRONLY | O_CLOEXEC, mode: mode) {
            POSIX.setMode(descriptor, mode)
            return descriptor
        }
        #endif
        return try temporaryFile().descriptor
    }

    /// Closes the stream's descriptor and puts the file in place (nothing to move when written in place).
    /// - Throws: `Diagnostic` `io.write-failed` (a late write error reported by `close`, or the
    ///   rename); the temporary file is removed and the old output kept.
    func commit(descriptor: Int32) throws {
        defer { abort() }
        if writesInPlace {
            if case .failure(let error) = POSIX.close(descriptor) {
                throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot write \(path): \(error)")
            }
            return
        }
        let named: String
        if let last = lastTemporary() {
            named = last
        } else {
            // The unnamed file: named for the instant before the rename (`linkat` cannot replace a file).
            named = try nameUnnamedFile(descriptor)
        }
        if case .failure(let error) = POSIX.close(descriptor) {
            throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot write \(path): \(error)")
        }
        try commit(named)
    }

    private func lastTemporary() -> String? {
        lock.lock()
        defer { lock.unlock() }
        return temporaries.last?.path
    }

    private func nameUnnamedFile(_ descriptor: Int32) throws -> String {
        var reason = POSIX.Errno.fileExists
        for _ in 0..<100 {
            let name = target + ".tmp-" + String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
            switch POSIX.link("/proc/self/fd/\(descriptor)", to: name) {
            case .success:
                remember(name)
                return name
            case .failure(let error):
                reason = error
            }
            if reason != .fileExists { break }
        }
        POSIX.close(descriptor)
        throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot move output into place at \(path): \(reason)")
    }

    // MARK: Named temporaries

    /// A new temporary file beside the target (removed by `abort`), with the target's mode.
    func temporaryFile() throws -> (path: String, descriptor: Int32) {
        let made: String, descriptor: Int32
        switch POSIX.makeTemporaryFile(target + ".tmp-XXXXXX") {
        case .success(let file): (made, descriptor) = file
        case .failure(let error):
            throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot create \(path): \(error)")
        }
        POSIX.setMode(descriptor, mode)
        remember(made)
        return (made, descriptor)
    }

    /// A new temporary directory beside the target (removed by `abort`).
    func temporaryDirectory() throws -> String {
        let made: String
        switch POSIX.makeTemporaryDirectory(target + ".tmp-XXXXXX") {
        case .success(let folder): made = folder
        case .failure(let error):
            throw Diagnostic(.error, code: .ioCreateFailed, message: "cannot create a folder beside \(path): \(error)")
        }
        POSIX.setMode(made, 0o755)
        remember(made, isDirectory: true)
        return made
    }

    private func remember(_ temporary: String, isDirectory: Bool = false) {
        let token = InterruptCleanup.register(temporary, isDirectory: isDirectory)
        lock.lock()
        temporaries.append((temporary, token))
        lock.unlock()
    }

    /// Moves a finished temporary file or directory over the target, then removes every other
    /// temporary and releases the lock.
    /// - Throws: `Diagnostic` `io.write-failed`; the temporaries are removed and the old output kept.
    func commit(_ temporary: String) throws {
        defer { abort() }
        var aside: String?
        if let existing = POSIX.linkStatus(target), POSIX.type(existing) == S_IFDIR {
            // rename(2) cannot replace a non-empty directory: move the old one aside first (into
            // an empty temporary directory, which rename may replace).
            aside = try temporaryDirectory()
        }
        let moved: POSIX.Errno? = InterruptCleanup.withCleanupHeld {
            if let aside, case .failure(let error) = POSIX.rename(target, to: aside) { return error }
            if case .failure(let error) = POSIX.rename(temporary, to: target) {
                if let aside { POSIX.rename(aside, to: target) }
                return error
            }
            return nil
        }
        if let moved {
            throw Diagnostic(.error, code: .ioWriteFailed, message: "cannot move the output into place at \(path): \(moved)")
        }
        lock.lock()
        if let index = temporaries.firstIndex(where: { $0.path == temporary }) {
            InterruptCleanup.unregister(temporaries[index].token)
            temporaries.remove(at: index)
        }
        lock.unlock()
    }

    /// Removes every temporary file and directory and releases the lock; the old output (if
    /// any) is untouched. Safe to call more than once.
    func abort() {
        lock.lock()
        let leftovers = temporaries
        temporaries = []
        let wasFinished = finished
        finished = true
        lock.unlock()
        for leftover in leftovers {
            try? FileManager.default.removeItem(atPath: leftover.path)
            InterruptCleanup.unregister(leftover.token)
        }
        if !wasFinished { release() }
    }
}

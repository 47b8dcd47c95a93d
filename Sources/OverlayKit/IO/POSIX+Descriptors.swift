#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls on open descriptors: closing, status, flushing, shortening, locking, duplicating.
extension POSIX {
    /// Closes `descriptor`. Never retried: on Linux the descriptor is gone even when `close`
    /// reports `EINTR`, and a retry could close one another thread has just opened.
    /// - Parameter descriptor: the descriptor to close.
    /// - Returns: the failure `close` reports (a late write error on some file systems).
    @discardableResult
    package static func close(_ descriptor: Int32) -> Result<Void, Errno> {
        valueOrErrno(retryOnInterrupt: false) { systemClose(descriptor) }.map { _ in }
    }

    /// The status of the open file (`fstat`): what was opened, not what a path names now.
    /// - Parameter descriptor: an open descriptor.
    static func status(of descriptor: Int32) -> Result<stat, Errno> {
        var info = stat()
        return valueOrErrno { fstat(descriptor, &info) }.map { _ in info }
    }

    /// Flushes the file's bytes to disk (`fsync`), so a rename after it never exposes unwritten data.
    /// - Parameter descriptor: a descriptor open for writing.
    static func sync(_ descriptor: Int32) -> Result<Void, Errno> {
        valueOrErrno { fsync(descriptor) }.map { _ in }
    }

    /// Flushes the whole file system holding `descriptor` (Linux `syncfs`, looked up at run time
    /// as Swift's Glibc module does not export it; elsewhere `sync`): one flush for a folder of
    /// many files rather than one per file. Failures are not reported, as `sync`'s are not.
    /// - Parameter descriptor: any descriptor open on that file system.
    static func syncFileSystem(of descriptor: Int32) {
        #if os(Linux)
        typealias SyncFS = @convention(c) (Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
            _ = unsafeBitCast(symbol, to: SyncFS.self)(descriptor)
            return
        }
        #endif
        #if canImport(Glibc)
        Glibc.sync()
        #else
        Darwin.sync()
        #endif
    }

    /// Cuts the file to its first `length` bytes (`ftruncate`).
    /// - Parameters:
    ///   - descriptor: a descriptor open for writing.
    ///   - length: the bytes to keep.
    static func truncate(_ descriptor: Int32, to length: Int) -> Result<Void, Errno> {
        valueOrErrno { ftruncate(descriptor, off_t(length)) }.map { _ in }
    }

    /// Takes the file's exclusive lock without waiting (`flock` with `LOCK_EX | LOCK_NB`); the
    /// kernel releases it when the descriptor closes, even on SIGKILL.
    /// - Parameter descriptor: the open lock file.
    /// - Returns: `EWOULDBLOCK` when another descriptor holds the lock.
    static func lockExclusivelyWithoutWaiting(_ descriptor: Int32) -> Result<Void, Errno> {
        valueOrErrno { flock(descriptor, LOCK_EX | LOCK_NB) }.map { _ in }
    }

    /// Sets the permission bits of the open file (`fchmod`).
    /// - Parameters:
    ///   - descriptor: the open file.
    ///   - mode: the permission bits, e.g. 0o644.
    @discardableResult
    static func setMode(_ descriptor: Int32, _ mode: mode_t) -> Result<Void, Errno> {
        valueOrErrno { fchmod(descriptor, mode) }.map { _ in }
    }

    /// A second descriptor for the same open file (`dup`), sharing its position.
    /// - Parameter descriptor: the open file.
    static func duplicate(_ descriptor: Int32) -> Result<Int32, Errno> {
        valueOrErrno { dup(descriptor) }
    }

    /// Whether `descriptor` is a terminal (`isatty`).
    /// - Parameter descriptor: e.g. `STDIN_FILENO`.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }
}

@inline(__always)
private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}

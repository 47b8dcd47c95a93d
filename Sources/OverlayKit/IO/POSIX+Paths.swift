#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls on names: opening and creating beneath a folder's descriptor, temporaries, removing,
/// renaming, linking, permissions, links, free space.
extension POSIX {
    /// Opens `relative` beneath the folder open as `folder` (`openat`); interrupted opens are retried.
    /// - Parameters:
    ///   - relative: the path, relative to the folder.
    ///   - folder: the folder's open descriptor.
    ///   - flags: `open`'s flags, e.g. `O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC`.
    ///   - mode: the permission bits of a file it creates.
    static func open(_ relative: String, beneath folder: Int32, _ flags: Int32, mode: mode_t = 0o644) -> Result<Int32, Errno> {
        valueOrErrno { openat(folder, relative, flags, mode) }
    }

    /// Creates the folder `relative` beneath the folder open as `folder` (`mkdirat`).
    /// - Parameters:
    ///   - relative: the new folder's path, relative to `folder`.
    ///   - folder: the folder's open descriptor.
    ///   - mode: the new folder's permission bits.
    /// - Returns: `Errno.fileExists` when something has that name already.
    static func makeDirectory(_ relative: String, beneath folder: Int32, mode: mode_t = 0o755) -> Result<Void, Errno> {
        valueOrErrno { mkdirat(folder, relative, mode) }.map { _ in }
    }

    /// Creates and opens a new file named after `template` (`mkstemps`: its six `X`s before
    /// `suffix` replaced by a unique name). Not retried on `EINTR`: the template would no
    /// longer end in `X`s.
    /// - Parameters:
    ///   - template: a path whose last component has `XXXXXX` just before `suffix`.
    ///   - suffix: the end of the name kept as given, e.g. ".kml" (none by default).
    /// - Returns: the new file's path and its descriptor (open for reading and writing, mode 0600).
    static func makeTemporaryFile(_ template: String, suffix: String = "") -> Result<(path: String, descriptor: Int32), Errno> {
        var name = Array((template + suffix).utf8CString)
        let descriptor = name.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard descriptor >= 0 else { return .failure(.current) }
        return .success((name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, descriptor))
    }

    /// Creates and opens a file in `folder` that has no name, so that it disappears with the
    /// process however that ends (SIGKILL included): `O_TMPFILE` on Linux. Where the file system
    /// or the system has no `O_TMPFILE`, a `mkstemp` file named `prefix`XXXXXX is unlinked at once
    /// (a kill between the two calls would leave that name behind).
    /// - Parameters:
    ///   - folder: the folder whose file system holds the bytes.
    ///   - prefix: the start of the fallback's name, e.g. "overlaykit-".
    /// - Returns: the descriptor, open for reading and writing (mode 0600).
    static func makeAnonymousFile(in folder: String, prefix: String) -> Result<Int32, Errno> {
        #if os(Linux)
        // Glibc's O_TMPFILE is a macro expression Swift does not import: __O_TMPFILE | O_DIRECTORY,
        // with __O_TMPFILE 020000000 on every architecture Swift runs on (not alpha, parisc, sparc).
        let unnamedFile: Int32 = 0o20000000 | O_DIRECTORY
        switch Self.open(folder, unnamedFile | O_RDWR | O_CLOEXEC, mode: 0o600) {
        case .success(let descriptor): return .success(descriptor)
        // EOPNOTSUPP/EISDIR/EINVAL: this file system (or kernel) has no unnamed files.
        case .failure(let error) where ![EOPNOTSUPP, EISDIR, EINVAL].contains(error.rawValue): return .failure(error)
        case .failure: break
        }
        #endif
        return makeTemporaryFile((folder.hasSuffix("/") ? folder : folder + "/") + prefix + "XXXXXX").map { file in
            unlink(file.path)
            return file.descriptor
        }
    }

    /// Creates a new folder named after `template` (`mkdtemp`: its trailing `XXXXXX` replaced
    /// by a unique name), mode 0700.
    /// - Parameter template: a path ending in `XXXXXX`.
    /// - Returns: the new folder's path.
    static func makeTemporaryDirectory(_ template: String) -> Result<String, Errno> {
        var name = Array(template.utf8CString)
        guard name.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return .failure(.current) }
        return .success(name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// Removes the name `path` (`unlink`); the file lives on while a descriptor holds it open.
    /// - Parameter path: the file's path.
    @discardableResult
    static func unlink(_ path: String) -> Result<Void, Errno> {
        valueOrErrno { systemUnlink(path) }.map { _ in }
    }

    /// Renames `source` to `destination` (`rename`), replacing a file or an empty folder there
    /// in one step.
    /// - Parameters:
    ///   - source: the current path.
    ///   - destination: the new path.
    @discardableResult
    static func rename(_ source: String, to destination: String) -> Result<Void, Errno> {
        valueOrErrno { systemRename(source, destination) }.map { _ in }
    }

    /// Gives the file `source` names a second name, `destination` (`linkat`, following a
    /// symbolic link at `source`: `/proc/self/fd/N` names an unnamed file that way).
    /// - Parameters:
    ///   - source: the existing path.
    ///   - destination: the new name; never replaces one (`Errno.fileExists`).
    static func link(_ source: String, to destination: String) -> Result<Void, Errno> {
        valueOrErrno { linkat(AT_FDCWD, source, AT_FDCWD, destination, AT_SYMLINK_FOLLOW) }.map { _ in }
    }

    /// Sets the permission bits of the file or folder at `path` (`chmod`).
    /// - Parameters:
    ///   - path: the file or folder.
    ///   - mode: the permission bits, e.g. 0o755.
    @discardableResult
    static func setMode(_ path: String, _ mode: mode_t) -> Result<Void, Errno> {
        valueOrErrno { chmod(path, mode) }.map { _ in }
    }

    /// Whether this process may use `path` as `mode` asks (`access`, e.g. `R_OK`).
    /// - Parameters:
    ///   - path: the file.
    ///   - mode: `R_OK`, `W_OK`, `X_OK` or `F_OK`, or several of them.
    /// - Returns: the reason when it may not.
    static func checkAccess(_ path: String, _ mode: Int32) -> Result<Void, Errno> {
        valueOrErrno { access(path, mode) }.map { _ in }
    }

    /// `path` with every symbolic link and `.`/`..` resolved (`realpath`); nil when a
    /// component does not exist (a dangling link).
    /// - Parameter path: the path.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What the symbolic link at `path` contains (`readlink`), as written; nil when `path` is
    /// not a link or is empty.
    /// - Parameter path: the link.
    static func linkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes an unprivileged process may still write on the file system holding `path`
    /// (`statvfs`: available blocks × fragment size, `Int.max` when that overflows).
    /// - Parameter path: any path on that file system.
    static func availableBytes(onFileSystemOf path: String) -> Result<Int, Errno> {
        var info = statvfs()
        return valueOrErrno { statvfs(path, &info) }.map { _ in
            let (bytes, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
            return overflow ? Int.max : Int(clamping: bytes)
        }
    }
}

@inline(__always)
private func systemUnlink(_ path: String) -> Int32 {
    #if canImport(Glibc)
    Glibc.unlink(path)
    #else
    Darwin.unlink(path)
    #endif
}

@inline(__always)
private func systemRename(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Glibc)
    Glibc.rename(source, destination)
    #else
    Darwin.rename(source, destination)
    #endif
}

@testable import OverlayKit
import Foundation
import TestSupport
import XCTest

/// The library side of the output policy: path names without Foundation's path methods, one
/// overwrite rule for streams and tile sets, and no signal handling unless a program asks.
final class AtomicOutputTests: XCTestCase {
    func testPathNamesOfOneCharacterAndOtherShapes() {
        XCTAssertEqual(PathName("w").directory, ".")
        XCTAssertEqual(PathName("w").lastComponent, "w")
        XCTAssertEqual(PathName("-").stem, "-")
        XCTAssertEqual(PathName("/x").directory, "/")
        XCTAssertEqual(PathName("/x").lastComponent, "x")
        XCTAssertEqual(PathName("a/b.pmtiles").directory, "a")
        XCTAssertEqual(PathName("a/b.pmtiles").stem, "b")
        XCTAssertEqual(PathName("out/").lastComponent, "out")
        XCTAssertEqual(PathName("a.b/c").stem, "c")
        XCTAssertEqual(PathName(".hidden").stem, ".hidden")
        XCTAssertEqual(PathName("/").directory, "/")
        XCTAssertEqual(PathName("a").appending("b"), "a/b")
    }

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("overlaykit-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    func testExistingFileIsRefusedUnlessReplacing() throws {
        let target = try folder().appendingPathComponent("out.geojson")
        try Data("old".utf8).write(to: target)
        XCTAssertThrowsError(try ByteOutput(path: target.path)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "io.output-exists")
        }
        let output = try ByteOutput(path: target.path, replaceExisting: true)
        try output.write("new")
        try output.commit()
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "new")
    }

    func testTileSetFollowsTheSameRule() throws {
        let base = try folder()
        let target = base.appendingPathComponent("t.pmtiles")
        try Data("old".utf8).write(to: target)
        XCTAssertThrowsError(try TileArchive.create(target.path)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "io.output-exists")
        }
        XCTAssertThrowsError(try TileArchive.create(base.appendingPathComponent("none/t.pmtiles").path)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "io.create-failed")
        }
        XCTAssertThrowsError(try ByteOutput(path: base.appendingPathComponent("none/t.geojson").path)) { error in
            XCTAssertEqual((error as? Diagnostic)?.code.rawValue, "io.create-failed")
        }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: base.path)), ["t.pmtiles"])
    }

    /// Named temporaries (tile sets, KMZ work files) used to install SIGINT/SIGTERM/SIGHUP
    /// handlers behind the program's back; now only `InterruptCleanup.install()` touches signals.
    func testTheLibraryInstallsNoSignalHandling() throws {
        let target = try folder().appendingPathComponent("t.pmtiles")
        let writer = try TileArchive.create(target.path)
        let scratch = try TemporaryFile(keepPath: true)
        for number in InterruptCleanup.signals {
            var action = sigaction()
            XCTAssertEqual(sigaction(number, nil, &action), 0)
            #if canImport(Glibc)
            let handler = action.__sigaction_handler.sa_handler
            #else
            let handler = action.__sigaction_u.__sa_handler
            #endif
            XCTAssertEqual(unsafeBitCast(handler, to: Int.self), unsafeBitCast(SIG_DFL, to: Int.self), "signal \(number) has a handler")
            var blocked = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &blocked)
            XCTAssertEqual(sigismember(&blocked, number), 0, "signal \(number) is blocked")
        }
        writer.abort()
        _ = scratch
    }

    /// CI caught a SIGKILL landing between `mkstemp` and `unlink`: the scratch file's name stayed
    /// in $TMPDIR. Scratch and record files now never have a name (`O_TMPFILE`); the kernel
    /// shows such a file as `folder/#inode (deleted)`, a once-named one as `folder/name (deleted)`.
    func testScratchFilesNeverHaveANameInTheFolder() throws {
        let scratchFolder = try folder().path
        let descriptor = try POSIX.makeAnonymousFile(in: scratchFolder, prefix: "overlaykit-").get()
        defer { _ = POSIX.close(descriptor) }
        #if os(Linux)
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        XCTAssertTrue(link.hasPrefix(scratchFolder + "/#") && link.hasSuffix(" (deleted)"), link)
        #endif
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratchFolder), [])
        try Array("bytes".utf8).withUnsafeBytes { try POSIX.writeAll(descriptor, $0, what: "a scratch file") }
        XCTAssertEqual(try readFully(descriptor, at: 0, count: 16, what: "a scratch file"), Array("bytes".utf8))
        // A folder that cannot hold files is an error, not a crash or a file elsewhere.
        XCTAssertThrowsError(try POSIX.makeAnonymousFile(in: scratchFolder + "/missing", prefix: "overlaykit-").get())
    }
}

/// The model pushed all of libc into every user's namespace (`@_exported import Glibc`); each
/// file now imports what it uses, and no module re-exports a C library.
final class PlatformImportTests: XCTestCase {
    func testNoModuleReExportsTheCLibrary() throws {
        let sources = TestLocations.packageRoot.appendingPathComponent("Sources")
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        XCTAssertFalse(files.isEmpty, "no sources found at \(sources.path)")
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("@_exported import")
                && ["Glibc", "Darwin", "Musl", "Foundation"].contains(where: { line.contains($0) }) {
                offenders.append("\(file): \(line)")
            }
        }
        XCTAssertEqual(offenders, [])
    }
}

/// The one POSIX layer and the one path helper stay the only ones.
final class POSIXLayerTests: XCTestCase {
    func testValueOrErrnoRetriesInterruptedCallsOnly() {
        var calls = 0
        let retried = POSIX.valueOrErrno { () -> Int32 in
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 7
        }
        XCTAssertEqual(retried, .success(7))
        XCTAssertEqual(calls, 3)
        XCTAssertEqual(POSIX.valueOrErrno { () -> Int32 in errno = ENOSPC; return -1 }, .failure(POSIX.Errno(rawValue: ENOSPC)))
        XCTAssertEqual(POSIX.valueOrErrno(retryOnInterrupt: false) { () -> Int32 in errno = EINTR; return -1 },
                       .failure(POSIX.Errno(rawValue: EINTR)))
    }

    /// `NSString`'s path methods trap on one-character names on this Foundation, and hand-written
    /// EINTR loops drift apart: both live in one place each (`PathName`, `POSIX`).
    func testNoNSStringPathCallsOrEINTRLoopsOutsideTheirHelpers() throws {
        let sources = TestLocations.packageRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        XCTAssertFalse(files.isEmpty, "no sources found at \(sources.path)")
        let pathCalls = ["as NSString", ".deletingLastPathComponent", ".lastPathComponent", ".pathExtension",
                         ".appendingPathComponent(", ".deletingPathExtension("]
        var offenders: [String] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if pathCalls.contains(where: { line.contains($0) }) { offenders.append("\(file): \(line)") }
                if line.contains("EINTR") && !file.hasSuffix("IO/POSIX.swift") { offenders.append("\(file): \(line)") }
            }
        }
        XCTAssertEqual(offenders, [])
    }
    /// One syscall layer: the C library's file and descriptor calls and `strerror` appear only in
    /// `IO/POSIX*.swift`, so interrupted calls, short transfers and error texts are handled once.
    /// A call is the name followed by `(`, neither after a `.` (a method, or `POSIX.`-qualified)
    /// nor declared (`func read(`); a module-qualified call (`Glibc.sync()`) counts too. The names
    /// Swift code here also gives its own methods (`open`, `close`, `read`, `write`, `stat`) count
    /// only in the C calls' argument shapes: `open(path, O_…)`, `close(fd)`, three unlabeled
    /// arguments for `read`/`write`, `stat(path, &info)` (the empty `stat()` is the struct).
    /// Not file calls, and so not listed: signals (`sigwait`, `raise`), threads, `getenv`,
    /// `getrusage`. The CLI's standard-error text and terminal check go through the layer too (it
    /// is `package`), and the interrupt cleanup removes files from an ordinary thread, not a
    /// signal handler; the exceptions are listed in `allowed`, each with its reason.
    func testNoFileCallsOrStrerrorOutsideThePOSIXLayer() throws {
        let sources = TestLocations.packageRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        XCTAssertFalse(files.isEmpty, "no sources found at \(sources.path)")
        let names = ["openat", "creat", "pread", "pwrite", "lseek", "fstat", "lstat", "fstatat", "unlink", "unlinkat",
                     "rename", "renameat", "link", "linkat", "symlink", "readlink", "realpath", "mkdir", "mkdirat",
                     "rmdir", "mkstemp", "mkstemps", "mkdtemp", "ftruncate", "fsync", "fdatasync", "sync", "syncfs",
                     "statvfs", "fstatvfs", "fcntl", "flock", "mmap", "munmap", "madvise", "posix_fadvise", "opendir",
                     "fdopendir", "readdir", "closedir", "access", "dup", "dup2", "chmod", "fchmod", "isatty", "strerror"]
        let call = #"(?<![.\w])(?<!func )"#
        let patterns = try [
            call + "(?:" + names.joined(separator: "|") + #")\("#,
            call + #"open\([^()\n]*,\s*O_[A-Z]"#,
            call + #"close\(\s*[A-Za-z_][\w.]*\s*\)"#,
            call + #"(?:read|write)\(\s*[^,():\n]+,\s*[^,():\n]+,\s*[^,():\n]+\)"#,
            call + #"stat\(\s*[^)\s]"#,
            #"\b(?:Glibc|Darwin|Musl)\.\w+\("#,
        ].map { try NSRegularExpression(pattern: $0) }
        // Justified exceptions, as "file inside Sources: the line's code".
        let allowed: Set<String> = [
            // Console/ sits below IO/ in docs/design.md's folder table (it uses the model only);
            // asking whether standard error is a terminal reads no file and reports no error.
            "OverlayKit/Console/ProgressMeter.swift: terminal = isatty(STDERR_FILENO) == 1",
        ]
        let layer = try NSRegularExpression(pattern: #"(^|/)IO/POSIX(\+\w+)?\.swift$"#)
        var offenders: [String] = []
        for file in files where file.hasSuffix(".swift")
            && layer.firstMatch(in: file, range: NSRange(file.startIndex..., in: file)) == nil {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                // Comments mention calls by name; what follows `//` is not code.
                let code = String(line.components(separatedBy: "//")[0])
                let range = NSRange(code.startIndex..., in: code)
                let entry = "\(file): \(code.trimmingCharacters(in: .whitespaces))"
                if patterns.contains(where: { $0.firstMatch(in: code, range: range) != nil }) && !allowed.contains(entry) {
                    offenders.append(entry)
                }
            }
        }
        XCTAssertEqual(offenders, [], "call these through POSIX (IO/POSIX*.swift)")
    }
}

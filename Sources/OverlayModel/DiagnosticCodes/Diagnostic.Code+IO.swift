// Input and output: a file cannot be opened, read, written or created (exit 74).

extension Diagnostic.Code {
    /// `io.compress-failed` (io): zlib or libdeflate could not compress (deflate) the output.
    public static let ioCompressFailed = Diagnostic.Code("io.compress-failed", kind: .io)
    /// `io.create-failed` (io): An output file, directory or temporary file cannot be created.
    public static let ioCreateFailed = Diagnostic.Code("io.create-failed", kind: .io)
    /// `io.not-found` (io): An input file or directory does not exist.
    public static let ioNotFound = Diagnostic.Code("io.not-found", kind: .io)
    /// `io.open-failed` (io): An input cannot be opened.
    public static let ioOpenFailed = Diagnostic.Code("io.open-failed", kind: .io)
    /// `io.output-exists` (io): The output exists and `--force` was not given.
    public static let ioOutputExists = Diagnostic.Code("io.output-exists", kind: .io)
    /// `io.output-locked` (io): Another process is writing the same output.
    public static let ioOutputLocked = Diagnostic.Code("io.output-locked", kind: .io)
    /// `io.read-failed` (io): Reading an input failed.
    public static let ioReadFailed = Diagnostic.Code("io.read-failed", kind: .io)
    /// `io.thread-failed` (io): A worker thread could not be started.
    public static let ioThreadFailed = Diagnostic.Code("io.thread-failed", kind: .io)
    /// `io.write-failed` (io): Writing an output failed (a full disk, a closed device).
    public static let ioWriteFailed = Diagnostic.Code("io.write-failed", kind: .io)

    /// The codes above, in order, for ``allDeclared``.
    static let ioCodes: [Diagnostic.Code] = [
        .ioCompressFailed,
        .ioCreateFailed,
        .ioNotFound,
        .ioOpenFailed,
        .ioOutputExists,
        .ioOutputLocked,
        .ioReadFailed,
        .ioThreadFailed,
        .ioWriteFailed,
    ]
}

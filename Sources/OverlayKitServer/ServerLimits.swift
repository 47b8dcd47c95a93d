#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one client may cost the preview server: the limits every production server has
/// (nginx's `large_client_header_buffers`, `client_header_timeout`, `keepalive_timeout`,
/// `worker_connections`), so a slow, long or crowded client fails its own request and never
/// the server.
public struct ServerLimits: Sendable, Hashable {
    /// The longest request line (method, target, version), in bytes; longer is `414 URI Too Long`.
    public var requestLineBytes = 8 << 10
    /// The largest request head (request line and header fields), in bytes; larger is
    /// `431 Request Header Fields Too Large`.
    public var headerBytes = 64 << 10
    /// Seconds a client has to send a whole request head, counted from its first byte (or from
    /// the connection's opening); later is `408 Request Timeout` and the connection is closed.
    public var headerSeconds: Int64 = 10
    /// Seconds a connection may go without reading or writing a byte before it is closed (a
    /// kept-alive connection between requests, or a client that stopped reading).
    public var idleSeconds: Int64 = 60
    /// The most connections open at once; nil: the process's descriptor limit less
    /// ``reservedDescriptors``. At the cap a new connection closes the one idle longest, or is
    /// closed itself when every open one is busy.
    public var maxConnections: Int?
    /// Descriptors left for files, the listening socket and the event loop when the cap comes
    /// from the descriptor limit.
    public var reservedDescriptors = 64

    /// The defaults: 8 KiB request line, 64 KiB head, 10 s to send it, 60 s idle, the cap from
    /// the descriptor limit.
    public init() {}

    /// The connection cap in force: ``maxConnections``, or the soft `RLIMIT_NOFILE` less
    /// ``reservedDescriptors`` (at least 16).
    public var connectionCap: Int {
        if let maxConnections { return max(1, maxConnections) }
        var limit = rlimit()
        guard getrlimit(Self.descriptorResource, &limit) == 0, limit.rlim_cur < (1 << 40) else { return 4096 }
        return max(16, min(1 << 20, Int(limit.rlim_cur)) - reservedDescriptors)
    }

    /// Raises the soft descriptor limit to the hard one, at most 65,536 (as Go's runtime does):
    /// more room for connections before ``connectionCap`` closes idle ones.
    public static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(descriptorResource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, 1 << 16)
        _ = setrlimit(descriptorResource, &limit)
    }

    /// `RLIMIT_NOFILE` as `getrlimit` takes it on this platform.
    #if os(Linux)
    private static var descriptorResource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
    #else
    private static var descriptorResource: Int32 { RLIMIT_NOFILE }
    #endif
}

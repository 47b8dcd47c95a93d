import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import OverlayKit

/// `overlaykit serve` as one library call: a `PreviewSite` behind SwiftNIO's HTTP/1 server
/// (llhttp's parser, an event loop per core, a thread pool for tile reads), on loopback unless
/// told otherwise, within ``ServerLimits``: request line and head sizes, a head deadline, an
/// idle timeout and a connection cap; `accept` failures such as EMFILE back off and retry
/// (SwiftNIO's `AcceptBackoffHandler`), so they never end the server. A preview server for a
/// trusted network, not a production tile host.
///
/// ```swift
/// let site = try PreviewSite(tileSets: [ServedTileSet(id: "parks", title: "parks.pmtiles",
///                                                     provider: LockedTileSet(TileSet(path: "parks.pmtiles")))])
/// let server = try PreviewServer(site: site, host: "127.0.0.1", port: 0)
/// let port = try await server.start()           // listening; 0 picked a free port
/// // … http://127.0.0.1:\(port)/
/// await server.stop()
/// ```
public final class PreviewServer: Sendable {
    /// What is served.
    public let site: PreviewSite
    /// The address listened on.
    public let host: String
    /// The limits each connection is held to.
    public let limits: ServerLimits
    private let port: Int
    private let events: @Sendable (PreviewSite.ClientEvent) -> Void
    private let log: (@Sendable (RequestLogEntry) -> Void)?
    private let group: MultiThreadedEventLoopGroup
    private let pool: NIOThreadPool
    private let connections: ConnectionTable
    private let listening = NIOLockedValueBox<(any Channel)?>(nil)
    private let stopped = NIOLockedValueBox(false)

    /// A server of `site` on `host` (an IPv4 or IPv6 address; `localhost` is 127.0.0.1) and
    /// `port` (0: any free port), within `limits`. `onClientEvent` receives what the page reports
    /// (MapLibre errors, idle) and `onRequest` each answered request, on any thread.
    /// - Throws: `Diagnostic` `io.listen-failed` for a host that is not an address.
    public init(site: PreviewSite, host: String = "127.0.0.1", port: UInt16 = 8080, limits: ServerLimits = ServerLimits(),
                onClientEvent: @escaping @Sendable (PreviewSite.ClientEvent) -> Void = { _ in },
                onRequest: (@Sendable (RequestLogEntry) -> Void)? = nil) throws {
        self.site = site
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = Int(port)
        self.limits = limits
        events = onClientEvent
        log = onRequest
        guard (try? SocketAddress(ipAddress: self.host, port: 0)) != nil else {
            throw Diagnostic(.error, code: .ioListenFailed, message: "cannot listen on \(host): not an IPv4 or IPv6 address")
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, min(4, System.coreCount)))
        pool = NIOThreadPool(numberOfThreads: max(4, 2 * System.coreCount))
        connections = ConnectionTable(cap: limits.connectionCap)
    }

    /// Starts listening and serving; returns the port listened on.
    /// - Throws: `Diagnostic` `io.listen-failed` when the address cannot be bound (in use, not local).
    public func start() async throws -> Int {
        pool.start()
        let site = self.site, pool = self.pool, connections = self.connections, limits = self.limits
        let events = self.events, log = self.log
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelInitializer { channel in
                guard connections.admit(channel) else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                return channel.eventLoop.makeCompletedFuture {
                    let handlers = channel.pipeline.syncOperations
                    try handlers.addHandler(RequestHeadGuard(limits: limits))
                    try handlers.addHandler(IdleStateHandler(allTimeout: .seconds(limits.idleSeconds)))
                    try handlers.addHandler(HTTPResponseEncoder())
                    try handlers.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try handlers.addHandler(HTTPServerPipelineHandler())
                    try handlers.addHandler(HTTPServerProtocolErrorHandler())
                    try handlers.addHandler(SiteChannelHandler(site: site, pool: pool, connections: connections, events: events, log: log))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            listening.withLockedValue { $0 = channel }
            return channel.localAddress?.port ?? port
        } catch {
            try? await pool.shutdownGracefully()
            try? await group.shutdownGracefully()
            throw Diagnostic(.error, code: .ioListenFailed, message: "cannot listen on \(host) port \(port): \(Self.describe(error))")
        }
    }

    /// Serves until ``stop()`` is called.
    public func wait() async {
        guard let channel = listening.withLockedValue({ $0 }) else { return }
        try? await channel.closeFuture.get()
    }

    /// Stops listening, closes open connections and ends the server's threads.
    public func stop() async {
        let first = stopped.withLockedValue { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        if let channel = listening.withLockedValue({ $0 }) {
            try? await channel.close()
        }
        for channel in connections.channels { try? await channel.close() }
        try? await pool.shutdownGracefully()
        try? await group.shutdownGracefully()
    }

    private static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return POSIX.Errno(rawValue: io.errnoCode).description }
        return "\(error)"
    }
}

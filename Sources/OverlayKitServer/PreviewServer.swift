import FlyingFox
import FlyingSocks
import Foundation
import OverlayKit

/// `overlaykit serve` as one library call: a `PreviewSite` behind FlyingFox's HTTP server
/// (Swift concurrency over non-blocking sockets, each connection a task), on loopback unless
/// told otherwise.
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
    private let server: HTTPServer
    private let events: @Sendable (PreviewSite.ClientEvent) -> Void
    private let running = RunningTask()

    /// A server of `site` on `host` (an IPv4 or IPv6 address; `localhost` is 127.0.0.1) and
    /// `port` (0: any free port). `onClientEvent` receives what the page reports (MapLibre
    /// errors, idle), on any thread.
    /// - Throws: `Diagnostic` `io.listen-failed` for a host that is not an address.
    public init(site: PreviewSite, host: String = "127.0.0.1", port: UInt16 = 8080,
                onClientEvent: @escaping @Sendable (PreviewSite.ClientEvent) -> Void = { _ in }) throws {
        self.site = site
        self.host = host == "localhost" ? "127.0.0.1" : host
        events = onClientEvent
        let address: any SocketAddress
        do {
            address = self.host.contains(":") ? try sockaddr_in6.inet6(ip6: self.host, port: port) : try sockaddr_in.inet(ip4: self.host, port: port)
        } catch {
            throw Diagnostic(.error, code: .ioListenFailed, message: "cannot listen on \(host): not an IPv4 or IPv6 address")
        }
        server = HTTPServer(address: address, timeout: 30, logger: .disabled, handler: SiteHandler(site: site, events: onClientEvent))
    }

    /// Starts listening and serving in a task of its own; returns the port listened on.
    /// - Throws: `Diagnostic` `io.listen-failed` when the address cannot be bound (in use, not local).
    public func start() async throws -> Int {
        let server = self.server
        let task = Task { try await server.run() }
        running.set(task)
        do {
            try await server.waitUntilListening(timeout: 10)
        } catch {
            task.cancel()
            let failure = await Self.failure(of: task)
            let reason = Self.describe(failure)
            throw Diagnostic(.error, code: .ioListenFailed, message: "cannot listen on \(host): \(reason)")
        }
        guard let address = await server.listeningAddress else {
            throw Diagnostic(.error, code: .ioListenFailed, message: "cannot listen on \(host)")
        }
        switch address {
        case .ip4(_, let port), .ip6(_, let port): return Int(port)
        default: return 0
        }
    }

    /// Serves until the task running it is cancelled or ``stop()`` is called.
    public func wait() async {
        _ = await running.task?.result
    }

    /// Stops listening and ends open connections (waits up to a second for requests in flight).
    public func stop() async {
        await server.stop(timeout: 1)
        running.task?.cancel()
    }

    private static func failure(of task: Task<Void, any Error>) async -> (any Error)? {
        if case .failure(let error) = await task.result { return error }
        return nil
    }

    private static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "not listening after 10 s" }
        if let socket = error as? SocketError { return "\(socket)" }
        return error.localizedDescription
    }
}

/// The task running the server, set once.
private final class RunningTask: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Task<Void, any Error>?

    var task: Task<Void, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ task: Task<Void, any Error>) {
        lock.lock()
        stored = task
        lock.unlock()
    }
}

/// FlyingFox's side: every request to `PreviewSite.respond`, on a detached task so tile
/// reads and cutting do not hold up the server's other connections.
private struct SiteHandler: HTTPHandler {
    let site: PreviewSite
    let events: @Sendable (PreviewSite.ClientEvent) -> Void

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let headers = request.headers.map { (name: $0.key.rawValue, value: $0.value) }
        let host = request.headers[.host] ?? "127.0.0.1"
        let site = self.site, events = self.events
        // The raw target: FlyingFox's `path` has already resolved dot segments.
        let target = request.target.rawValue
        let response = await Task.detached {
            site.respond(method: request.method.rawValue, path: target, headers: headers, origin: "http://\(host)",
                         onClientEvent: events)
        }.value
        var fields = HTTPHeaders()
        for field in response.headers where field.name != "Content-Length" { fields.addValue(field.value, for: HTTPHeader(field.name)) }
        var answer = HTTPResponse(statusCode: HTTPStatusCode(response.status, phrase: Self.phrase(response.status)), headers: fields,
                                  body: Data(response.body))
        if request.method == .HEAD, let length = response.header("Content-Length") {
            answer.headers[.contentLength] = length
        }
        return answer
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        default: "Internal Server Error"
        }
    }
}

import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import OverlayKit

/// One connection's requests to `PreviewSite.respond`, run on a thread pool (tile reads and
/// cutting block), answered in order on the connection's event loop. A gzip tile for a client
/// that takes no gzip is inflated a chunk at a time as the client reads (``GzipChunks``), so a
/// client that never reads holds one chunk, not the whole tile.
final class SiteChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let site: PreviewSite
    private let pool: NIOThreadPool
    private let connections: ConnectionTable
    private let events: @Sendable (PreviewSite.ClientEvent) -> Void
    private let log: (@Sendable (RequestLogEntry) -> Void)?
    /// The request being answered; later ones wait in SwiftNIO's pipelining handler.
    private var started: NIODeadline?
    private var client = "?"

    init(site: PreviewSite, pool: NIOThreadPool, connections: ConnectionTable,
         events: @escaping @Sendable (PreviewSite.ClientEvent) -> Void, log: (@Sendable (RequestLogEntry) -> Void)?) {
        self.site = site
        self.pool = pool
        self.connections = connections
        self.events = events
        self.log = log
    }

    func channelActive(context: ChannelHandlerContext) {
        client = context.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connections.remove(context.channel)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let refused = event as? RefusedRequest {
            log?(RequestLogEntry(client: client, method: "-", target: "-", status: refused.status, bytes: 0, milliseconds: 0))
        }
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A request the parser refused (a lowercase method, a control character in the target):
    /// `HTTPServerProtocolErrorHandler` has flushed its 400; the connection ends here.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        log?(RequestLogEntry(client: client, method: "-", target: "-", status: 400, bytes: 0, milliseconds: 0))
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        started = .now()
        connections.mark(context.channel, busy: true)
        let hasBody = head.headers.contains(name: "content-length") || head.headers.contains(name: "transfer-encoding")
        // Only GET and HEAD are served; a request with a body is answered and the connection closed.
        let keepAlive = head.isKeepAlive && !hasBody && (head.method == .GET || head.method == .HEAD)
        let method = head.method.rawValue, target = head.uri
        let headers = head.headers.map { (name: $0.name, value: $0.value) }
        let origin = "http://\(head.headers.first(name: "host").map { LogText.escaped($0, limit: 255) } ?? "127.0.0.1")"
        let site = self.site, events = self.events
        let answer = pool.runIfActive(eventLoop: context.eventLoop) {
            site.respond(method: method, path: target, headers: headers, origin: origin, onClientEvent: events)
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        answer.whenComplete { result in
            let (handler, context) = bound.value
            let response = (try? result.get())
                ?? PreviewSite.Response(status: 503, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array("stopping\n".utf8))
            handler.send(response, to: head, keepAlive: keepAlive, context: context)
        }
    }

    private func send(_ response: PreviewSite.Response, to request: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        var keepAlive = keepAlive
        var fields = HTTPHeaders()
        for field in response.headers where !(response.inflatesBody && field.name == "Content-Length") {
            fields.add(name: field.name, value: field.value)
        }
        // A streamed body to an HTTP/1.0 client ends when the connection does.
        if response.inflatesBody && request.version == .http1_0 { keepAlive = false }
        if !keepAlive { fields.replaceOrAdd(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: fields))), promise: nil)
        let isHead = request.method == .HEAD
        if response.inflatesBody && !isHead {
            do {
                let chunks = try GzipChunks(response.body, limit: GzipChunks.tileLimit, source: request.uri)
                sendChunks(chunks, sent: 0, request: request, status: response.status, keepAlive: keepAlive, context: context)
            } catch {
                context.close(promise: nil)
            }
            return
        }
        if !response.body.isEmpty && !isHead {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        finish(request: request, status: response.status, bytes: isHead ? 0 : response.body.count, keepAlive: keepAlive, context: context)
    }

    /// Writes the next chunk once the last one reached the socket: a client that stops reading
    /// stops the inflating.
    private func sendChunks(_ chunks: GzipChunks, sent: Int, request: HTTPRequestHead, status: Int, keepAlive: Bool,
                            context: ChannelHandlerContext) {
        let next: [UInt8]?
        do {
            next = try chunks.next()
        } catch {
            // The head is out: a broken body can only be told by closing.
            context.close(promise: nil)
            return
        }
        guard let chunk = next else {
            finish(request: request, status: status, bytes: sent, keepAlive: keepAlive, context: context)
            return
        }
        let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: chunk)))))
        let bound = NIOLoopBound((self, context, chunks), eventLoop: context.eventLoop)
        written.whenSuccess {
            let (handler, context, chunks) = bound.value
            handler.sendChunks(chunks, sent: sent + chunk.count, request: request, status: status, keepAlive: keepAlive, context: context)
        }
    }

    private func finish(request: HTTPRequestHead, status: Int, bytes: Int, keepAlive: Bool, context: ChannelHandlerContext) {
        let channel = context.channel, connections = self.connections
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if keepAlive { connections.mark(channel, busy: false) } else { channel.close(promise: nil) }
        }
        if let log, let started {
            let milliseconds = Double((NIODeadline.now() - started).nanoseconds) / 1e6
            log(RequestLogEntry(client: client, method: request.method.rawValue, target: request.uri, status: status,
                                bytes: bytes, milliseconds: milliseconds))
        }
        started = nil
    }
}

extension GzipChunks {
    /// The most bytes a served tile inflates to (as ``StoredTile/uncompressed(source:)`` allows).
    static let tileLimit = 64 << 20
}

import NIOCore

/// The first handler of a connection: watches the raw bytes of each request head before
/// SwiftNIO's parser sees them and refuses, with the status every production server gives, a
/// request line longer than ``ServerLimits/requestLineBytes`` (414), a head larger than
/// ``ServerLimits/headerBytes`` (431) or a head not complete within
/// ``ServerLimits/headerSeconds`` (408), then closes the connection. One pass over each byte
/// with a few counters: the cost is linear in what the client sends, and it stops reading at
/// the limit. After a head that announces a body (`Content-Length`, `Transfer-Encoding`) or a
/// method other than GET and HEAD, the rest of the connection passes unwatched: the server
/// answers such a request and closes the connection.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limits: ServerLimits
    /// Bytes of the current head so far (0: between requests).
    private var headBytes = 0
    /// Bytes of the current line so far.
    private var lineBytes = 0
    /// True while in the request line.
    private var inRequestLine = true
    /// The current line so far is empty (so a CR LF here ends the head).
    private var lineIsEmpty = true
    /// The first bytes of the current line, lowercased: the method, or a field's name.
    private var lineStart: [UInt8] = []
    private var method: [UInt8] = []
    private var announcesBody = false
    private var unwatched = false
    private var refused = false
    private var deadline: Scheduled<Void>?

    init(limits: ServerLimits) {
        self.limits = limits
    }

    func channelActive(context: ChannelHandlerContext) {
        // A connection that sends nothing is given the same time as one that sends slowly.
        startDeadline(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        if !unwatched {
            if let status = scan(buffer, context: context) {
                refuse(status, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// Walks the bytes; the status to refuse with when a limit is passed.
    private func scan(_ buffer: ByteBuffer, context: ChannelHandlerContext) -> HTTPStatusLine? {
        buffer.withUnsafeReadableBytes { bytes -> HTTPStatusLine? in
            for byte in bytes {
                if unwatched { return nil }
                if headBytes == 0 {
                    // Empty lines before a request are allowed (RFC 9112, section 2.2).
                    if byte == 13 || byte == 10 { continue }
                    if deadline == nil { startDeadline(context: context) }
                }
                headBytes += 1
                if byte == 10 {
                    if lineIsEmpty && !inRequestLine {
                        finishHead()
                        continue
                    }
                    endLine()
                    continue
                }
                if byte != 13 {
                    lineIsEmpty = false
                    lineBytes += 1
                    if lineStart.count < 20 { lineStart.append(byte | (byte >= 65 && byte <= 90 ? 0x20 : 0)) }
                }
                if inRequestLine && lineBytes > limits.requestLineBytes { return .uriTooLong }
                if headBytes > limits.headerBytes { return .headersTooLarge }
            }
            return nil
        }
    }

    private func endLine() {
        if inRequestLine {
            method = Array(lineStart.prefix { $0 != 32 })
            inRequestLine = false
        } else if lineStart.starts(with: Array("content-length:".utf8)) || lineStart.starts(with: Array("transfer-encoding:".utf8)) {
            announcesBody = true
        }
        lineBytes = 0
        lineIsEmpty = true
        lineStart.removeAll(keepingCapacity: true)
    }

    private func finishHead() {
        deadline?.cancel()
        deadline = nil
        // Method names are case-sensitive: compare the lowercased copy with "get" and "head"
        // only to decide whether bodies can follow; the parser refuses a lowercase method.
        if announcesBody || !(method == Array("get".utf8) || method == Array("head".utf8)) { unwatched = true }
        headBytes = 0
        lineBytes = 0
        inRequestLine = true
        lineIsEmpty = true
        lineStart.removeAll(keepingCapacity: true)
        method.removeAll(keepingCapacity: true)
        announcesBody = false
    }

    private func startDeadline(context: ChannelHandlerContext) {
        deadline?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .seconds(limits.headerSeconds)) {
            let (handler, context) = loopBound.value
            handler.deadline = nil
            guard !handler.unwatched, !handler.refused else { return }
            handler.refuse(.requestTimeout, context: context)
        }
    }

    /// Answers `status` in plain bytes (the response encoder is further in) and closes.
    private func refuse(_ status: HTTPStatusLine, context: ChannelHandlerContext) {
        refused = true
        deadline?.cancel()
        deadline = nil
        let body = status.text + "\n"
        let head = "HTTP/1.1 \(status.code) \(status.text)\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let buffer = context.channel.allocator.buffer(string: head + body)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
        context.fireUserInboundEventTriggered(RefusedRequest(status: status.code))
    }
}

/// A status the head guard answers with.
struct HTTPStatusLine: Sendable {
    let code: Int
    let text: String
    static let uriTooLong = HTTPStatusLine(code: 414, text: "URI Too Long")
    static let headersTooLarge = HTTPStatusLine(code: 431, text: "Request Header Fields Too Large")
    static let requestTimeout = HTTPStatusLine(code: 408, text: "Request Timeout")
}

/// The event the head guard sends on when it refused a request (for the request log).
struct RefusedRequest: Sendable {
    let status: Int
}

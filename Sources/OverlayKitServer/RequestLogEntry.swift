/// One answered request, for the request log `serve` prints (one line per request on
/// standard error, as martin and `pmtiles serve` do).
public struct RequestLogEntry: Sendable, Hashable {
    /// The client's address (`127.0.0.1:51234`).
    public var client: String
    /// The method as sent.
    public var method: String
    /// The request target as sent (path and query).
    public var target: String
    /// The status answered.
    public var status: Int
    /// Body bytes sent (for an inflated tile, the inflated bytes).
    public var bytes: Int
    /// Milliseconds from the request's head to the last byte handed to the socket.
    public var milliseconds: Double

    /// An entry from its parts.
    public init(client: String, method: String, target: String, status: Int, bytes: Int, milliseconds: Double) {
        self.client = client
        self.method = method
        self.target = target
        self.status = status
        self.bytes = bytes
        self.milliseconds = milliseconds
    }

    /// `127.0.0.1:51234 "GET /tiles/a/0/0/0.mvt" 200 1234 B 0.8 ms`: the client's text escaped
    /// and capped (``LogText``), so the line is always one line of plain text.
    public var line: String {
        let time = (milliseconds * 10).rounded() / 10
        return "\(LogText.escaped(client, limit: 64)) \"\(LogText.escaped(method, limit: 16)) \(LogText.escaped(target, limit: 300))\" "
            + "\(status) \(bytes) B \(time) ms"
    }
}

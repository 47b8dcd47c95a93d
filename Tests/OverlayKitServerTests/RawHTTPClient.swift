#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TestSupport

/// A minimal HTTP/1.1 client over a blocking loopback socket that sends the request target
/// byte for byte (URLSession would resolve `..` and re-encode it before sending).
struct RawHTTPClient {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    enum Failure: Error { case socket(String) }

    let port: Int

    /// A socket connected to the server on loopback, reads timing out after `timeoutSeconds`;
    /// the caller closes it.
    private func connectedSocket(timeoutSeconds: Int) throws -> Int32 {
        switch LoopbackSocket.connect(port: port, seconds: timeoutSeconds) {
        case .success(let descriptor): return descriptor
        case .failure(let failure): throw Failure.socket(failure.description)
        }
    }

    /// Sends `method target` with `headers` and `Connection: close`, reads the whole answer.
    func send(_ target: String, method: String = "GET", headers: [String: String] = [:]) throws -> Response {
        let descriptor = try connectedSocket(timeoutSeconds: 30)
        defer { close(descriptor) }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure.socket("write: \(errno)") }
            sent += count
        }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { throw Failure.socket("read: \(errno)") }
            if count == 0 { break }
            received += buffer[0..<count]
            if let response = Self.parse(received, method: method) { return response }
        }
        guard let response = Self.parse(received, method: method) else { throw Failure.socket("incomplete answer: \(received.count) bytes") }
        return response
    }

    /// The response once its head and `Content-Length` bytes of body have arrived.
    static func parse(_ bytes: [UInt8], method: String) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator }) else { return nil }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.split(separator: " ").count >= 2,
              let status = Int(statusLine.split(separator: " ")[1]) else { return nil }
        var headers = [String: String]()
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(bytes[(end + 4)...])
        if method != "HEAD", headers["transfer-encoding"]?.lowercased() == "chunked" {
            guard let decoded = dechunked(body) else { return nil }
            return Response(status: status, headers: headers, body: decoded)
        }
        let length = method == "HEAD" ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        guard body.count >= length else { return nil }
        return Response(status: status, headers: headers, body: Array(body.prefix(length)))
    }
}

extension RawHTTPClient {
    /// A chunked body (RFC 9112, section 7.1) put together; nil until its last chunk has arrived.
    static func dechunked(_ bytes: [UInt8]) -> [UInt8]? {
        var body = [UInt8]()
        var position = 0
        while true {
            guard let lineEnd = (position..<max(position, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else { return nil }
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            position = lineEnd + 2
            if size == 0 { return body }
            guard bytes.count >= position + size + 2 else { return nil }
            body += bytes[position..<(position + size)]
            position += size + 2
        }
    }


    /// Opens one connection per target, sends every request, and only then reads the answers:
    /// all requests are in the server at once.
    func sendAtOnce(_ targets: [String]) throws -> [Response] {
        var descriptors = [Int32]()
        defer { descriptors.forEach { close($0) } }
        for target in targets {
            let descriptor = try connectedSocket(timeoutSeconds: 60)
            descriptors.append(descriptor)
            let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
            guard request.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == request.count else {
                throw Failure.socket("write: \(errno)")
            }
        }
        return try descriptors.map { descriptor in
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                if let response = Self.parse(received, method: "GET") { return response }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                received += buffer[0..<count]
            }
            guard let response = Self.parse(received, method: "GET") else { throw Failure.socket("incomplete answer") }
            return response
        }
    }
}

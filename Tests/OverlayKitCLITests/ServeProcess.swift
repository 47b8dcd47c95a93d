#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TestSupport
import XCTest

/// `overlaykit serve` started as a process (the binary `CLI.binary` names, so CI can point
/// `OVERLAYKIT_BINARY` at the release build) on a free port, with its standard error collected
/// as it comes, and a loopback HTTP client with a deadline on every call.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    /// The port it listens on.
    private(set) var port = 0
    private let errors = Pipe()
    private let lock = NSLock()
    private var collected = [UInt8]()
    private let reader = DispatchGroup()

    /// Starts `serve ARGUMENTS --port 0` (under `prlimit --nofile=N` when `descriptorLimit` is
    /// given) and waits up to 60 s for the address it prints.
    init(_ arguments: [String], descriptorLimit: Int? = nil) throws {
        CLI.ignoreBrokenPipes()
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(descriptorLimit)", CLI.binary.path, "serve"] + arguments + ["--port", "0"]
        } else {
            process.executableURL = CLI.binary
            process.arguments = ["serve"] + arguments + ["--port", "0"]
        }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let handle = errors.fileHandleForReading
        reader.enter()
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                collected += chunk
                lock.unlock()
            }
            reader.leave()
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && process.isRunning {
            if let range = stderr.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
               let port = Int(stderr[range].split(separator: ":").last ?? "") {
                self.port = port
                return
            }
            usleep(20_000)
        }
        process.terminate()
        // A server that does not start is a failure, not a missing tool.
        throw ServeDidNotStart(stderr: stderr)
    }

    /// Standard error so far.
    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Resident memory now (VmRSS) in kB.
    var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(serverPID)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// The server's own process id (prlimit execs it, so the same).
    var serverPID: Int32 { process.processIdentifier }

    /// Sends `signal` and waits up to `seconds` for the exit; its status, nil when still running
    /// (then it is killed).
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 20) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = ChildExit.status(of: process)
            reader.wait()
            return nil
        }
        let status = ChildExit.status(of: process)
        reader.wait()
        return status
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = ChildExit.status(of: process)
        }
    }
}

/// HTTP/1.1 over loopback sockets, every read bounded by a deadline.
struct LoopbackHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int

    /// A connected socket (reads time out after `seconds`), or nil when connect fails.
    func connection(seconds: Int = 10) -> Int32? {
        try? LoopbackSocket.connect(port: port, seconds: seconds).get()
    }

    /// Writes all of `bytes`; false when the peer closed or the send timed out.
    @discardableResult
    static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads until the peer closes, the deadline, or `limit` bytes.
    static func readAll(_ descriptor: Int32, limit: Int = 1 << 26) -> [UInt8] {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// The response in `bytes` (head, and a body by `Content-Length`, chunks, or to the end).
    static func parse(_ bytes: [UInt8]) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator }) else { return nil }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.split(separator: " ").count >= 2,
              let status = Int(statusLine.split(separator: " ")[1]) else { return nil }
        var headers = [String: String]()
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            var decoded = [UInt8](), position = 0
            while let lineEnd = (position..<max(position, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }),
                  let size = Int(String(decoding: body[position..<lineEnd], as: UTF8.self), radix: 16), size > 0,
                  body.count >= lineEnd + 2 + size {
                decoded += body[(lineEnd + 2)..<(lineEnd + 2 + size)]
                position = lineEnd + 2 + size + 2
            }
            body = decoded
        } else if let length = headers["content-length"].flatMap(Int.init) {
            body = Array(body.prefix(length))
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// `GET target` on a connection of its own (`Connection: close`).
    func get(_ target: String, headers: [String: String] = [:], method: String = "GET", seconds: Int = 10) throws -> Response {
        guard let descriptor = connection(seconds: seconds) else { throw Failure(description: "cannot connect to port \(port)") }
        defer { close(descriptor) }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        guard Self.write(descriptor, Array((request + "\r\n").utf8)) else { throw Failure(description: "cannot send \(target)") }
        guard let response = Self.parse(Self.readAll(descriptor)) else { throw Failure(description: "no answer to \(target)") }
        return response
    }

    /// Sends raw bytes on a connection of its own and reads the answer (nil when none came).
    func exchange(_ bytes: [UInt8], seconds: Int = 10) -> Response? {
        guard let descriptor = connection(seconds: seconds) else { return nil }
        defer { close(descriptor) }
        Self.write(descriptor, bytes)
        return Self.parse(Self.readAll(descriptor))
    }
}

/// `serve` printed no listening line in time.
struct ServeDidNotStart: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "serve did not start: \(stderr)" }
}

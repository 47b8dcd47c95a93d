#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP socket to a server on 127.0.0.1, for tests that speak HTTP byte for byte (the
/// preview server in-process, `serve` as a process): reads and writes time out after `seconds`.
public enum LoopbackSocket {
    /// A socket connected to `port`, or why not (`socket: errno`, `connect: errno`); the caller closes it.
    public static func connect(port: Int, seconds: Int) -> Result<Int32, ConnectFailure> {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return .failure(ConnectFailure(description: "socket: \(errno)")) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let failure = ConnectFailure(description: "connect: \(errno)")
            close(descriptor)
            return .failure(failure)
        }
        return .success(descriptor)
    }

    /// Why a connection could not be made.
    public struct ConnectFailure: Error, CustomStringConvertible {
        /// The call that failed and its errno.
        public var description: String
    }
}

/// The C library's `connect`, which `LoopbackSocket.connect` hides by its name.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

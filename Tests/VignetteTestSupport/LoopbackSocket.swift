import Foundation

/// A blocking TCP connection to 127.0.0.1, for driving a real server byte by byte (shared by the
/// CLI and server tests).
public final class LoopbackSocket {
    private let fd: Int32

    /// Connects to `port`; every read waits at most `timeout` seconds (a hang guard).
    public init?(port: Int, timeout: Int = 30) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// Sends all of `bytes`.
    public func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Whether the peer closes the connection (or resets it) before the read timeout, discarding
    /// whatever it sends first.
    public func waitForClose() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    /// Whether the peer has closed the connection already (a read that does not wait).
    public var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// Closes our sending side (the server reads end of stream).
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Sends `bytes`; false when the connection is gone.
    public func trySend(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Everything until the peer closes (or the read timeout).
    public func readToEnd() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            // A signal (another test's child exiting) interrupts a recv that has SO_RCVTIMEO set,
            // even under SA_RESTART (signal(7)); that is no end of the answer.
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            result += buffer[..<n]
        }
        return result
    }

    /// One GET with `Connection: close`; the whole response.
    public static func get(port: Int, _ path: String) -> String? {
        guard let socket = LoopbackSocket(port: port) else { return nil }
        socket.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        return String(decoding: socket.readToEnd(), as: UTF8.self)
    }

    /// One GET with `Connection: close`: the status line and headers, and the body's bytes;
    /// `timeout` seconds at most between two reads.
    public static func fetch(port: Int, _ path: String, timeout: Int = 30) -> (head: String, body: [UInt8])? {
        guard let socket = LoopbackSocket(port: port, timeout: timeout) else { return nil }
        socket.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        let bytes = socket.readToEnd()
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
    }
}

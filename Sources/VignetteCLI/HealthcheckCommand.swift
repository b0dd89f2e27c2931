import ArgumentParser
import Foundation

/// `vignette healthcheck`: exit 0 when a local `vignette serve` answers `/healthz` with 200.
///
/// The container image has no curl; this speaks just enough HTTP/1.1 over a loopback socket.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Check that a local vignette serve answers /healthz (exit 0 when healthy).",
        discussion: """
            Used by the container's HEALTHCHECK: the image carries no curl.

            Example:
              vignette healthcheck --port 8080
            """
    )

    @Option(name: .long, parsing: .unconditional, help: "The port vignette serve listens on (on 127.0.0.1).")
    var port = 8080

    @Option(name: .long, parsing: .unconditional, help: "Seconds to wait for the answer.")
    var timeout: Double = 3

    func validate() throws {
        try OptionBounds.within(port, 1...65535, "--port")
        // Zero would mean no timeout at all to the socket: a server that accepts and never answers would hang the check.
        try OptionBounds.positive(timeout, "--timeout", atMost: 3600, "seconds")
    }

    func run() throws {
        let answer = HealthProbe.status(port: port, path: "/healthz", timeout: timeout)
        guard case .status(200) = answer else {
            let why: String
            switch answer {
            case .status(let code): why = "answered \(code)"
            case .refused: why = "did not answer: nothing listens on port \(port) (connection refused)"
            case .timedOut: why = "did not answer within \(OptionBounds.text(timeout)) s"
            case .closed: why = "closed the connection without an answer"
            case .notHTTP: why = "answered something that is not HTTP"
            case .failed(let code): why = "could not be asked: \(String(cString: strerror(code)).lowercased())"
            }
            FileHandle.standardError.write(Data("vignette: http://127.0.0.1:\(port)/healthz \(why)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// One HTTP/1.1 GET over a loopback TCP socket, reading only the status line.
enum HealthProbe {
    /// What the probe got.
    enum Answer: Equatable {
        /// The status code of the answer's status line.
        case status(Int)
        /// Nothing listens on the port.
        case refused
        /// No status line within the timeout.
        case timedOut
        /// The connection ended before a status line.
        case closed
        /// A status line that is not HTTP's.
        case notHTTP
        /// A socket call failed with this errno.
        case failed(Int32)
    }

    static func status(port: Int, path: String, timeout: Double) -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failed(errno) }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return failure(errno) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return failure(errno) }
        var buffer = [UInt8](repeating: 0, count: 256)
        var received = 0
        while received < buffer.count, !buffer[..<received].contains(0x0A) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, $0.count - received, 0) }
            // With SO_RCVTIMEO set, a signal fails recv with EINTR even under SA_RESTART (signal(7)).
            if n < 0, errno == EINTR { continue }
            if n < 0 { return failure(errno) }
            if n == 0 { break }
            received += n
        }
        if received == 0 { return .closed }
        // "HTTP/1.1 200 OK": the status is the second word.
        let line = String(decoding: buffer[..<received].prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0].hasPrefix("HTTP/"), let code = Int(words[1]) else { return .notHTTP }
        return .status(code)
    }

    /// A failed socket call's errno as an answer.
    private static func failure(_ code: Int32) -> Answer {
        switch code {
        case ECONNREFUSED: .refused
        case EAGAIN, EWOULDBLOCK, EINPROGRESS, ETIMEDOUT: .timedOut
        case ECONNRESET, EPIPE: .closed
        default: .failed(code)
        }
    }
}

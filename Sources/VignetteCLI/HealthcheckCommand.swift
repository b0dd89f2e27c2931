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

    @Option(name: .long, help: "The port vignette serve listens on (on 127.0.0.1).")
    var port = 8080

    @Option(name: .long, help: "Seconds to wait for the answer.")
    var timeout: Double = 3

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535, not \(port)") }
    }

    func run() throws {
        let status = HealthProbe.status(port: port, path: "/healthz", timeout: timeout)
        guard status == 200 else {
            let why = status.map { "answered \($0)" } ?? "did not answer"
            FileHandle.standardError.write(Data("vignette: http://127.0.0.1:\(port)/healthz \(why)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// One HTTP/1.1 GET over a loopback TCP socket, reading only the status line.
enum HealthProbe {
    static func status(port: Int, path: String, timeout: Double) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
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
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        var received = 0
        while received < buffer.count, !buffer[..<received].contains(0x0A) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, $0.count - received, 0) }
            if n <= 0 { break }
            received += n
        }
        // "HTTP/1.1 200 OK": the status is the second word.
        let line = String(decoding: buffer[..<received].prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let words = line.split(separator: " ")
        return words.count >= 2 ? Int(words[1]) : nil
    }
}

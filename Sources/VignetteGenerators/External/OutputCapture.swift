import Foundation

/// Reads a child's stdout and stderr pipes without blocking, under size caps.
///
/// Stdout keeps its first bytes (the content), stderr its last (the explanation of a
/// failure). Everything past a cap is still read, so the child never blocks on a full pipe.
struct OutputCapture {
    private var fds: [Int32]
    private(set) var stdout: [UInt8] = []
    private(set) var stdoutTruncated = false
    private var stderrBuffer: [UInt8] = []
    private let stdoutLimit: Int
    private let stderrLimit: Int

    init(outFD: Int32, errFD: Int32, stdoutLimit: Int, stderrLimit: Int) {
        fds = [outFD, errFD]
        self.stdoutLimit = stdoutLimit
        self.stderrLimit = stderrLimit
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// The last `stderrLimit` bytes of standard error.
    var stderr: [UInt8] { Array(stderrBuffer.suffix(stderrLimit)) }

    /// Whether both pipes reached end of file.
    var finished: Bool { fds.allSatisfy { $0 < 0 } }

    /// Waits up to `waitMilliseconds` for data, then reads what is there.
    mutating func pump(waitMilliseconds: Int32) {
        var polls = fds.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard !polls.isEmpty else {
            if waitMilliseconds > 0 { usleep(useconds_t(waitMilliseconds) * 1000) }
            return
        }
        let rc = poll(&polls, nfds_t(polls.count), waitMilliseconds)
        guard rc > 0 else { return }
        for p in polls where p.revents != 0 { read(p.fd) }
    }

    /// Reads until both pipes close or `deadline` passes (writers left over are already killed).
    mutating func drain(until deadline: ContinuousClock.Instant) {
        while !finished, ContinuousClock.now < deadline {
            pump(waitMilliseconds: 20)
        }
    }

    /// Closes whatever is still open.
    mutating func closeAll() {
        for fd in fds where fd >= 0 { close(fd) }
        fds = fds.map { _ in -1 }
    }

    private mutating func read(_ fd: Int32) {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                append(chunk[0..<n], from: fd)
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n == 0 || errno != EAGAIN {
                // End of file (or an error that will not go away): stop watching this pipe.
                close(fd)
                fds = fds.map { $0 == fd ? -1 : $0 }
            }
            return
        }
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>, from fd: Int32) {
        if fd == fds[0] {
            let room = stdoutLimit - stdout.count
            if bytes.count > room { stdoutTruncated = true }
            stdout.append(contentsOf: bytes.prefix(max(0, room)))
        } else {
            stderrBuffer.append(contentsOf: bytes)
            if stderrBuffer.count > 2 * stderrLimit {
                stderrBuffer.removeFirst(stderrBuffer.count - stderrLimit)
            }
        }
    }
}

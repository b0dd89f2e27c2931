import CVignetteCodecs
import Foundation
import VignetteCore

/// Runs one external command safely: no shell, stdin closed, its own process group, limits set
/// before the program starts, output captured under a cap, and a timeout after which the whole
/// group is terminated then killed.
///
/// Whatever happens, the command's processes are gone when `run` returns. With `isolate` the
/// command is PID 1 of its own PID namespace, so the kernel ends every process it started, even
/// one that left the process group with `setsid`; without it, stragglers in its process group
/// are killed and (Vignette being their reaper) waited for.
public struct ProcessRunner: Sendable {
    /// Longest the command may run, in seconds.
    public var timeout: Double
    /// Most bytes of standard output kept; the rest is read and dropped.
    public var stdoutLimit: Int
    /// Most bytes of standard error kept (the last ones: the tail explains failures).
    public var stderrLimit: Int
    /// Time between SIGTERM and SIGKILL after a timeout, in seconds.
    public var killGrace: Double
    /// Most heap and other private writable memory the command may use (RLIMIT_DATA), in bytes; nil for no cap.
    public var memoryLimit: Int?
    /// Most CPU time in seconds (RLIMIT_CPU); nil for no cap.
    public var cpuLimit: Int?
    /// Largest file the command may write, in bytes (RLIMIT_FSIZE); nil for no cap.
    public var fileSizeLimit: Int?
    /// Most processes of the user (RLIMIT_NPROC; the kernel does not apply it to root); nil for no cap.
    public var processLimit: Int?
    /// Whether the command runs as PID 1 of a new PID namespace (when the kernel allows it).
    public var isolate: Bool

    /// Creates a runner.
    public init(
        timeout: Double, stdoutLimit: Int = 1 << 20, stderrLimit: Int = 16 << 10, killGrace: Double = 0.5, memoryLimit: Int? = nil,
        cpuLimit: Int? = nil, fileSizeLimit: Int? = nil, processLimit: Int? = nil, isolate: Bool = false
    ) {
        self.timeout = timeout
        self.stdoutLimit = stdoutLimit
        self.stderrLimit = stderrLimit
        self.killGrace = killGrace
        self.memoryLimit = memoryLimit
        self.cpuLimit = cpuLimit
        self.fileSizeLimit = fileSizeLimit
        self.processLimit = processLimit
        self.isolate = isolate
    }

    /// How a run ended.
    public struct Outcome: Sendable {
        /// The exit status when the command exited normally.
        public var exitStatus: Int32?
        /// The signal that ended the command, if one did.
        public var signal: Int32?
        /// Whether the timeout ended it.
        public var timedOut: Bool
        /// Standard output (at most the limit).
        public var stdout: [UInt8]
        /// Whether standard output went over the limit.
        public var stdoutTruncated: Bool
        /// The last bytes of standard error.
        public var stderr: [UInt8]
        /// The command's process id, which was also its process group id.
        public var processGroup: Int32
        /// Whether the command ran alone in a new PID namespace.
        public var isolated: Bool
    }

    /// Runs `arguments` (argv[0] searched in `environment`'s PATH when it has no `/`) in `directory`
    /// with exactly `environment`.
    ///
    /// - Throws: `VignetteError(.io)` when the command cannot be started.
    public func run(_ arguments: [String], directory: String, environment: [String: String]) throws -> Outcome {
        guard let program = arguments.first, !program.isEmpty else {
            throw VignetteError(.invalidRequest, "empty command")
        }
        guard let path = Self.executablePath(program, searchPath: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
            throw VignetteError(.io, "cannot run \(program): program not found")
        }
        ProcessRunner.becomeReaperOnce
        let outPipe = try Self.pipe()
        let errPipe: (read: Int32, write: Int32)
        do { errPipe = try Self.pipe() } catch {
            close(outPipe.read); close(outPipe.write)
            throw error
        }
        var pid: Int32 = 0
        var isolated: Int32 = 0
        var rc: Int32 = 0
        var limits = vgn_spawn_limits(
            data_bytes: Int64(memoryLimit ?? 0), cpu_seconds: Int64(cpuLimit ?? 0), file_bytes: Int64(fileSizeLimit ?? 0),
            processes: Int64(processLimit ?? 0))
        for attempt in 0..<5 {
            // Spawned and recorded as running under one lock, so that no scan for adopted orphans
            // takes a leader that exited at once for one of them.
            Self.spawnLock.lock()
            rc = Self.withCStrings(arguments) { argv in
                Self.withCStrings(environment.map { "\($0.key)=\($0.value)" }.sorted()) { envp in
                    vgn_spawn(
                        path, argv, envp, directory, outPipe.write, errPipe.write, &limits, isolate ? VGN_SPAWN_PID_NAMESPACE : 0,
                        &pid, &isolated)
                }
            }
            if rc == 0 { Self.running.insert(pid) }
            Self.spawnLock.unlock()
            // A script just written may still be open for writing in a child another thread is
            // starting (the fd is inherited until its exec): the kernel says "text file busy"
            // for a moment. Retry briefly, as Go's os/exec users do.
            guard rc == ETXTBSY else { break }
            usleep(useconds_t(10_000 * (attempt + 1)))
        }
        close(outPipe.write)
        close(errPipe.write)
        guard rc == 0 else {
            close(outPipe.read); close(errPipe.read)
            let why = rc == ENOENT ? "program not found" : String(cString: strerror(rc)).lowercased()
            throw VignetteError(.io, "cannot run \(program): \(why)")
        }
        defer { Self.running.remove(pid) }
        var capture = OutputCapture(outFD: outPipe.read, errFD: errPipe.read, stdoutLimit: stdoutLimit, stderrLimit: stderrLimit)
        defer { capture.closeAll() }

        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int64(timeout * 1000))
        var timedOut = false
        while !Self.hasExited(pid) {
            let now = ContinuousClock.now
            // A request that was given up (its timeout passed, its client left) ends its program too.
            if now >= deadline || WorkPool.currentJobIsAbandoned { timedOut = true; break }
            capture.pump(waitMilliseconds: min(50, Self.milliseconds(deadline - now)))
        }
        // PID 1 of a namespace ignores SIGTERM without a handler, and its children would only die
        // first and be reported: an isolated command is killed outright, together.
        if timedOut && isolated == 0 {
            kill(-pid, SIGTERM)
            let graceEnd = ContinuousClock.now + .milliseconds(Int64(killGrace * 1000))
            while !Self.hasExited(pid), ContinuousClock.now < graceEnd {
                capture.pump(waitMilliseconds: 10)
            }
        }
        // The leader is now a zombie (or still running after the grace): its pid, hence the
        // group id, cannot be reused yet, so killing the group reaches only its own members.
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        var waited: Int32
        repeat { waited = waitpid(pid, &status, 0) } while waited < 0 && errno == EINTR
        let waitError = waited < 0 ? errno : 0
        Self.reapGroup(pid)
        Self.reapAdoptedOrphans()
        capture.drain(until: ContinuousClock.now + .milliseconds(200))
        if waitError != 0 {
            // Someone else reaped it: its status is unknown, so do not call the run a success.
            throw VignetteError(.io, "lost track of \(program): \(String(cString: strerror(waitError)).lowercased())")
        }

        let exited = (status & 0x7f) == 0
        return Outcome(
            exitStatus: exited ? (status >> 8) & 0xff : nil,
            signal: exited ? nil : status & 0x7f,
            timedOut: timedOut,
            stdout: capture.stdout, stdoutTruncated: capture.stdoutTruncated,
            stderr: capture.stderr, processGroup: pid, isolated: isolated != 0)
    }

    /// The program's absolute path: `program` itself when it has a `/`, else the first executable
    /// match in `searchPath`'s folders; nil when there is none.
    static func executablePath(_ program: String, searchPath: String) -> String? {
        if program.contains("/") { return program }
        for dir in searchPath.split(separator: ":") where dir.hasPrefix("/") {
            let candidate = dir + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Kills the process group of every command running now (for a program that is being
    /// interrupted: the commands sit in their own groups, so the terminal's Ctrl-C misses them).
    /// Their private folders are removed too, and the groups waited for (at most a second each).
    public static func killRunningCommands() {
        let groups = running.snapshot()
        for pgid in groups { kill(-pgid, SIGKILL) }
        for pgid in groups { reapGroup(pgid) }
        for dir in ExternalCommand.liveDirectories.snapshot() { try? FileManager.default.removeItem(atPath: dir) }
    }

    private static let running = LiveSet<Int32>()
    private static let spawnLock = NSLock()

    /// Set once per process: orphaned grandchildren of a command become ours to wait for.
    private static let becomeReaperOnce: Void = { _ = vgn_become_subreaper() }()

    /// Whether `pid` has exited, without reaping it (so its pid stays reserved).
    private static func hasExited(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        while true {
            let rc = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if rc == 0 { return info.si_signo == SIGCHLD }
            if errno == EINTR { continue }
            return true
        }
    }

    /// Kills and reaps the orphans that became our children (we are their subreaper) inside a
    /// PID namespace below ours, waiting at most a second for them.
    ///
    /// They are what is left of commands that have ended: bubblewrap's inner process, PID 1 of its
    /// own namespace in its own session, outlives the bubblewrap we started for a moment and is
    /// out of reach of `reapGroup`. A command we are running is skipped (it is in `running`), and
    /// so is every child in our own namespace: it belongs to someone else in this process
    /// (Foundation's `Process`, a test), whose exit status must stay theirs to collect.
    private static func reapAdoptedOrphans() {
        let me = getpid()
        let ourDepth = namespaceDepth(of: "self") ?? 1
        var orphans: [Int32] = []
        spawnLock.lock()
        let live = Set(running.snapshot())
        if let dir = opendir("/proc") {
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
                }
                guard let pid = Int32(name), !live.contains(pid),
                    let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { continue }
                // "pid (comm) S ppid …": the state and the parent follow the last parenthesis.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 1, Int32(fields[1]) == me, (namespaceDepth(of: name) ?? 0) > ourDepth else { continue }
                orphans.append(pid)
            }
            closedir(dir)
        }
        spawnLock.unlock()
        // Our children until reaped, so their pids cannot have been reused.
        for pid in orphans { kill(pid, SIGKILL) }
        let end = ContinuousClock.now + .seconds(1)
        var status: Int32 = 0
        for pid in orphans {
            // Another run's scan may reap it first (ECHILD): gone either way.
            while waitpid(pid, &status, WNOHANG) == 0, ContinuousClock.now < end { usleep(1000) }
        }
    }

    /// How many PID namespaces deep `/proc/<process>` is (1 in the initial one).
    private static func namespaceDepth(of process: String) -> Int? {
        namespacePIDs(of: process)?.count
    }

    /// The process's id in each PID namespace it is in, outermost first (`NSpid:` of its status).
    private static func namespacePIDs(of process: String) -> [Int32]? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("NSpid:") })
        else { return nil }
        return line.dropFirst("NSpid:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Int32($0) }
    }

    /// Waits for the group's other members (our children once orphaned), for at most a second.
    private static func reapGroup(_ pgid: Int32) {
        let end = ContinuousClock.now + .seconds(1)
        var status: Int32 = 0
        while ContinuousClock.now < end {
            let rc = waitpid(-pgid, &status, WNOHANG)
            if rc > 0 { continue }
            if rc < 0, errno == EINTR { continue }
            if rc < 0 { return }  // ECHILD: none left
            kill(-pgid, SIGKILL)
            usleep(5000)
        }
    }

    private static func milliseconds(_ d: Duration) -> Int32 {
        let (s, atto) = d.components
        return Int32(clamping: max(0, s * 1000 + atto / 1_000_000_000_000_000))
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        let rc = vgn_pipe_cloexec(&fds)
        guard rc == 0 else {
            throw VignetteError(.io, "cannot create a pipe: \(String(cString: strerror(rc)).lowercased())")
        }
        return (fds[0], fds[1])
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for p in pointers { free(p) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// Things alive now (process groups, private folders), for cleanup on interruption.
final class LiveSet<Element: Hashable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: Set<Element> = []

    func insert(_ item: Element) {
        lock.lock()
        items.insert(item)
        lock.unlock()
    }

    func remove(_ item: Element) {
        lock.lock()
        items.remove(item)
        lock.unlock()
    }

    func snapshot() -> [Element] {
        lock.lock()
        defer { lock.unlock() }
        return Array(items)
    }
}

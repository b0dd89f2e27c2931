import Foundation
import Testing

/// A private session bus (`dbus-daemon`) whose service folder starts the built `vignette
/// thumbnailer-service` on demand, with `XDG_CACHE_HOME` pointing at a test folder; and the
/// `gdbus` calls and `gdbus monitor` the thumbnailer tests talk to it with.
final class PrivateSessionBus: @unchecked Sendable {
    /// Whether dbus-daemon and gdbus are installed.
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/gdbus")
    }

    /// The bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    let address: String
    /// The environment of every client: the bus and the cache.
    let environment: [String: String]
    private let daemon = Process()

    /// Starts a bus in `dir` whose activation files run `vignette thumbnailer-service SERVICEARGS` with `cache` as XDG_CACHE_HOME.
    init(dir: String, cache: String, serviceArguments: [String]) throws {
        let services = dir + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        for name in ["org.freedesktop.thumbnails.Thumbnailer1", "org.freedesktop.thumbnails.Cache1"] {
            let exec = ([CLI.binary, "thumbnailer-service"] + serviceArguments).joined(separator: " ")
            try "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n".write(
                toFile: "\(services)/\(name).service", atomically: true, encoding: .utf8)
        }
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(dir)</listen>
              <servicedir>\(services)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: dir + "/bus.conf", atomically: true, encoding: .utf8)
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(dir)/bus.conf", "--print-address=1", "--nofork"]
        var env = ProcessInfo.processInfo.environment
        // Activated services inherit the daemon's environment: this is how the service finds the test's cache.
        env["XDG_CACHE_HOME"] = cache
        daemon.environment = env
        let out = Pipe()
        daemon.standardOutput = out
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line += byte
        }
        address = String(decoding: line, as: UTF8.self)
        environment = ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_CACHE_HOME": cache]
    }

    deinit {
        // SIGKILL: a test process may block SIGTERM, and its children inherit the mask. The service
        // sees the bus go away and exits on its own.
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
    }

    /// `gdbus call` of `method` (`Interface.Member`) on `path` of `destination` with `arguments` (GVariant text).
    func call(
        _ method: String, _ arguments: [String] = [], destination: String = "org.freedesktop.thumbnails.Thumbnailer1",
        path: String = "/org/freedesktop/thumbnails/Thumbnailer1"
    ) throws -> CLIResult {
        try CLI.runProgram(
            "/usr/bin/gdbus",
            ["call", "--session", "--dest", destination, "--object-path", path, "--method", method] + arguments,
            environment: environment)
    }

    /// `Queue` of `uris` (all said to be `application/octet-stream`: the service looks at the files); the handle.
    func queue(_ uris: [String], flavor: String = "large", scheduler: String = "default") throws -> UInt32 {
        let result = try call(
            "org.freedesktop.thumbnails.Thumbnailer1.Queue",
            [Self.list(uris), Self.list(uris.map { _ in "application/octet-stream" }), flavor, scheduler, "0"])
        #expect(result.status == 0, "\(result.stderr)")
        let afterType = result.stdout.range(of: "uint32 ").map { result.stdout[$0.upperBound...] } ?? result.stdout[...]
        let digits = afterType.prefix { $0.isNumber }
        return try #require(UInt32(digits), "Queue answered \(result.stdout) \(result.stderr)")
    }

    /// A GVariant text string array.
    static func list(_ items: [String]) -> String {
        "[" + items.map { "'\($0)'" }.joined(separator: ", ") + "]"
    }

    /// The strings quoted in GVariant text, in order (GLib quotes with ' unless the string holds one, then with ").
    static func quoted(_ text: Substring) -> [String] {
        var out: [String] = []
        var current = ""
        var quote: Character? = nil
        var escaped = false
        for c in text {
            guard let open = quote else {
                if c == "'" || c == "\"" { quote = c }
                continue
            }
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == open {
                out.append(current)
                current = ""
                quote = nil
            } else {
                current.append(c)
            }
        }
        return out
    }
}

/// `gdbus monitor` on the thumbnailer's name: its signals, in the order the bus delivered them.
final class ThumbnailerMonitor: @unchecked Sendable {
    /// One signal seen.
    struct Signal: Equatable {
        let member: String
        let handle: UInt32
        /// Ready's and Error's URIs.
        let uris: [String]
        /// Error's code and message.
        let code: Int?
        let message: String?
    }

    private let process = Process()
    private let lock = NSLock()
    private var text = ""

    /// Starts the monitor and waits until it sees the service own its name (the service is activated first by a call).
    init(bus: PrivateSessionBus) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        process.arguments = ["monitor", "--session", "--dest", "org.freedesktop.thumbnails.Thumbnailer1"]
        var env = ProcessInfo.processInfo.environment
        for (k, v) in bus.environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = out.fileHandleForReading
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                text += String(decoding: chunk, as: UTF8.self)
                lock.unlock()
            }
        }
        let owned = wait { $0.contains("is owned by") }
        #expect(owned, "gdbus monitor never saw the service own its name: \(output)")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Everything the monitor printed so far.
    var output: String {
        lock.lock()
        defer { lock.unlock() }
        return text
    }

    /// Waits (a 120 s hang guard, not a timing check) until `condition` holds for the output; whether it did.
    func wait(_ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if condition(output) { return true }
            usleep(5000)
        }
        return condition(output)
    }

    /// Waits until `Finished` of every one of `handles` was seen; whether it was.
    func waitForFinished(_ handles: [UInt32]) -> Bool {
        wait { _ in
            let finished = Set(self.signals.filter { $0.member == "Finished" }.map(\.handle))
            return handles.allSatisfy(finished.contains)
        }
    }

    /// The thumbnailer's signals seen so far.
    var signals: [Signal] {
        output.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "org.freedesktop.thumbnails.Thumbnailer1.") else { return nil }
            let rest = line[range.upperBound...]
            guard let open = rest.firstIndex(of: "(") else { return nil }
            let member = rest[..<open].trimmingCharacters(in: .whitespaces)
            let body = rest[open...]
            let afterType = body.range(of: "uint32 ").map { body[$0.upperBound...] } ?? body
            let handle = UInt32(afterType.prefix { $0.isNumber }) ?? 0
            let strings = PrivateSessionBus.quoted(body)
            switch member {
            case "Ready":
                return Signal(member: member, handle: handle, uris: strings, code: nil, message: nil)
            case "Error":
                let afterList = body[(body.lastIndex(of: "]") ?? body.startIndex)...]
                let code = Int(afterList.drop { !$0.isNumber && $0 != "-" }.prefix { $0.isNumber || $0 == "-" })
                return Signal(member: member, handle: handle, uris: Array(strings.dropLast()), code: code, message: strings.last)
            default:
                return Signal(member: member, handle: handle, uris: [], code: nil, message: nil)
            }
        }
    }
}

import Foundation
import Testing
import VignetteCache
import VignetteCore

/// `vignette thumbnailer-service` through a private session bus: D-Bus activation, `gdbus call`,
/// `gdbus monitor` and GLib's `gio info`, as a desktop would use it.
@Suite(
    "vignette thumbnailer-service: the freedesktop D-Bus thumbnailer", .serialized,
    .enabled(if: PrivateSessionBus.isAvailable && GioInfo.isInstalled, "needs dbus-daemon, gdbus and gio"))
struct ThumbnailerServiceTests {
    let dir: String
    let cache: String

    init() throws {
        dir = try CLI.tempDirectory()
        cache = dir + "/cache"
    }

    /// A bus whose service starts paused (work waits for Resume), so the order of events is the queue's, not the clock's.
    func pausedBus(jobs: Int = 2) throws -> PrivateSessionBus {
        try PrivateSessionBus(dir: dir, cache: cache, serviceArguments: ["--start-paused", "--jobs", "\(jobs)", "--idle-timeout", "60"])
    }

    func uri(_ path: String) -> String { FileURI.string(forAbsolutePath: path) }

    func resume(_ bus: PrivateSessionBus) throws {
        let result = try bus.call("org.vignette.Testing1.Resume")
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// (device, inode, mtime) of a file, to tell a kept file from a rewritten one.
    func identity(_ path: String) -> [Int] {
        var st = stat()
        guard stat(path, &st) == 0 else { return [] }
        return [Int(st.st_dev), Int(st.st_ino), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec)]
    }

    @Test(
        "40 files queued by D-Bus activation: Started, Ready for the good ones, Error naming the bad ones, Finished; GLib finds every thumbnail valid; a second Queue is answered from the cache"
    )
    func queueFortyFiles() throws {
        var good: [String] = []
        for i in 0..<16 {
            let path = "\(dir)/files/photo \(i).jpg"
            try BatchFixtures.write(try BatchFixtures.jpeg(seed: i), path)
            good.append(path)
        }
        for i in 0..<16 {
            let path = "\(dir)/files/image-\(i).png"
            try BatchFixtures.write(try BatchFixtures.png(seed: 100 + i), path)
            good.append(path)
        }
        for i in 0..<4 {
            let path = "\(dir)/files/notes-\(i).txt"
            try BatchFixtures.write(Array("line one of \(i)\nline two\n".utf8), path)
            good.append(path)
        }
        let damaged = "\(dir)/files/damaged.jpg"
        try BatchFixtures.write(Array(try BatchFixtures.jpeg(seed: 1, width: 400, height: 300).prefix(300)), damaged)
        let unknown = ["\(dir)/files/blob-1.bin", "\(dir)/files/blob-2.bin"]
        for (i, path) in unknown.enumerated() {
            // Pseudo-random bytes, NULs included: binary data no signature or text sniff claims.
            var state = UInt32(2_463_534_242 + i)
            let bytes = (0..<4096).map { _ -> UInt8 in
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                return UInt8(truncatingIfNeeded: state)
            }
            try BatchFixtures.write(bytes, path)
        }
        let vanishing = "\(dir)/files/vanishing.png"
        try BatchFixtures.write(try BatchFixtures.png(seed: 9), vanishing)
        let all = good + [damaged] + unknown + [vanishing]
        #expect(all.count == 40)

        let bus = try pausedBus()
        // The first call activates the service; the monitor then waits for it to own its name.
        let flavors = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetFlavors")
        #expect(flavors.stdout == "(['normal', 'large', 'x-large', 'xx-large'],)\n")
        let schedulers = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetSchedulers")
        #expect(schedulers.stdout == "(['default', 'foreground', 'background'],)\n")
        let monitor = try ThumbnailerMonitor(bus: bus)

        let handle = try bus.queue(all.map(uri))
        try FileManager.default.removeItem(atPath: vanishing)
        try resume(bus)
        #expect(monitor.waitForFinished([handle]), "no Finished: \(monitor.output)")

        let signals = monitor.signals.filter { $0.handle == handle }
        #expect(signals.first?.member == "Started")
        #expect(signals.last?.member == "Finished")
        #expect(signals.filter { $0.member == "Started" || $0.member == "Finished" }.count == 2)
        let ready = signals.filter { $0.member == "Ready" }.flatMap(\.uris)
        #expect(ready.sorted() == good.map(uri).sorted())
        #expect(signals.filter { $0.member == "Ready" }.count < good.count, "Ready batches its URIs")
        let errors = signals.filter { $0.member == "Error" }
        #expect(errors.flatMap(\.uris).sorted() == ([damaged, vanishing] + unknown).map(uri).sorted())
        let byURI = Dictionary(uniqueKeysWithValues: errors.map { ($0.uris[0], $0) })
        #expect(byURI[uri(damaged)]?.code == 2)
        #expect(byURI[uri(vanishing)]?.code == 1)
        #expect(byURI[uri(vanishing)]?.message == "\(vanishing): no such file or directory")
        for path in unknown {
            #expect(byURI[uri(path)]?.code == 0)
            #expect(byURI[uri(path)]?.message == "\(path): no generator pictures this type")
        }

        var kept: [String: [Int]] = [:]
        for path in good {
            let info = try GioInfo.thumbnail(path, cache: cache)
            let thumbnail = try #require(info.path, "gio gave no thumbnail for \(path)")
            #expect(thumbnail.hasPrefix(cache + "/thumbnails/large/"))
            #expect(info.valid == "TRUE", "\(path)")
            kept[thumbnail] = identity(thumbnail)
        }
        #expect(
            FileManager.default.fileExists(
                atPath: ThumbnailCache(root: cache + "/thumbnails", version: VignetteVersion.string).failDirectory))

        // Again: every answer comes from the cache (valid entries and fail entries), nothing is rewritten.
        let again = try bus.queue(all.map(uri))
        #expect(monitor.waitForFinished([again]), "no second Finished: \(monitor.output)")
        let second = monitor.signals.filter { $0.handle == again }
        #expect(second.filter { $0.member == "Ready" }.flatMap(\.uris).sorted() == good.map(uri).sorted())
        #expect(second.filter { $0.member == "Error" }.flatMap(\.uris).sorted() == ([damaged, vanishing] + unknown).map(uri).sorted())
        for (thumbnail, before) in kept {
            #expect(identity(thumbnail) == before, "\(thumbnail) was rewritten")
        }
    }

    @Test("Dequeue drops a long queue's pending files, and a foreground request queued behind 500 background files is Ready before them")
    func dequeueAndForeground() throws {
        try BatchFixtures.manyImages(500, in: dir + "/many")
        let many = (0..<500).map { uri("\(dir)/many/d\($0 % 10)/img-\($0).png") }
        let front = "\(dir)/front.png"
        try BatchFixtures.write(try BatchFixtures.png(seed: 3), front)
        let few = (0..<3).map { "\(dir)/few-\($0).png" }
        for (i, path) in few.enumerated() { try BatchFixtures.write(try BatchFixtures.png(seed: 20 + i), path) }

        // One job: files run strictly in the order the queue hands them out.
        let bus = try pausedBus(jobs: 1)
        _ = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetFlavors")
        let monitor = try ThumbnailerMonitor(bus: bus)

        let dropped = try bus.queue(many, scheduler: "background")
        let dequeue = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.Dequeue", ["\(dropped)"])
        #expect(dequeue.status == 0, "\(dequeue.stderr)")
        let small = try bus.queue(few.map(uri))
        try resume(bus)
        #expect(monitor.waitForFinished([small]))
        #expect(monitor.signals.filter { $0.handle == dropped }.isEmpty, "the dequeued request was worked on")
        let large = cache + "/thumbnails/large"
        #expect(BatchFixtures.pngs(in: large).count == 3, "0 of the 500 dequeued files thumbnailed, 3 of the other request")

        // Now 500 background files first, then one foreground file: it is served first.
        let pauseBus = try PrivateSessionBus(
            dir: dir + "/second", cache: cache + "-second", serviceArguments: ["--start-paused", "--jobs", "1"])
        _ = try pauseBus.call("org.freedesktop.thumbnails.Thumbnailer1.GetFlavors")
        let secondMonitor = try ThumbnailerMonitor(bus: pauseBus)
        let background = try pauseBus.queue(many, scheduler: "background")
        let foreground = try pauseBus.queue([uri(front)], scheduler: "foreground")
        try resume(pauseBus)
        #expect(secondMonitor.waitForFinished([background, foreground]))
        let order = secondMonitor.signals.filter { $0.member == "Ready" }
        #expect(order.first?.handle == foreground)
        #expect(order.first?.uris == [uri(front)])
        #expect(order.dropFirst().allSatisfy { $0.handle == background })
        #expect(order.filter { $0.handle == background }.flatMap(\.uris).count == 500)
    }

    @Test("GetSupported lists the MIME types the registry pictures; Cache1.Move and Delete move and remove entries")
    func supportedAndCache() throws {
        let bus = try PrivateSessionBus(dir: dir, cache: cache, serviceArguments: ["--idle-timeout", "60"])
        let supported = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetSupported")
        #expect(supported.status == 0, "\(supported.stderr)")
        let strings = PrivateSessionBus.quoted(supported.stdout[...])
        let half = strings.count / 2
        #expect(strings.count == half * 2)
        #expect(strings.prefix(half).allSatisfy { $0 == "file" })
        let mimeTypes = Array(strings.suffix(half))
        let listed = try CLI.run(["generators", "--mime-types"], environment: ["XDG_CACHE_HOME": cache])
        #expect(listed.status == 0)
        #expect(mimeTypes == listed.stdout.split(separator: "\n").map(String.init))
        for expected in ["image/jpeg", "image/png", "text/plain"] { #expect(mimeTypes.contains(expected)) }
        #expect(!mimeTypes.contains("application/octet-stream"))

        let monitor = try ThumbnailerMonitor(bus: bus)
        let original = "\(dir)/a.jpg"
        let moved = "\(dir)/moved/b.jpg"
        try BatchFixtures.write(try BatchFixtures.jpeg(seed: 5), original)
        let handle = try bus.queue([uri(original)], flavor: "normal")
        #expect(monitor.waitForFinished([handle]))
        let before = try GioInfo.thumbnail(original, cache: cache)
        #expect(before.valid == "TRUE")
        let oldEntry = try #require(before.path)
        #expect(oldEntry.hasPrefix(cache + "/thumbnails/normal/"))

        try FileManager.default.createDirectory(atPath: dir + "/moved", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: original, toPath: moved)
        let move = try bus.call(
            "org.freedesktop.thumbnails.Cache1.Move", [PrivateSessionBus.list([uri(original)]), PrivateSessionBus.list([uri(moved)])],
            destination: "org.freedesktop.thumbnails.Cache1", path: "/org/freedesktop/thumbnails/Cache1")
        #expect(move.status == 0, "\(move.stderr)")
        let after = try GioInfo.thumbnail(moved, cache: cache)
        #expect(after.valid == "TRUE")
        #expect(after.path == cache + "/thumbnails/normal/" + ThumbnailURI.cacheName(forURI: uri(moved)))
        #expect(!FileManager.default.fileExists(atPath: oldEntry))

        let delete = try bus.call(
            "org.freedesktop.thumbnails.Cache1.Delete", [PrivateSessionBus.list([uri(moved)])],
            destination: "org.freedesktop.thumbnails.Cache1", path: "/org/freedesktop/thumbnails/Cache1")
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(try GioInfo.thumbnail(moved, cache: cache).path == nil)
        #expect(BatchFixtures.pngs(in: cache + "/thumbnails/normal").isEmpty)
    }

    @Test("An unknown flavor gets Started, Error code 5 and Finished at once; an unknown method is refused")
    func unknownFlavor() throws {
        let bus = try PrivateSessionBus(dir: dir, cache: cache, serviceArguments: [])
        _ = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetFlavors")
        let monitor = try ThumbnailerMonitor(bus: bus)
        let handle = try bus.queue(["file:///nowhere.png"], flavor: "huge")
        #expect(monitor.waitForFinished([handle]))
        let signals = monitor.signals.filter { $0.handle == handle }
        #expect(signals.map(\.member) == ["Started", "Error", "Finished"])
        #expect(signals[1].code == 5)
        #expect(signals[1].message == "unsupported flavor 'huge' (known: normal, large, x-large, xx-large)")
        let unknown = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.Frobnicate")
        #expect(unknown.status != 0)
    }

    @Test("SIGTERM ends the service: queued files get Error 7 (shutting down), the request Finished, and the name is released")
    func sigtermDrains() throws {
        let bus = try pausedBus(jobs: 1)
        _ = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetFlavors")
        let monitor = try ThumbnailerMonitor(bus: bus)
        var uris: [String] = []
        for i in 0..<5 {
            let path = dir + "/term-\(i).png"
            try BatchFixtures.write(try BatchFixtures.png(seed: i), path)
            uris.append(uri(path))
        }
        let handle = try bus.queue(uris)
        let owner = try bus.call(
            "org.freedesktop.DBus.GetConnectionUnixProcessID", ["org.freedesktop.thumbnails.Thumbnailer1"],
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus")
        let pid = try #require(Int32(owner.stdout.split(separator: " ").last?.filter(\.isNumber) ?? ""), "no pid in \(owner.stdout)")
        // Nothing has started (the service is paused): every file is still queued when SIGTERM comes.
        #expect(kill(pid, SIGTERM) == 0)
        #expect(monitor.waitForFinished([handle]), "no Finished after SIGTERM: \(monitor.output)")
        let signals = monitor.signals.filter { $0.handle == handle }
        let errors = signals.filter { $0.member == "Error" }
        #expect(errors.map(\.code) == [7])
        #expect(errors.first?.message == "the thumbnailer service is shutting down")
        #expect(Set(errors.flatMap(\.uris)) == Set(uris))
        #expect(monitor.wait { $0.contains("does not have an owner") }, "the service kept its name: \(monitor.output)")
    }

    @Test("The service exits after --idle-timeout without work, and the next call starts it again")
    func idleExit() throws {
        let bus = try PrivateSessionBus(dir: dir, cache: cache, serviceArguments: ["--idle-timeout", "1"])
        _ = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetFlavors")
        let monitor = try ThumbnailerMonitor(bus: bus)
        #expect(monitor.wait { $0.contains("does not have an owner") }, "the service never exited: \(monitor.output)")
        let again = try bus.call("org.freedesktop.thumbnails.Thumbnailer1.GetSchedulers")
        #expect(again.stdout == "(['default', 'foreground', 'background'],)\n")
    }
}

/// `vignette thumbnailer-service` when it cannot connect: no dbus-daemon needed.
@Suite("vignette thumbnailer-service without a bus")
struct ThumbnailerServiceWithoutBusTests {
    /// libdbus-1 is opened by the service's first connection (vgn_dbus_lib.h): the connection's
    /// failure must come back through it as a message and status 1, not end the process.
    @Test("With no bus at --address, the service exits 1 with libdbus's reason")
    func noBus() throws {
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(
            ["thumbnailer-service", "--address", "unix:path=\(dir)/no-bus"], environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "vignette: cannot connect to the bus at unix:path=\(dir)/no-bus: Failed to connect to socket \(dir)/no-bus"),
            "\(result.stderr)")
    }

    @Test("With no session bus at all, the service says that no desktop session is there")
    func noSessionBus() throws {
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(
            ["thumbnailer-service"], environment: ["XDG_CACHE_HOME": dir + "/cache", "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("vignette: cannot connect to the session bus: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" ($DBUS_SESSION_BUS_ADDRESS is not set: no desktop session here)\n"), "\(result.stderr)")
    }
}

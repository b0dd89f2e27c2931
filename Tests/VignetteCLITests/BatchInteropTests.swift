import Foundation
import Testing
import VignetteCore
import VignetteImaging

/// The batch command against a real consumer (GLib's `gio`) and against being killed or interrupted.
@Suite("vignette batch: interop and interruption", .serialized)
struct BatchInteropTests {
    let dir: String
    let cache: String

    init() throws {
        dir = try CLI.tempDirectory()
        cache = dir + "/cache"
    }

    /// `gio info`'s thumbnail path and validity for `file`, with our XDG_CACHE_HOME.
    func gioThumbnail(_ file: String) throws -> (path: String?, valid: String?) {
        try GioInfo.thumbnail(file, cache: cache)
    }

    @Test(
        "GLib finds our thumbnails valid, sees a touched file as stale, and a second batch remakes only it",
        .enabled(if: GioInfo.isInstalled, "needs gio (libglib2.0-bin)"))
    func gioAgrees() throws {
        let names = ["plain.png", "with space.jpg", "hash#and%percent.png", "brackets[1].jpg", "été.png"]
        for (i, name) in names.enumerated() {
            let bytes = name.hasSuffix(".png") ? try BatchFixtures.png(seed: i) : try BatchFixtures.jpeg(seed: i)
            try BatchFixtures.write(bytes, dir + "/pics/" + name)
        }
        let first = try CLI.run(["batch", "pics"], environment: ["XDG_CACHE_HOME": cache], currentDirectory: dir)
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix("batch: 5 files: 5 generated, 0 up to date, 0 failed, "))
        for name in names {
            let info = try gioThumbnail(dir + "/pics/" + name)
            let path = try #require(info.path, "gio gave no thumbnail path for \(name)")
            #expect(path.hasPrefix(cache + "/thumbnails/large/"), "\(name)")
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(info.valid == "TRUE", "\(name)")
        }
        let touched = dir + "/pics/with space.jpg"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: touched)
        #expect(try gioThumbnail(touched).valid == "FALSE")
        let second = try CLI.run(["batch", "--json-lines", "pics"], environment: ["XDG_CACHE_HOME": cache], currentDirectory: dir)
        let generated = BatchFixtures.events(second.stdout).filter { $0["result"] as? String == "generated" }.compactMap {
            $0["path"] as? String
        }
        #expect(generated == ["pics/with space.jpg"])
        #expect(try gioThumbnail(touched).valid == "TRUE")
    }

    /// Starts `vignette batch` without waiting for it.
    func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["batch"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = cache
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, out)
    }

    /// Waits (polling, at most `limit` seconds) until the cache's large folder holds `count` thumbnails.
    func waitForThumbnails(_ count: Int, limit: TimeInterval = 60) -> Int {
        let deadline = Date().addingTimeInterval(limit)
        var found = 0
        while Date() < deadline {
            found = BatchFixtures.pngs(in: cache + "/thumbnails/large").count
            if found >= count { break }
            usleep(2000)
        }
        return found
    }

    /// The number after "N generated" in a summary line.
    func generated(_ summary: String) -> Int? {
        guard let range = summary.range(of: #"(\d+) generated"#, options: .regularExpression) else { return nil }
        return Int(summary[range].split(separator: " ")[0])
    }

    @Test("killed with SIGKILL mid-run: every thumbnail decodes, and the rerun makes exactly the rest")
    func killAndResume() throws {
        try BatchFixtures.manyImages(500, in: dir + "/in", width: 200, height: 150)
        let (process, _) = try start(["--jobs", "2", "in"])
        #expect(waitForThumbnails(20) >= 20)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let large = cache + "/thumbnails/large"
        let before = BatchFixtures.pngs(in: large)
        #expect(before.count < 500, "the batch ended before it could be killed")
        for name in before {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: large + "/" + name)))
            let decoded = try bytes.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 256)) }
            #expect(decoded.bitmap.width == 200, "\(name)")
        }
        let rerun = try CLI.run(
            ["batch", "--jobs", "2", "in"], environment: ["XDG_CACHE_HOME": cache], currentDirectory: dir, deadline: 300)
        #expect(rerun.status == 0)
        #expect(generated(rerun.stdout) == 500 - before.count)
        #expect(rerun.stdout.contains(" \(before.count) up to date, "))
        #expect(BatchFixtures.pngs(in: large).count == 500)
        // After the rerun nothing else is left in the cache (the killed run's temporaries are gone):
        // every file in it, hidden or not, is a PNG that decodes.
        let all = try FileManager.default.subpathsOfDirectory(atPath: cache + "/thumbnails").filter { path in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: cache + "/thumbnails/" + path, isDirectory: &isDir) && !isDir.boolValue
        }
        #expect(all.count == 500)
        for path in all {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache + "/thumbnails/" + path)))
            #expect(throws: Never.self, "\(path)") {
                _ = try bytes.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 256)) }
            }
        }
    }

    @Test("SIGINT stops the run cleanly with the summary so far (exit 130)")
    func interrupt() throws {
        try BatchFixtures.manyImages(500, in: dir + "/in", width: 200, height: 150)
        let (process, out) = try start(["--jobs", "1", "in"])
        #expect(waitForThumbnails(5) >= 5)
        kill(process.processIdentifier, SIGINT)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stdout = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(stdout.hasPrefix("batch interrupted: "))
        let written = BatchFixtures.pngs(in: cache + "/thumbnails/large").count
        #expect(written < 500)
        #expect(generated(stdout) == written)
    }
}

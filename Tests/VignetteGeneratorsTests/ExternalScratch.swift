import Foundation
import VignetteCore

@testable import VignetteGenerators

/// A temporary folder for manifests and generator scripts, removed when the test ends.
final class ExternalScratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "vignette-ext-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` in the folder and returns its path.
    ///
    /// The file is opened close-on-exec: tests run in parallel, and a script still open for
    /// writing in a command another test starts would make its own exec fail ("text file busy").
    @discardableResult
    func write(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Self.writeCloseOnExec(Array(text.utf8), to: file, mode: executable ? 0o755 : 0o644)
        return file
    }

    static func writeCloseOnExec(_ bytes: [UInt8], to file: String, mode: mode_t) throws {
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        _ = fchmod(fd, mode)
    }

    /// A thumbnail manifest `NAME.json` for `type` running `script` (a POSIX sh body, argv: input output size);
    /// `sandbox: false` for a script that must reach files of the test outside its own folder.
    @discardableResult
    func thumbnailGenerator(_ name: String, type: String, timeout: Double = 10, sandbox: Bool = true, script: String) throws -> String {
        try write(name + ".sh", "#!/bin/sh\n" + script + "\n", executable: true)
        return try write(
            name + ".json",
            """
            { "format": 1, "generator": { "kind": "thumbnail", "types": ["\(type)"], "priority": "preferred",
              "exec": ["./\(name).sh", "%i", "%o", "%s"], "timeoutSeconds": \(timeout), "sandbox": \(sandbox) } }
            """)
    }

    /// A shell line writing the script's process id as Vignette sees it (`$$` is 1 when the
    /// command is alone in its PID namespace; /proc here is the outer one) to `file`.
    static func outerPID(to file: String) -> String {
        "read pid rest < /proc/self/stat; echo $pid > '\(file)'"
    }
}

enum ExternalFixtures {
    /// The package root (for Samples/ and Generators/).
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// A fixture of this test target's `Fixtures/external/`.
    static func path(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures/external/" + name, withExtension: nil)!.path
    }

    /// Whether `program` is in PATH.
    static func installed(_ program: String) -> Bool {
        ProgramFinder(environment: ProcessInfo.processInfo.environment).find(program) != nil
    }

    /// Loads built-ins plus the manifests in `folders` (no system thumbnailers, no shipped ones).
    static func load(_ folders: [String], thumbnailers: [String] = []) -> GeneratorLoader.Result {
        GeneratorLoader.load(
            GeneratorLoader.Configuration(
                manifestDirectories: folders.map { GeneratorLoader.Folder($0, required: true) },
                thumbnailerDirectories: thumbnailers))
    }
}

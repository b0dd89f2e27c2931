import Foundation

/// What GLib (`gio info`) says about a file's thumbnail.
enum GioInfo {
    /// Whether `gio` is installed (libglib2.0-bin).
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gio") }

    /// `gio info`'s thumbnail path and validity for `file`, with `cache` as XDG_CACHE_HOME.
    static func thumbnail(_ file: String, cache: String) throws -> (path: String?, valid: String?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gio")
        process.arguments = ["info", "-a", "thumbnail::path,thumbnail::is-valid", file]
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = cache
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var path: String?, valid: String?
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("thumbnail::path: ") { path = String(trimmed.dropFirst("thumbnail::path: ".count)) }
            if trimmed.hasPrefix("thumbnail::is-valid: ") { valid = String(trimmed.dropFirst("thumbnail::is-valid: ".count)) }
        }
        return (path, valid)
    }
}

public import Foundation

/// Finds files shipped with Vignette (type declarations, generators), wherever it is installed.
///
/// Looked for, in order: `$VIGNETTE_DATA_DIR`; `../share/vignette/` beside the executable
/// (an installed layout); the SwiftPM resource bundle beside the executable or in the build tree.
public enum BuiltInResources {
    /// The bytes of a shipped resource and the path they came from.
    public static func data(named name: String) throws -> (Data, String) {
        for dir in searchDirectories() {
            let path = dir + "/" + name
            if FileManager.default.isReadableFile(atPath: path),
                let data = FileManager.default.contents(atPath: path)
            {
                return (data, path)
            }
        }
        if let url = Bundle.module.url(forResource: name, withExtension: nil),
            let data = try? Data(contentsOf: url)
        {
            return (data, url.path)
        }
        throw VignetteError(.notFound, path: name, "shipped resource not found (set VIGNETTE_DATA_DIR to the folder holding it)")
    }

    /// Where `data(named:)` finds a shipped resource, without reading it; nil when it is nowhere.
    public static func path(named name: String) -> String? {
        for dir in searchDirectories() where access(dir + "/" + name, R_OK) == 0 {
            return dir + "/" + name
        }
        return Bundle.module.url(forResource: name, withExtension: nil)?.path
    }

    /// A shipped folder (`Generators`): in the data directories above, else, when running from
    /// a build tree (`swift run`, tests), in the package checkout that holds the executable.
    public static func directory(named name: String) -> String? {
        var isDir: ObjCBool = false
        for dir in searchDirectories() {
            let path = URL(fileURLWithPath: dir + "/" + name).standardizedFileURL.path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { return path }
        }
        // .build/<triple>/debug/vignette: the checkout is a few levels up, beside Package.swift.
        var url = URL(fileURLWithPath: executableDirectory, isDirectory: true)
        for _ in 0..<5 {
            let candidate = url.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), isDir.boolValue
            {
                return candidate
            }
            url = url.deletingLastPathComponent()
        }
        return nil
    }

    static func searchDirectories() -> [String] {
        var dirs: [String] = []
        if let env = ProcessInfo.processInfo.environment["VIGNETTE_DATA_DIR"], !env.isEmpty { dirs.append(env) }
        dirs.append(executableDirectory + "/../share/vignette")
        dirs.append(executableDirectory + "/Vignette_VignetteCore.resources")
        return dirs
    }

    /// The folder of the running binary, symlinks resolved; read once (Foundation's
    /// `resolvingSymlinksInPath` cost every lookup several system calls and allocations).
    public static let executableDirectory: String = {
        // /proc/self/exe names the real binary even when it was started through a symlink.
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count)
        guard count > 0, count < buffer.count else {
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (path as NSString).deletingLastPathComponent
    }()
}

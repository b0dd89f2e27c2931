import Foundation

/// Answers "is this program installed?" for `tryExec`, the way a shell would look it up.
struct ProgramFinder {
    let searchPath: [String]

    init(environment: [String: String]) {
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The full path of `program` (a path, or a name searched in PATH), if it is an executable file.
    func find(_ program: String) -> String? {
        // stat(2) and access(2) as FileManager's fileExists and isExecutableFile use them, without
        // their overhead: every command looks for the programs of every generator it loads.
        if program.contains("/" as Character) {
            return Self.isExecutableFile(program) ? program : nil
        }
        for dir in searchPath where !dir.isEmpty {
            let candidate = dir + "/" + program
            if Self.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` is something that can be run: executable, and not a directory (whose x bit
    /// only means it can be entered).
    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR && access(path, X_OK) == 0
    }

    /// Why a generator cannot run: its `program` is absent, or its command would start Vignette
    /// itself (a `.thumbnailer` for Vignette, which would call back into us); nil when it can.
    func missingReason(program: String, exec: ExecTemplate) -> String? {
        let command = exec.arguments[0]
        if (command as NSString).lastPathComponent == "vignette" {
            return "its command runs vignette itself"
        }
        guard find(program) != nil else {
            return program.contains("/" as Character)
                ? "\(program) is not an executable file" : "\(program) is not installed (not found in PATH)"
        }
        if program != command, find(command) == nil {
            return command.contains("/" as Character)
                ? "\(command) is not an executable file" : "\(command) is not installed (not found in PATH)"
        }
        return nil
    }
}

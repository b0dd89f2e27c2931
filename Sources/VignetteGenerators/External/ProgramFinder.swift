import Foundation

/// Answers "is this program installed?" for `tryExec`, the way a shell would look it up.
struct ProgramFinder {
    let searchPath: [String]

    init(environment: [String: String]) {
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The full path of `program` (a path, or a name searched in PATH), if it is an executable file.
    func find(_ program: String) -> String? {
        if program.contains("/") {
            return FileManager.default.isExecutableFile(atPath: program) ? program : nil
        }
        for dir in searchPath where !dir.isEmpty {
            let candidate = dir + "/" + program
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    /// Why a generator cannot run: its `program` is absent, or its command would start Vignette
    /// itself (a `.thumbnailer` for Vignette, which would call back into us); nil when it can.
    func missingReason(program: String, exec: ExecTemplate) -> String? {
        let command = exec.arguments[0]
        if (command as NSString).lastPathComponent == "vignette" {
            return "its command runs vignette itself"
        }
        guard find(program) != nil else {
            return program.contains("/") ? "\(program) is not an executable file" : "\(program) is not installed (not found in PATH)"
        }
        if program != command, find(command) == nil {
            return command.contains("/") ? "\(command) is not an executable file" : "\(command) is not installed (not found in PATH)"
        }
        return nil
    }
}

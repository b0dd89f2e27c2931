import Foundation

/// The bubblewrap sandbox around external commands, as GNOME runs its thumbnailers.
///
/// Inside it a command has no network, a read-only view of `/usr` (and the few files in `/etc`
/// that programs need to start), its input file read-only, its own private folder as the only
/// writable place, new PID, IPC, UTS, user and cgroup namespaces, no capabilities, a new session,
/// and it dies with Vignette. Everything else of the machine (home folders, `/root`, other
/// files in `/tmp`, `/run`) does not exist for it.
enum Bubblewrap {
    /// `bwrap` when it is installed at a system location and works here; nil otherwise.
    static let path: String? = {
        for candidate in ["/usr/bin/bwrap", "/bin/bwrap"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return works(candidate) ? candidate : nil
        }
        return nil
    }()

    /// Why commands run unsandboxed when `path` is nil.
    static var unavailableReason: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap")
            ? "bwrap is installed but cannot create its namespaces here" : "bwrap (Debian package bubblewrap) is not installed"
    }

    /// The search path inside the sandbox: only `/usr` is there.
    static let searchPath = "/usr/local/bin:/usr/bin:/bin"

    /// Files under `/etc` that programs need to start (the dynamic linker's cache, fonts, alternatives).
    static let etcFiles = ["/etc/ld.so.cache", "/etc/fonts", "/etc/alternatives", "/etc/localtime", "/etc/mime.types"]

    /// `command` wrapped in bwrap: `readable` paths bound read-only, `writable` bound read-write, run in `directory`.
    static func wrap(_ command: [String], bwrap: String, readable: [String], writable: String, directory: String) -> [String] {
        var args = [
            bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--ro-bind", "/usr", "/usr",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--symlink", "usr/lib", "/lib",
            "--symlink", "usr/lib64", "/lib64",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
        ]
        for file in etcFiles { args += ["--ro-bind-try", file, file] }
        for path in readable where !path.hasPrefix("/usr/") { args += ["--ro-bind", path, path] }
        args += ["--bind", writable, writable, "--chdir", directory, "--"]
        return args + command
    }

    /// Whether `bwrap` can start a trivial sandboxed command on this machine (user namespaces allowed).
    static func works(_ bwrap: String) -> Bool {
        let runner = ProcessRunner(timeout: 5)
        let outcome = try? runner.run(
            wrap(["/usr/bin/true"], bwrap: bwrap, readable: [], writable: NSTemporaryDirectory(), directory: "/"), directory: "/",
            environment: ["PATH": searchPath])
        return outcome?.exitStatus == 0
    }
}

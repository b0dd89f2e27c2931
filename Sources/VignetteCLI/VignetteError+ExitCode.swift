import ArgumentParser
import VignetteCore

extension VignetteError {
    /// The exit status for a run that stopped on this error: 2 for bad requests (usage), else 1.
    var exitCode: ExitCode {
        code == .invalidRequest ? ExitCode(2) : ExitCode(1)
    }
}

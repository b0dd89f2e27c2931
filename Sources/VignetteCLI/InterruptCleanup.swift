import Dispatch
import Foundation
import VignetteGenerators

/// On Ctrl-C, SIGTERM or SIGHUP: kill the external generator commands still running (each is
/// in its own process group, out of the terminal's reach), then exit like an interrupted tool.
enum InterruptCleanup {
    private nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []

    /// Installs the handlers; call once, before any command runs.
    static func install() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // The dispatch source sees the signal only once its default action is off.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                ProcessRunner.killRunningCommands()
                exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
}

import Dispatch
import Foundation
import VignetteGenerators

/// On Ctrl-C, SIGTERM or SIGHUP: kill the external generator commands still running (each is
/// in its own process group, out of the terminal's reach), then exit like an interrupted tool.
///
/// A command that can stop gracefully (batch) calls `setGraceful`: the first Ctrl-C (and, when
/// asked, the first SIGTERM: `batch --watch`, whose normal end is being stopped) then runs it
/// instead of exiting; a second signal, and SIGHUP, still exit at once.
enum InterruptCleanup {
    private nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
    private static let lock = NSLock()
    private nonisolated(unsafe) static var gracefulAction: (@Sendable () -> Void)?
    private nonisolated(unsafe) static var gracefulSignals: Set<Int32> = [SIGINT]

    /// Runs `action` (once) on the next Ctrl-C, or the next of `signals`, instead of exiting.
    static func setGraceful(signals: Set<Int32> = [SIGINT], _ action: @escaping @Sendable () -> Void) {
        lock.lock()
        gracefulAction = action
        gracefulSignals = signals
        lock.unlock()
    }

    /// The graceful action for `sig`, cleared so that the next signal exits.
    private static func takeGraceful(for sig: Int32) -> (@Sendable () -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        guard gracefulSignals.contains(sig) else { return nil }
        let action = gracefulAction
        gracefulAction = nil
        return action
    }

    /// Installs the handlers; call once, before any command runs.
    static func install() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // The dispatch source sees the signal only once its default action is off.
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if let graceful = takeGraceful(for: sig) {
                    graceful()
                    return
                }
                ProcessRunner.killRunningCommands()
                exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Removes the handlers, for a command that handles signals itself (`serve` drains its
    /// in-flight requests on SIGTERM through its service group).
    static func uninstall() {
        lock.lock()
        defer { lock.unlock() }
        for source in sources { source.cancel() }
        sources.removeAll()
    }
}

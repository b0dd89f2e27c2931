import Foundation

/// Ctrl-C (SIGINT) as a flag: the batch stops taking files, finishes those in progress, and reports.
///
/// The signal itself is caught by `InterruptCleanup`; a second Ctrl-C goes its usual way there
/// (running generator commands are killed and the process exits with status 130).
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false

    /// Whether SIGINT has arrived.
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return set
    }

    /// Turns the next Ctrl-C (or the next of `signals`) into this flag; `action` then runs once, on a background queue.
    func install(signals: Set<Int32> = [SIGINT], _ action: @escaping @Sendable () -> Void) {
        InterruptCleanup.setGraceful(signals: signals) { [self] in
            lock.lock()
            set = true
            lock.unlock()
            action()
        }
    }
}

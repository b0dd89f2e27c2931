import Foundation

/// Ctrl-C (SIGINT) as a flag: the batch stops taking files, finishes those in progress, and reports.
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    private var source: (any DispatchSourceSignal)?

    /// Whether SIGINT has arrived.
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return set
    }

    /// Catches SIGINT from now on; `action` runs on a background queue when it first comes, and a
    /// second one ends the process at once (status 130).
    func install(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [self] in
            lock.lock()
            let first = !set
            set = true
            lock.unlock()
            if first {
                action()
            } else {
                // A second Ctrl-C means "now": every file written so far is complete (temp + rename).
                _exit(130)
            }
        }
        source.resume()
        self.source = source
    }
}

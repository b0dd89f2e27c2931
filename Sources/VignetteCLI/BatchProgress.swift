import Foundation
import VignetteBatch

/// The progress bar on a terminal: done/total (once the walk has ended), rate, ETA, failures.
///
/// A thread redraws it a few times a second; error lines from workers go through `print` so they
/// clear the bar first instead of mixing with it.
final class BatchProgress: BatchConsole, @unchecked Sendable {
    private let tally: BatchTally
    private let enabled: Bool
    private let condition = NSCondition()
    private var stopped = false
    private var drawn = false
    private var finished = false

    /// A bar over `tally`, drawn only when `enabled` (stderr is a terminal and no JSON lines).
    init(tally: BatchTally, enabled: Bool) {
        self.tally = tally
        self.enabled = enabled
    }

    /// Starts redrawing on its own thread.
    func start() {
        guard enabled else { return }
        Thread.detachNewThread { [self] in
            condition.lock()
            while !stopped {
                draw()
                _ = condition.wait(until: Date().addingTimeInterval(0.25))
            }
            clear()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Stops and erases the bar.
    func stop() {
        guard enabled else { return }
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Writes `line` to stderr, above the bar.
    func printError(_ line: String) {
        condition.lock()
        defer { condition.unlock() }
        clear()
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes `text` to stdout, above the bar.
    func printOutput(_ text: String) {
        condition.lock()
        defer { condition.unlock() }
        clear()
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    // Called with the condition's lock held.
    private func clear() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    // Called with the condition's lock held.
    private func draw() {
        let s = tally.snapshot()
        let failed = s.count(.failed)
        var line: String
        if s.totalKnown, s.found > 0 {
            let fraction = Double(s.done) / Double(s.found)
            let width = 24
            let filled = min(width, Int(fraction * Double(width)))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let eta = s.rate > 0 ? Self.clock(Double(s.found - s.done) / s.rate) : "--:--"
            line = "[\(bar)] \(s.done)/\(s.found) \(Int(fraction * 100))%  \(String(format: "%.1f", s.rate)) files/s  ETA \(eta)"
        } else {
            line = "\(s.done)/\(s.found)+ files  \(String(format: "%.1f", s.rate)) files/s"
        }
        if failed > 0 { line += "  \(failed) failed" }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        drawn = true
    }

    /// "1:05" or "1:02:03".
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600, m = (total / 60) % 60, s = total % 60
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}

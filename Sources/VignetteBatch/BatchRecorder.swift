import Foundation
import VignetteCache
import VignetteCore

/// Where a batch's messages go: a terminal (the CLI draws its progress bar around them), a log, nowhere.
public protocol BatchConsole: Sendable {
    /// Writes `text` to the standard output.
    func printOutput(_ text: String)
    /// Writes `line` and a newline to the standard error.
    func printError(_ line: String)
}

/// Where per-file results go: JSON lines on stdout, the `--report` file, the `--contact-sheet` page.
///
/// The report and the sheet are streamed into temporaries beside their destinations (memory stays
/// flat) and renamed into place when the batch ends, so neither is ever seen half-written.
public final class BatchRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private let progress: any BatchConsole
    private let jsonLines: Bool
    private let listsDryRun: Bool
    private var report: StreamedFile?
    private var sheet: StreamedFile?
    private let sheetDirectory: String?
    private var reportCount = 0
    private var listsGenerated = false

    /// Opens the report and sheet temporaries; errors name the destination.
    ///
    /// `jsonLines` prints every outcome as a JSON line; `listsDryRun` prints "would generate: PATH"
    /// for each file a dry run would generate.
    public init(console: any BatchConsole, jsonLines: Bool, listsDryRun: Bool = false, reportPath: String?, sheetPath: String?) throws {
        self.progress = console
        self.jsonLines = jsonLines
        self.listsDryRun = listsDryRun
        report = try reportPath.map { try StreamedFile(destination: $0) }
        sheet = try sheetPath.map { try StreamedFile(destination: $0) }
        // The links are relative to where the page lands: a link's target's folder. A page sent
        // into a pipe or device has no folder, so it links by absolute URIs.
        sheetDirectory = sheetPath.flatMap { path in
            guard case .file(let file) = OutputFile.target(path) else { return nil }
            return (SourceFile.absolute(file) as NSString).deletingLastPathComponent
        }
        report?.write("{\"results\": [\n")
        sheet?.write(ContactSheet.header)
    }

    /// From now on prints "generated: PATH" for every thumbnail made (`--watch`, after its first
    /// pass), unless the outcomes are printed as JSON lines already.
    public func listGenerated() {
        lock.lock()
        listsGenerated = !jsonLines
        lock.unlock()
    }

    /// Records one file's outcome everywhere asked for.
    public func record(_ outcome: BatchOutcome) {
        if outcome.result == .failed, let error = outcome.error {
            progress.printError("vignette: \(outcome.path): \(error)")
        }
        if listsDryRun, outcome.result == .wouldGenerate { progress.printOutput("would generate: \(outcome.path)\n") }
        let object = outcome.jsonObject
        lock.lock()
        defer { lock.unlock() }
        if listsGenerated, outcome.result == .generated { progress.printOutput("generated: \(outcome.path)\n") }
        if jsonLines {
            var line = object
            line["event"] = "file"
            progress.printOutput(Self.line(line) + "\n")
        }
        if let report {
            report.write((reportCount > 0 ? ",\n" : "") + Self.line(object))
            reportCount += 1
        }
        if let sheet, outcome.result != .wouldGenerate {
            sheet.write(ContactSheet.cell(for: outcome, relativeTo: sheetDirectory))
        }
    }

    /// Writes the summary, closes and renames the report and the sheet; returns problems as errors.
    public func finish(summary: [String: Any]) throws {
        lock.lock()
        defer { lock.unlock() }
        if let report {
            report.write("\n],\n\"summary\": " + Self.line(summary) + "}\n")
            try report.commit()
        }
        if let sheet {
            sheet.write(ContactSheet.footer(summary: summary))
            try sheet.commit()
        }
        report = nil
        sheet = nil
    }

    /// One line of compact JSON with sorted keys.
    public static func line(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}

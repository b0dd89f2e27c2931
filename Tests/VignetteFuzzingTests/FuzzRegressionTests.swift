import Foundation
import Testing
import VignetteFuzzing

/// Every fuzz finding and every hand-written seed, replayed through its harness in an ordinary
/// build: a finding that comes back crashes this suite.
@Suite("Fuzz findings and seeds replayed")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files of `folder` (relative to the package root) for `harness`, its README aside.
    static func inputs(_ folder: String, _ harness: FuzzHarness) -> [String] {
        let dir = root.path + "/" + folder + "/" + harness.rawValue
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0 != "README.md" }.sorted().map { dir + "/" + $0 }
    }

    // A finding that hangs again fails here instead of stalling the suite.
    @Test(.timeLimit(.minutes(1)), arguments: FuzzHarness.allCases)
    func findingsAndSeedsRunToTheEnd(harness: FuzzHarness) throws {
        let files = Self.inputs("Tests/Fixtures/fuzz", harness) + Self.inputs("Fuzz/seeds", harness)
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: file), "\(file) unreadable")
            harness.run(Array(bytes))
        }
    }

    @Test func everyHarnessHasSeedsInTheTree() {
        // The seeds fuzz.sh takes from Tests/ and Samples/ are checked by its smoke run; these
        // are the hand-written ones, which must not go missing silently.
        for harness: FuzzHarness in [.json, .csv, .markdown, .xml, .plist, .mail, .imageHeader, .imaginary, .rtf, .pdf] {
            #expect(!Self.inputs("Fuzz/seeds", harness).isEmpty, "no seeds for \(harness.rawValue)")
        }
    }
}

import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("Time zone files and terminfo entries")
struct SystemDataPreviewTests {
    private func preview(_ input: GeneratorInput) throws -> (TextPreview, String) {
        let (preview, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        return (preview, generator)
    }

    @Test func aTimeZoneFileShowsItsLocalTimesTransitionsAndRule() throws {
        let (p, generator) = try preview(GeneratorFixtures.input("system/Berlin"))
        #expect(generator == "system-data")
        #expect(p.title == "Time zone data, 143 transitions, then CET-1CEST,M3.5.0,M10.5.0/3")
        // zdump -v Europe/Berlin: the first transition is 1893-03-31 23:06:32 UTC, from LMT.
        #expect(
            p.text.hasPrefix(
                "Format: TZif version 2\nLocal times: LMT +00:53:28, CEST +02:00 (daylight saving), CET +01:00, "
                    + "CEMT +03:00 (daylight saving)\nTransitions: 143, 1893-03-31 23:06:32 to 2037-10-25 01:00:00 UTC\n"
                    + "Rule after them: CET-1CEST,M3.5.0,M10.5.0/3\n\nLast transitions (UTC):\n"))
        #expect(p.text.hasSuffix("  2037-03-29 01:00:00  CEST +02:00 (daylight saving)\n  2037-10-25 01:00:00  CET +01:00\n"))
        #expect(p.html.hasPrefix("<dl class=\"facts\"><dt>Format</dt><dd>TZif version 2</dd>"))
    }

    @Test func aTerminfoEntryShowsItsNamesSizeAndColours() throws {
        let (p, generator) = try preview(GeneratorFixtures.input("system/xterm"))
        #expect(generator == "system-data")
        #expect(p.title == "terminfo entry: xterm")
        #expect(
            p.text
                == "Names: xterm, xterm-debian, xterm terminal emulator (X Window System)\nColumns: 80\nLines: 24\nColours: 8\n"
                + "Capabilities: 38 booleans, 15 numbers, 413 strings\n")
    }

    @Test func lyingCountsAreClearErrorsAndTheFallbackAnswers() throws {
        var zone = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("system/Berlin"))))
        zone[32...35] = [0x7F, 0xFF, 0xFF, 0xFF]  // timecnt of the version 1 header
        let input = GeneratorInput(bytes: zone, filename: "Berlin", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        #expect(throws: VignetteError(.corrupt, "damaged time zone file: the version 1 data is cut short")) {
            try SystemDataGenerator().makePreview(for: input, request: PreviewRequest())
        }
        #expect(try preview(input).1 == "fallback")

        let term = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("system/xterm"))))
        let cut = GeneratorInput(
            bytes: Array(term.prefix(100)), filename: "xterm", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        #expect(throws: VignetteError(.corrupt, "damaged terminfo entry: the header's sizes do not fit the file")) {
            try SystemDataGenerator().makePreview(for: cut, request: PreviewRequest())
        }
    }

    @Test func everyCutOfTheFixturesFailsCleanly() throws {
        for name in ["Berlin", "xterm"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("system/" + name))))
            for cut in stride(from: 0, to: bytes.count, by: 7) {
                let input = GeneratorInput(
                    bytes: Array(bytes.prefix(cut)), filename: name, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
                _ = try? SystemDataGenerator().makePreview(for: input, request: PreviewRequest())
            }
        }
    }
}

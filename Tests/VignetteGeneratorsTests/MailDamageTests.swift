import Foundation
import Testing
import VignetteCore
import VignetteGenerators

/// Damaged messages, calendars and cards: every cut and many flipped bytes give a preview or a
/// typed error, never a crash or a hang.
@Suite("Damaged e-mail, calendars and contacts")
struct MailDamageTests {
    static let generators: [String: any PreviewGenerating] = [
        "eml": MailPreviewGenerator(), "mbox": MailPreviewGenerator(), "ics": CalendarPreviewGenerator(),
        "vcf": ContactPreviewGenerator(),
    ]

    /// Runs the generator for `name`'s extension; true for a preview, false for a VignetteError.
    private func outcome(_ bytes: [UInt8], name: String) -> Bool {
        let input = GeneratorInput(bytes: bytes, filename: name, resolver: TypeResolver())
        let generator = Self.generators[String(name.split(separator: ".").last!)]!
        do {
            _ = try generator.makePreview(for: input, request: PreviewRequest(maxBytes: 4096, maxLines: 100))
            return true
        } catch is VignetteError {
            return false
        } catch {
            Issue.record("untyped error for \(name): \(error)")
            return false
        }
    }

    static let documents: [(String, String)] = [
        ("m.eml", MailFixtures.acceptance), ("m.mbox", "From a@b Tue Mar 10 09:00:00 2026\n" + MailFixtures.acceptance),
        ("c.ics", CalendarContactPreviewTests.calendar), ("p.vcf", CalendarContactPreviewTests.cards),
    ]

    @Test(arguments: documents)
    func everyCutGivesAPreviewOrATypedError(name: String, source: String) {
        let whole = Array(source.utf8)
        var previews = 0
        for length in 0...whole.count where outcome(Array(whole.prefix(length)), name: name) { previews += 1 }
        // Past the first lines every cut still previews what it holds.
        #expect(previews > whole.count / 2)
    }

    @Test(arguments: documents)
    func flippedBytesGiveAPreviewOrATypedError(name: String, source: String) {
        let whole = Array(source.utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var damaged = whole
            for _ in 0..<4 { damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = outcome(damaged, name: name)
        }
    }
}

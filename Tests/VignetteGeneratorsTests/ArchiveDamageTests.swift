import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

/// Damaged archives: every cut and many flipped bytes give a preview or a typed error, never a crash or a hang.
@Suite("Damaged archives")
struct ArchiveDamageTests {
    private static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path(relative))))
    }

    /// Runs the generator; true for a preview, false for a VignetteError (anything else fails the test).
    private func outcome(_ bytes: [UInt8], name: String) -> Bool {
        let input = GeneratorInput(bytes: bytes, filename: name, resolver: TypeResolver())
        do {
            if name.hasSuffix(".zip") || name.hasSuffix(".docx") {
                _ = try ZipListingGenerator().makePreview(for: input, request: PreviewRequest())
            } else {
                _ = try TarListingGenerator(catalog: .builtIn).makePreview(for: input, request: PreviewRequest())
            }
            return true
        } catch is VignetteError {
            return false
        } catch {
            Issue.record("untyped error for \(name): \(error)")
            return false
        }
    }

    @Test(arguments: ["listing.tar.gz", "listing.tar.bz2", "listing.tar.xz", "listing.zip", "listing.tar"])
    func everyCutGivesAPreviewOrATypedError(file: String) throws {
        let whole = try Self.bytes("archives/" + file)
        let step = max(1, whole.count / 300)
        var previews = 0
        for length in stride(from: 0, to: whole.count, by: step) where outcome(Array(whole.prefix(length)), name: file) {
            previews += 1
        }
        // A cut stream still lists what it held; a cut zip has lost its directory.
        #expect(file.hasSuffix(".zip") ? previews == 0 : previews > 0)
    }

    @Test(arguments: ["listing.tar.gz", "listing.tar.bz2", "listing.tar.xz", "listing.zip"])
    func flippedBytesGiveAPreviewOrATypedError(file: String) throws {
        let whole = try Self.bytes("archives/" + file)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var damaged = whole
            for _ in 0..<3 { damaged[Int.random(in: 0..<damaged.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator) }
            _ = outcome(damaged, name: file)
        }
    }

    @Test func aDamagedThumbnailEntryInADocumentFailsCleanly() throws {
        var bytes = try Self.bytes("documents/thumbnail.docx")
        for i in stride(from: 0, to: bytes.count, by: 7) {
            var copy = bytes
            copy[i] ^= 0x5A
            let input = GeneratorInput(bytes: copy, filename: "x.docx", resolver: TypeResolver())
            do {
                _ = try OfficeOpenXMLThumbnailGenerator(catalog: .builtIn).makeThumbnail(for: input, request: ThumbnailRequest())
            } catch is VignetteError {}
        }
        bytes.removeLast(bytes.count / 2)
        let input = GeneratorInput(bytes: bytes, filename: "cut.docx", resolver: TypeResolver())
        #expect(throws: VignetteError(.corrupt, "no valid zip central directory (end record missing or damaged)")) {
            try OfficeOpenXMLThumbnailGenerator(catalog: .builtIn).makeThumbnail(for: input, request: ThumbnailRequest())
        }
    }
}

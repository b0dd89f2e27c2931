import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

/// Damaged Office XML: documents LibreOffice wrote, their XML parts cut and their bytes flipped,
/// then stored in a fresh zip, give a preview or a typed error, never a crash or a hang.
@Suite("Office documents: damaged parts")
struct OfficeDamageTests {
    /// The parts of the LibreOffice document with extension `ext`, uncompressed.
    private func parts(_ ext: String) throws -> [(name: String, bytes: [UInt8])] {
        let path = try LibreOfficeDocuments.path(ext)
        let input = try GeneratorInput(path: path, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let package = try OfficePackage(input)
        return try package.directory.entries.filter { $0.name.hasSuffix(".xml") || $0.name.hasSuffix(".rels") }.map {
            ($0.name, try #require(try package.bytes($0.name)))
        }
    }

    private func outcome(_ parts: [(name: String, bytes: [UInt8])], ext: String) {
        let zip = OfficeZipBuilder.zip(parts.map { OfficeZipBuilder.Entry(name: $0.name, data: $0.bytes) })
        let input = GeneratorInput(
            bytes: zip, filename: "damaged.\(ext)", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        do {
            _ = try OfficePreviewGenerator().makePreview(for: input, request: PreviewRequest())
        } catch is VignetteError {
        } catch {
            Issue.record("untyped error for a damaged .\(ext): \(error)")
        }
    }

    @Test(arguments: ["docx", "odt", "xlsx", "ods", "pptx", "odp"])
    func cutAndFlippedPartsGiveAPreviewOrATypedError(ext: String) throws {
        let whole = try parts(ext)
        var random = SystemRandomNumberGenerator()
        for index in whole.indices where whole[index].bytes.count > 0 {
            let bytes = whole[index].bytes
            for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
                var damaged = whole
                damaged[index].bytes = Array(bytes.prefix(length))
                outcome(damaged, ext: ext)
            }
            for _ in 0..<40 {
                var damaged = whole
                for _ in 0..<4 {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    // Digits and minus signs reach the number parsing; other bytes the tokenizer.
                    let pool: [UInt8] = Array("-0123456789<>/&;\"'=x".utf8) + [0, 0xFF]
                    damaged[index].bytes[at] = pool.randomElement(using: &random)!
                }
                outcome(damaged, ext: ext)
            }
        }
    }

    @Test(arguments: ["doc", "xls", "ppt"])
    func cutAndFlippedLegacyFilesGiveAPreviewOrATypedError(ext: String) throws {
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: try LibreOfficeDocuments.path(ext))))
        var random = SystemRandomNumberGenerator()
        func outcome(_ bytes: [UInt8]) {
            let input = GeneratorInput(
                bytes: bytes, filename: "damaged.\(ext)", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
            do {
                _ = try LegacyOfficeGenerator().makePreview(for: input, request: PreviewRequest())
            } catch is VignetteError {
            } catch {
                Issue.record("untyped error for a damaged .\(ext): \(error)")
            }
        }
        for length in stride(from: 0, to: whole.count, by: max(1, whole.count / 100)) { outcome(Array(whole.prefix(length))) }
        for _ in 0..<400 {
            var damaged = whole
            for _ in 0..<4 {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = [0, 0xFF, 0x7F, 0x80, 0xFE].randomElement(using: &random)!
            }
            outcome(damaged)
        }
    }

    @Test func anEncryptedOpenDocumentSaysSo() throws {
        let manifest = """
            <manifest:manifest><manifest:file-entry manifest:full-path="content.xml">\
            <manifest:encryption-data manifest:checksum-type="SHA1"/></manifest:file-entry></manifest:manifest>
            """
        let zip = OfficeZipBuilder.zip([
            OfficeZipBuilder.stored("META-INF/manifest.xml", manifest), OfficeZipBuilder.stored("content.xml", "\u{1}\u{2}garbage"),
        ])
        let input = GeneratorInput(bytes: zip, filename: "secret.odt", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        #expect(throws: VignetteError(.unsupported, "the document is encrypted (password-protected)")) {
            try OfficePreviewGenerator().makePreview(for: input, request: PreviewRequest())
        }
    }
}

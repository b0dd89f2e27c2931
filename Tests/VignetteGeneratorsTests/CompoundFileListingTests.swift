import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

/// OLE2 compound files that no document reader takes: their streams, and a password-protected
/// Office document said to be one.
@Suite("Compound file listings")
struct CompoundFileListingTests {
    private func preview(_ input: GeneratorInput) throws -> (TextPreview, String) {
        let (result, used, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        return (result, used)
    }

    @Test func aPasswordProtectedDocumentSaysSoAndWithWhat() throws {
        let (result, used) = try preview(GeneratorFixtures.input("documents/password.docx"))
        #expect(used == "ole2-listing")
        #expect(result.title == "Password-protected Office document, AES-256 (agile encryption, SHA-512)")
        #expect(
            result.text == """
                This Office document is protected by a password: its content (EncryptedPackage, 552 bytes) is encrypted with AES-256 (agile encryption, SHA-512), and cannot be shown without the password.

                password.docx
                ├── EncryptedPackage (552 bytes)
                ├── EncryptionInfo (1.4 KB)
                └── [6]DataSpaces/
                    ├── DataSpaceInfo/
                    │   └── StrongEncryptionDataSpace (64 bytes)
                    ├── DataSpaceMap (112 bytes)
                    ├── TransformInfo/
                    │   └── StrongEncryptionTransform/
                    │       └── [6]Primary (200 bytes)
                    └── Version (76 bytes)

                6 files, 4 directories, 2.4 KB

                """)
        #expect(result.html.hasPrefix("<p class=\"vignette-note\">This Office document is protected by a password"))
    }

    @Test func standardEncryptionNamesItsAlgorithmAndKeySize() {
        func info(major: UInt8, algorithm: UInt32, bits: UInt32) -> [UInt8] {
            func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
            return [major, 0, 2, 0] + le32(0x24) + le32(0x8C) + le32(0x24) + le32(0) + le32(algorithm) + le32(0x8004) + le32(bits)
        }
        #expect(
            CompoundFileListingGenerator.cipher(ofEncryptionInfo: info(major: 3, algorithm: 0x660E, bits: 128))
                == "AES-128 (standard encryption)")
        #expect(
            CompoundFileListingGenerator.cipher(ofEncryptionInfo: info(major: 4, algorithm: 0x6801, bits: 40))
                == "RC4-40 (standard encryption)")
        #expect(CompoundFileListingGenerator.cipher(ofEncryptionInfo: info(major: 4, algorithm: 0x1234, bits: 40)) == "standard encryption")
        #expect(CompoundFileListingGenerator.cipher(ofEncryptionInfo: [4, 0, 4, 0]) == nil)
        #expect(
            CompoundFileListingGenerator.cipher(ofEncryptionInfo: [4, 0, 4, 0, 0x40, 0, 0, 0] + Array("<encryption/>".utf8))
                == "agile encryption")
    }

    @Test(arguments: [("password.doc", "Word 97-2003 document"), ("password.xls", "Excel 97-2003 workbook")])
    func aWordOrExcelFileSavedWithAPasswordSaysSoAndShowsNoneOfItsScrambledText(name: String, kind: String) throws {
        let input = try GeneratorFixtures.input("documents/" + name)
        let (result, used) = try preview(input)
        #expect(used == "office-legacy")
        #expect(result.title == "\(kind), protected by a password (40-bit RC4)")
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.first
                == "This Office document is protected by a password: its text is encrypted with 40-bit RC4, and cannot be shown without the password."
        )
        // The document properties are not encrypted; nothing after them (the strings of the scrambled stream were shown before).
        #expect(lines.dropFirst().filter { !$0.isEmpty }.allSatisfy { $0.hasPrefix("  Last saved: ") }, "\(result.text)")
        let (_, generator, attempts) = try GeneratorFixtures.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "fallback")
        let officePage = try #require(attempts.first { $0.generator == "office-page" })
        #expect(officePage.outcome == .declined("the document is protected by a password (40-bit RC4): its text cannot be read"))
    }

    @Test func theCipherOfALegacyFileIsReadFromItsVersionAndHeader() {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        func cryptoAPI(major: UInt8, bits: UInt32) -> [UInt8] {
            [major, 0, 2, 0] + le32(0x04) + le32(0x8C) + le32(0x04) + le32(0) + le32(0x6801) + le32(0x8004) + le32(bits)
        }
        #expect(LegacyEncryption.cipher(ofVersionInfo: [1, 0, 1, 0][...]) == "40-bit RC4")
        #expect(LegacyEncryption.cipher(ofVersionInfo: cryptoAPI(major: 2, bits: 128)[...]) == "128-bit RC4 CryptoAPI")
        #expect(LegacyEncryption.cipher(ofVersionInfo: cryptoAPI(major: 4, bits: 0)[...]) == "40-bit RC4 CryptoAPI")
        #expect(LegacyEncryption.cipher(ofVersionInfo: [2, 0, 2, 0][...]) == "an unknown cipher")
        #expect(LegacyEncryption.cipher(ofVersionInfo: [][...]) == "an unknown cipher")
        // Workbooks: FilePass after BOF names XOR obfuscation (type 0) or RC4; none means not encrypted.
        let bof: [UInt8] = [0x09, 0x08, 4, 0, 0, 6, 5, 0]
        #expect(LegacyEncryption.workbook(bof + [0x2F, 0, 6, 0, 0, 0, 0x12, 0x34, 0x56, 0x78]) == "XOR obfuscation")
        #expect(LegacyEncryption.workbook(bof + [0x2F, 0, 6, 0, 1, 0, 1, 0, 1, 0]) == "40-bit RC4")
        #expect(LegacyEncryption.workbook(bof + [0x0A, 0, 0, 0, 0x2F, 0, 2, 0, 0, 0]) == nil)
        #expect(LegacyEncryption.workbook(bof + [0x2F, 0]) == nil)
        #expect(LegacyEncryption.workbook(bof + [0x2F, 0, 0, 0]) == "an unknown cipher")
    }

    @Test func aWordDocumentWhoseMainStreamIsGoneListsItsStreams() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try LibreOfficeDocuments.path("doc"))))
        let name = Array("WordDocument".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let at = try #require((0...(bytes.count - name.count)).first { Array(bytes[$0..<($0 + name.count)]) == name })
        bytes[at] = UInt8(ascii: "X")
        let input = GeneratorInput(
            bytes: bytes, filename: "damaged.doc", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (result, used) = try preview(input)
        #expect(used == "ole2-listing")
        #expect(result.title.hasPrefix("OLE2 compound file, "))
        #expect(result.text.contains("├── XordDocument ("))
        #expect(result.text.contains("[5]SummaryInformation ("))
    }

    @Test func controlCharactersLeadingANameAreShownAsNumbers() {
        #expect(CompoundFileListingGenerator.displayName("\u{5}SummaryInformation") == "[5]SummaryInformation")
        #expect(CompoundFileListingGenerator.displayName("\u{6}DataSpaces/\u{6}Primary") == "[6]DataSpaces/[6]Primary")
        #expect(CompoundFileListingGenerator.displayName("Workbook") == "Workbook")
    }
}

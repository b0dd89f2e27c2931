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

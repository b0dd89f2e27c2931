import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

/// RTF documents previewed as their text, and the compressed RTF bodies of Outlook messages.
@Suite("RTF documents")
struct RichTextTests {
    private func preview(_ input: GeneratorInput, request: PreviewRequest = PreviewRequest()) throws -> (TextPreview, String) {
        let (result, used, _) = try GeneratorFixtures.registry.preview(for: input, request: request)
        return (result, used)
    }

    private func upload(_ rtf: String, named name: String = "input.rtf") -> GeneratorInput {
        GeneratorInput(bytes: Array(rtf.utf8), filename: name, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
    }

    /// The text of `rtf` as the `rtf` preview shows it.
    private func text(_ rtf: String) throws -> String {
        try RichTextGenerator().makePreview(for: upload(rtf), request: PreviewRequest()).text
    }

    @Test func aDocumentWrittenByLibreOfficeReadsAsTheWordDocumentOfTheSameSource() throws {
        let input = try GeneratorInput(
            path: LibreOfficeDocuments.path("rtf"), resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let (result, used) = try preview(input)
        #expect(used == "rtf")
        #expect(result.title == "RTF document")
        LibreOfficeDocuments.expectReport(result, properties: "  Title:  Report for the board\n  Author: Ada Lovelace\n\n")
    }

    @Test func bytesAreDecodedInTheCodePageOfTheirFontAndUnicodeEscapesSkipTheirFallback() throws {
        // Windows-1252 by \ansicpg, Shift-JIS and GBK by \fcharset (128 and 134), a Symbol bullet,
        // \u with one and with two fallback bytes, and a surrogate pair.
        let rtf = #"""
            {\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Arial;}{\f1\fnil\fcharset128 MS Gothic;}
            {\f2\fnil\fcharset134 SimSun;}{\f3\fnil\fcharset2 Symbol;}}
            \f0 caf\'e9 {\f1 \'93\'fa\'96\'7b}/{\f2\'d6\'d0\'ce\'c4} {\f3\'b7} \u8364? {\uc2\u20013\'d6\'d0!} \u-10179?\u-8694?\par}
            """#
        #expect(try text(rtf) == "café 日本/中文 • € 中! 😊")
    }

    @Test func whatIsNotTextIsLeftOut() throws {
        let rtf = #"""
            {\rtf1\ansi{\fonttbl{\f0 Times;}}{\colortbl;\red255\green0\blue0;}{\stylesheet{\s0 Normal;}}
            {\header Page header\par}{\footer Page footer\par}{\*\generator Riched20 10.0;}
            {\pict\pngblip\picw10\pich10 89504e470d0a1a0a}{\*\bkmkstart here}
            Before {\field{\*\fldinst HYPERLINK "https://example.org"}{\fldrslt the link}} and {\v hidden }after\bin4 {}\\ tail{\footnote A note.}.\par
            \u8212\u8212?\tab\~\{\}\\\emdash\par}
            """#
        #expect(try text(rtf) == "Before the link and after tail.\n\n—— {}\\—")
    }

    @Test func wordPadAndTextEditDocuments() throws {
        // As WordPad (Riched20) writes them: \viewkind4\uc1\pard, \lang and \f switches, \par.
        let wordPad = #"""
            {\rtf1\ansi\ansicpg1252\deff0\nouicompat\deflang1033{\fonttbl{\f0\fnil\fcharset0 Calibri;}}
            {\*\generator Riched20 10.0.19041}\viewkind4\uc1
            \pard\sa200\sl276\slmult1\f0\fs22\lang9 Dear team,\par
            The {\b numbers} are \i in\i0 .\par
            }
            """#
        #expect(try text(wordPad) == "Dear team,\n\nThe numbers are in.")
        // As TextEdit (Cocoa) writes them: a \cocoartf header, \ pairs for new lines.
        let textEdit = #"""
            {\rtf1\ansi\ansicpg1252\cocoartf2761
            \cocoatextscaling0\cocoaplatform0{\fonttbl\f0\fswiss\fcharset0 Helvetica;}
            {\colortbl;\red255\green255\blue255;}
            {\*\expandedcolortbl;;}
            \paperw11900\paperh16840\margl1440\margr1440\vieww11520\viewh8400\viewkind0
            \pard\tx566\tx1133\pardirnatural\partightenfactor0

            \f0\fs24 \cf0 Shopping list\
            Apples \'96 Pears\
            }
            """#
        #expect(try text(textEdit) == "Shopping list\n\nApples – Pears")
    }

    @Test func propertiesComeFirstWithTheirDates() throws {
        let rtf = #"""
            {\rtf1\ansi{\info{\title Minutes}{\author Grace Hopper}{\operator Alan}{\doccomm Draft}
            {\creatim\yr2024\mo3\dy5\hr14\min7}{\revtim\yr0\mo0\dy0}}Text.\par}
            """#
        #expect(
            try text(rtf) == """
                  Title:         Minutes
                  Author:        Grace Hopper
                  Last saved by: Alan
                  Comments:      Draft
                  Created:       2024-03-05 14:07

                Text.
                """)
    }

    @Test func aFileNamedRTFThatIsNotRTFGoesToTheTextPreview() throws {
        let input = upload("Just a note, saved with the wrong extension.\n", named: "note.rtf")
        #expect(throws: VignetteError(.declined, "not an RTF document: it does not start with {\\rtf")) {
            try RichTextGenerator().makePreview(for: input, request: PreviewRequest())
        }
        let (result, used) = try preview(input)
        #expect(used == "text")
        #expect(result.text == "Just a note, saved with the wrong extension.")
    }

    @Test func aDocFileThatIsRTFInsideReadsAsRTF() throws {
        // Word's "Save as .doc" of an RTF file, and many mail attachments, keep the RTF bytes.
        let (result, used) = try preview(upload("{\\rtf1\\ansi Minutes of the {\\b meeting}\\par}", named: "minutes.doc"))
        #expect(used == "rtf")
        #expect(result.title == "RTF document")
        #expect(result.text == "Minutes of the meeting")
    }

    @Test func hostileNestingSizesAndEscapesAreBounded() throws {
        // 200,000 groups deep: the state stack stops at its cap, the text after the groups is read.
        let deep = "{\\rtf1 start " + String(repeating: "{", count: 200_000) + "x" + String(repeating: "}", count: 200_000) + " end\\par}"
        #expect(try text(deep) == "start end")
        // A \bin longer than the file, absurd parameters, an unterminated hex escape, overlong words.
        let odd = "{\\rtf1 a{\\uc2147483647\\u99999999999 b} c\\'4 \\" + String(repeating: "z", count: 5_000) + " d\\bin99999999999 e"
        #expect(try text(odd) == "a c d")
        #expect(try text("{\\rtf1 one\\'4") == "one")
        // One paragraph as long as the file: the budget stops it, and the preview says it is cut.
        let long = "{\\rtf1 " + String(repeating: "word ", count: 400_000) + "\\par}"
        let result = try RichTextGenerator().makePreview(for: upload(long), request: PreviewRequest(maxBytes: 1_000))
        #expect(result.truncated)
        #expect(result.text.utf8.count <= 1_100)
    }

    @Test func theThumbnailIsThePageOfItsText() throws {
        let (thumb, used, _) = try GeneratorFixtures.registry.thumbnail(
            for: upload("{\\rtf1\\ansi Hello {\\b world}\\par}"), request: ThumbnailRequest(maxPixelSize: 256))
        #expect(used == "office-page")
        #expect(thumb.bitmap.width == 181 && thumb.bitmap.height == 256)
        #expect(!thumb.isIcon)
    }

    // The two examples of MS-OXRTFCP 4.1 and 4.2, byte for byte: the second copies a run that
    // overlaps the bytes it writes.
    @Test func compressedRTFDecompressesAsTheSpecificationsExamples() throws {
        let simple: [UInt8] = [
            0x2d, 0x00, 0x00, 0x00, 0x2b, 0x00, 0x00, 0x00, 0x4c, 0x5a, 0x46, 0x75, 0xf1, 0xc5, 0xc7, 0xa7, 0x03, 0x00, 0x0a, 0x00,
            0x72, 0x63, 0x70, 0x67, 0x31, 0x32, 0x35, 0x42, 0x32, 0x0a, 0xf3, 0x20, 0x68, 0x65, 0x6c, 0x09, 0x00, 0x20, 0x62, 0x77,
            0x05, 0xb0, 0x6c, 0x64, 0x7d, 0x0a, 0x80, 0x0f, 0xa0,
        ]
        #expect(
            String(decoding: try CompressedRTF.decompress(simple[...], limit: 1 << 20), as: UTF8.self)
                == "{\\rtf1\\ansi\\ansicpg1252\\pard hello world}\r\n")
        let crossing: [UInt8] = [
            0x1a, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x4c, 0x5a, 0x46, 0x75, 0xe2, 0xd4, 0x4b, 0x51, 0x41, 0x00, 0x04, 0x20,
            0x57, 0x58, 0x59, 0x5a, 0x0d, 0x6e, 0x7d, 0x01, 0x0e, 0xb0,
        ]
        #expect(
            String(decoding: try CompressedRTF.decompress(crossing[...], limit: 1 << 20), as: UTF8.self)
                == "{\\rtf1 WXYZWXYZWXYZWXYZWXYZ}")
        // The raw size the header claims is an upper bound, never an allocation: 4 GiB claimed here.
        var lying = crossing
        lying.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try CompressedRTF.decompress(lying[...], limit: 1 << 20).count == 28)
        #expect(try CompressedRTF.decompress(crossing[...], limit: 10) == Array("{\\rtf1 WXY".utf8))
        let stored = [0x0D, 0, 0, 0, 5, 0, 0, 0, 0x4D, 0x45, 0x4C, 0x41, 0, 0, 0, 0] + Array("{\\rtf}".utf8)
        #expect(try CompressedRTF.decompress(stored[...], limit: 1 << 20) == Array("{\\rtf".utf8))
        #expect(throws: VignetteError(.unsupported, "the RTF body's compression is 0x0, neither LZFu nor MELA")) {
            try CompressedRTF.decompress([UInt8](repeating: 0, count: 20)[...], limit: 100)
        }
        #expect(throws: VignetteError(.unsupported, "the compressed RTF body is 5 bytes, shorter than its 16-byte header")) {
            try CompressedRTF.decompress([1, 2, 3, 4, 5][...], limit: 100)
        }
    }
}

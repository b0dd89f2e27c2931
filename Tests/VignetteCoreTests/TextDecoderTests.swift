import Foundation
import Testing

@testable import VignetteCore

/// The bytes of a file under the shared `Tests/Fixtures/text/` (the text previewer tests read the same files).
func textFixture(_ name: String) throws -> [UInt8] {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return Array(try Data(contentsOf: tests.appendingPathComponent("Fixtures/text/" + name)))
}

/// A real file, the encoding it is in, and a line of its text with non-ASCII characters.
struct KnownText: Sendable, CustomTestStringConvertible {
    let file: String
    let encoding: TextEncodingName
    let line: String
    init(_ file: String, _ encoding: TextEncodingName, _ line: String) {
        self.file = file
        self.encoding = encoding
        self.line = line
    }
    var testDescription: String { file }
}

@Suite("Text decoding")
struct TextDecoderTests {
    static let knownTexts: [KnownText] = [
        KnownText("cjk-big5.txt", .big5, "課題. 為加快開發及測試的速度, 我們便常希望能利用一些已開發好的"),
        KnownText("cjk-cp949.txt", .cp949, "똠방각하 펲시콜라"),
        KnownText("cjk-euc_jp.txt", .eucJP, "Python の開発は、1990 年ごろから開始されています。"),
        KnownText("cjk-gb18030.txt", .gb18030, "已经具有十多年的发展历史，成熟且稳定。这种语言具有非常简捷而清晰"),
        KnownText("cjk-hz.txt", .hzGB2312, "The next sentence is in GB.己所不欲，勿施於人。Bye."),
        KnownText("cjk-iso2022_jp.txt", .iso2022JP, "開発者の Guido van Rossum は教育用のプログラミング言語「ABC」の開発に参加していましたが"),
        KnownText("cjk-shift_jis.txt", .shiftJIS, "英国 BBS 放送のコメディ番組「モンティ パイソン」のファンである"),
        KnownText("tutor.el.cp737", .ibm737, "αντίγραφο αυτού του αρχείου για να εξασκηθείτε (αν ξεκινήσατε το"),
        KnownText("tutor.fr.utf-16be-bom.txt", .utf16BE, "Il est important de garder en tête que ce cours est conçu pour apprendre"),
        KnownText("tutor.ja.euc", .eucJP, "にコピーを作成しましょう(\"vimtutor\"したならば、既にコピーされています)。"),
        KnownText("tutor.ja.sjis", .shiftJIS, "このチュートリアルが、使うことで覚えられる仕組みになっていることを、心し"),
        KnownText("tutor.ja.utf-16le-nobom.txt", .utf16LE, "V I M 教 本 (チュートリアル) へ よ う こ そ"),
        KnownText("tutor.ja.utf-32le-bom.txt", .utf32LE, "1. カーソルは矢印キーもしくは hjkl キーで移動します。"),
        KnownText("tutor.ko.euc", .eucKR, "중요한 것은, 이 길잡이가 직접 써보면서 배우도록 고려되어 있다는 것입니다."),
        KnownText("tutor.pl.cp1250", .windows1250, "wcześniej kopię tego pliku do ćwiczeń (jeśli zacząłeś komendą"),
        KnownText("tutor.ru.cp1251", .windows1251, "копию этого файла, чтобы попрактиковаться на ней (если вы запустили"),
        KnownText("tutor.tr.iso9", .iso8859_9, "bu dosyanın bir kopyasını alın (eğer \"vimtutor\" uygulamasını"),
        KnownText("tutor.zh.big5", .big5, "好了，現在請確定您的Shift-Lock(大小寫鎖定鍵)還沒有按下，然後按鍵盤上"),
        KnownText("tutor.vi.utf-8", .utf8, "Hãy nhớ rằng hướng dẫn này viết với nguyên tắc \"học đi đôi với hành\"."),
    ]

    @Test(arguments: knownTexts)
    func detectsTheEncodingOfARealFileAndDecodesItsText(_ known: KnownText) throws {
        let bytes = try textFixture(known.file)
        let decoded = TextDecoder.decode(bytes[...], complete: true)
        #expect(decoded.encoding == known.encoding)
        #expect(decoded.text.contains(known.line))
        #expect(!decoded.text.contains("\r"))
        #expect(!decoded.text.hasPrefix("\u{FEFF}"))
    }

    @Test(arguments: knownTexts)
    func aSampleCutAnywhereKeepsItsEncodingAndEndsWithoutAReplacementCharacter(_ known: KnownText) throws {
        let bytes = try textFixture(known.file)
        // An odd length cuts multi-byte characters (and UTF-16/32 code units) in the middle.
        let head = bytes.prefix(bytes.count * 3 / 4 | 1)
        let decoded = TextDecoder.decode(head, complete: false)
        #expect(decoded.encoding == known.encoding)
        #expect(decoded.text.unicodeScalars.last != "\u{FFFD}")
    }

    @Test func theDamagedBig5TutorIsStillBig5AndSaysItHadInvalidBytes() throws {
        // vim's tutor.zh.big5 holds byte pairs that are in no Big5 variant (0x8F 0xFE …).
        let decoded = TextDecoder.decode(try textFixture("tutor.zh.big5")[...], complete: true)
        #expect(decoded.encoding == .big5)
        #expect(decoded.hadInvalidBytes)
        #expect(decoded.text.contains("j 鍵看\u{FFFD}"))
    }

    @Test func realFilesWithoutInvalidBytesSayTheyHadNone() throws {
        for file in ["tutor.ja.sjis", "tutor.ko.euc", "cjk-cp949.txt", "tutor.el.cp737", "tutor.ja.utf-16le-nobom.txt"] {
            let decoded = TextDecoder.decode(try textFixture(file)[...], complete: true)
            #expect(!decoded.hadInvalidBytes, "\(file)")
            #expect(!decoded.text.contains("\u{FFFD}"), "\(file)")
        }
    }

    @Test func aCRLFFileHasItsLinesNormalisedToLF() throws {
        // hanoi.vim ends one line with CR LF and uses bare CRs inside :map commands.
        let decoded = TextDecoder.decode(try textFixture("hanoi.vim")[...], complete: true)
        #expect(decoded.encoding == .ascii)
        #expect(decoded.lineEnding == .mixed)
        #expect(decoded.text.contains("map J /^0[^t]*$\nmap X x\n"))
        #expect(!decoded.text.contains("\r"))
    }

    @Test func strayControlBytesStayAndCRsBecomeLF() throws {
        let bytes = try textFixture("maze_mac")
        let decoded = TextDecoder.decode(bytes[...], complete: true)
        #expect(decoded.encoding == .ascii)
        #expect(decoded.lineEnding == .mixed)
        #expect(decoded.text.contains("map N   C/n\u{1B}\n"))
        #expect(decoded.text.contains("\u{16}"))
        #expect(!decoded.text.contains("\r"))
        #expect(!decoded.hadInvalidBytes)
    }

    @Test(arguments: [
        ("a\nb\nc", DecodedText.LineEnding.lf, "a\nb\nc"),
        ("a\r\nb\r\n", .crlf, "a\nb\n"),
        ("a\rb\rc", .cr, "a\nb\nc"),
        ("a\r\nb\nc\rd", .mixed, "a\nb\nc\nd"),
        ("a\r\n\r\nb", .crlf, "a\n\nb"),
        ("one line", .none, "one line"),
    ])
    func lineEndingsAreReportedAndNormalisedToLF(input: String, ending: DecodedText.LineEnding, output: String) {
        let decoded = TextDecoder.decode(Array(input.utf8)[...], complete: true)
        #expect(decoded.lineEnding == ending)
        #expect(decoded.text == output)
    }

    @Test func lineEndsAreNormalisedInUTF16Too() {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("é\r\nü\r\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let decoded = TextDecoder.decode(bytes[...], complete: true)
        #expect(decoded.encoding == .utf16LE)
        #expect(decoded.lineEnding == .crlf)
        #expect(decoded.text == "é\nü\n")
    }

    @Test func aCROnlyAtTheEndOfACutSampleDoesNotCountAsAMacLineEnd() {
        let decoded = TextDecoder.decode(Array("a\nb\r".utf8)[...], complete: false)
        #expect(decoded.lineEnding == .lf)
        #expect(decoded.text == "a\nb\n")
    }

    @Test func invalidBytesBecomeReplacementCharactersAndAreReported() {
        let decoded = TextDecoder.decode([0x61, 0xFF, 0x62, 0xC3, 0xA9][...], complete: true, hint: .utf8)
        #expect(decoded.text == "a\u{FFFD}bé")
        #expect(decoded.hadInvalidBytes)
        // 0x82 0x20: a Shift_JIS lead byte followed by a byte that cannot trail it.
        #expect(TextDecoder.decode([0x82, 0x20, 0x82, 0xA0][...], as: .shiftJIS) == "\u{FFFD} あ")
        let clean = TextDecoder.decode([0x82, 0xA0][...], complete: true, hint: .shiftJIS)
        #expect(clean.text == "あ")
        #expect(!clean.hadInvalidBytes)
    }

    @Test func anIncompleteSequenceAtTheEndOfACutSampleIsDropped() {
        let utf8 = Array("日本".utf8).dropLast()
        let cut = TextDecoder.decode(utf8, complete: false)
        #expect(cut.text == "日")
        #expect(!cut.hadInvalidBytes)
        // The same bytes as a whole file: the truncated character is an error.
        let whole = TextDecoder.decode(utf8, complete: true, hint: .utf8)
        #expect(whole.text == "日\u{FFFD}")
        #expect(whole.hadInvalidBytes)
        // A lone Shift_JIS lead byte, and half a UTF-16 code unit.
        #expect(TextDecoder.decode([0x82, 0xA0, 0x82][...], complete: false, hint: .shiftJIS).text == "あ")
        #expect(TextDecoder.decode([0x82, 0xA0, 0x82][...], as: .shiftJIS) == "あ\u{FFFD}")
        #expect(TextDecoder.decode([0x42, 0x30, 0x44][...], complete: false, hint: .utf16LE).text == "あ")
    }

    @Test func asciiStaysASCII() {
        let text = "plain text, tabs\tand symbols: ~{}[]$@ \u{1B}[1m bold \u{1B}[0m\n"
        let decoded = TextDecoder.decode(Array(text.utf8)[...], complete: true)
        #expect(decoded.encoding == .ascii)
        #expect(decoded.text == text)
        #expect(!decoded.hadInvalidBytes)
    }

    @Test func theHintOverridesDetection() throws {
        let bytes = try textFixture("tutor.pl.cp1250")
        let decoded = TextDecoder.decode(bytes[...], complete: true, hint: .windows1252)
        #expect(decoded.encoding == .windows1252)
        #expect(decoded.text.contains("wczeœniej kopiê"))
        #expect(TextDecoder.decode(bytes[...], complete: true).text.contains("wcześniej kopię"))
        // Any name iconv knows works as a hint.
        let koi8u = TextDecoder.decode([0xA4, 0xC1][...], complete: true, hint: TextEncodingName(rawValue: "KOI8-U"))
        #expect(koi8u.text == "єа")
    }

    @Test func westernEuropeanTextIsWindows1252() {
        // "Déjà vu à Noël : le cœur a ses raisons — « naïve » façade, Straße, año, São Paulo."
        let text: [UInt8] =
            Array("D".utf8) + [0xE9] + Array("j".utf8) + [0xE0] + Array(" vu ".utf8) + [0xE0]
            + Array(" No".utf8) + [0xEB] + Array("l : le c".utf8) + [0x9C] + Array("ur a ses raisons ".utf8) + [0x97]
            + Array(" ".utf8) + [0xAB] + Array(" na".utf8) + [0xEF] + Array("ve ".utf8) + [0xBB] + Array(" fa".utf8) + [0xE7]
            + Array("ade, Stra".utf8) + [0xDF] + Array("e, a".utf8) + [0xF1] + Array("o, S".utf8) + [0xE3] + Array("o Paulo.\n".utf8)
        let decoded = TextDecoder.decode(text[...], complete: true)
        #expect(decoded.encoding == .windows1252)
        #expect(decoded.text == "Déjà vu à Noël : le cœur a ses raisons — « naïve » façade, Straße, año, São Paulo.\n")
    }

    @Test func unicodeWithoutAByteOrderMarkIsRecognisedByItsCodeUnits() {
        let text = "Grüße aus Köln, 世界!\n"
        let utf16BE = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf32BE = text.unicodeScalars.flatMap { s in [24, 16, 8, 0].map { UInt8((s.value >> UInt32($0)) & 0xFF) } }
        let be16 = TextDecoder.decode(utf16BE[...], complete: true)
        #expect(be16.encoding == .utf16BE)
        #expect(be16.text == text)
        let be32 = TextDecoder.decode(utf32BE[...], complete: true)
        #expect(be32.encoding == .utf32BE)
        #expect(be32.text == text)
    }

    @Test func decodingWithAKnownEncodingDropsItsByteOrderMarkAndKeepsLineEnds() {
        #expect(TextDecoder.decode([0xEF, 0xBB, 0xBF, 0x61, 0x0D, 0x0A][...], as: .utf8) == "a\r\n")
        #expect(TextDecoder.decode([0xFE, 0xFF, 0x00, 0x61][...], as: .utf16BE) == "a")
        #expect(TextDecoder.decode([0xFE, 0xFF, 0x00, 0x61][...], as: .utf16LE) == "\u{FFFE}\u{6100}")
    }

    @Test func hzShiftsAndEscapesDecode() {
        // "~~" is a tilde, "~" before a line feed joins lines, "~{ … ~}" holds GB2312 pairs.
        let hz = Array("a~~b ~{<:Ky~} c~\nd".utf8)
        #expect(TextDecoder.decode(hz[...], as: .hzGB2312) == "a~b 己所 cd")
        #expect(TextDecoder.detect(hz[...], complete: true) == .hzGB2312)
        // Tildes and braces alone are not HZ.
        #expect(TextDecoder.detect(Array("x = ~{a, b}~ and ~}".utf8)[...], complete: true) == .ascii)
    }

    @Test func encodingNamesCompareCaseInsensitively() {
        #expect(TextEncodingName(rawValue: "utf-8") == .utf8)
        #expect(TextEncodingName(rawValue: "SHIFT_JIS").hashValue == TextEncodingName.shiftJIS.hashValue)
        #expect(TextEncodingName(rawValue: "EUC-JP") != .eucKR)
    }

    @Test func concurrentDecodesGiveTheSameResults() async throws {
        let files = ["tutor.ja.sjis", "tutor.ko.euc", "tutor.ru.cp1251", "cjk-iso2022_jp.txt", "tutor.zh.big5", "tutor.pl.cp1250"]
        let inputs = try files.map { try textFixture($0) }
        let expected = inputs.map { TextDecoder.decode($0[...], complete: true) }
        let results = await withTaskGroup(of: (Int, DecodedText).self) { group in
            for _ in 0..<4 {
                for (i, bytes) in inputs.enumerated() {
                    group.addTask { (i, TextDecoder.decode(bytes[...], complete: true)) }
                }
            }
            var all: [(Int, DecodedText)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == files.count * 4)
        for (i, decoded) in results { #expect(decoded == expected[i], "\(files[i])") }
    }
}

import Testing
import VignetteCore
import VignetteGenerators

/// A real file in some encoding, its line count and whole lines of its text.
struct EncodedText: Sendable, CustomTestStringConvertible {
    let file: String
    let title: String
    let lines: [String]
    init(_ file: String, title: String, _ lines: [String]) {
        self.file = file
        self.title = title
        self.lines = lines
    }
    var testDescription: String { file }
}

@Suite("Plain text in every detected encoding")
struct TextEncodingPreviewTests {
    static let files: [EncodedText] = [
        EncodedText(
            "cjk-big5.txt", title: "Plain text, Big5, 9 lines",
            ["如何在 Python 中使用既有的 C library?", "供使用. 目前有許許多多的 library 是以 C 寫成, 而 Python 是一個"]),
        EncodedText("cjk-cp949.txt", title: "Plain text, CP949, 9 lines", ["똠방각하 펲시콜라", "흐흐흐 ㄱㄱㄱ☆ㅠ_ㅠ 어릨 탸콰긐 뎌응 칑九들乙 ㉯드긐"]),
        EncodedText(
            "cjk-euc_jp.txt", title: "Plain text, EUC-JP, 7 lines",
            ["Python の開発は、1990 年ごろから開始されています。", "このような背景から生まれた Python の言語設計は、「シンプル」で「習得が容易」という目標に重点が置かれています。"]),
        EncodedText(
            "cjk-gb18030.txt", title: "Plain text, GB18030, 15 lines",
            ["Python（派森）语言是一种功能强大而完善的通用型计算机程序设计语言，", "課題. 為加快開發及測試的速度, 我們便常希望能利用一些已開發好的"]),
        EncodedText("cjk-hz.txt", title: "Plain text, HZ-GB-2312, 2 lines", ["The next sentence is in GB.己所不欲，勿施於人。Bye."]),
        EncodedText(
            "cjk-iso2022_jp.txt", title: "Plain text, ISO-2022-JP, 7 lines",
            ["Python の開発は、1990 年ごろから開始されています。", "このような背景から生まれた Python の言語設計は、「シンプル」で「習得が容易」という目標に重点が置かれています。"]),
        EncodedText(
            "cjk-shift_jis.txt", title: "Plain text, Shift_JIS, 7 lines",
            ["Python の開発は、1990 年ごろから開始されています。", "このような背景から生まれた Python の言語設計は、「シンプル」で「習得が容易」という目標に重点が置かれています。"]),
        EncodedText(
            "tutor.el.cp737", title: "Plain text, IBM737, 428 lines",
            [
                "=    Κ αλ ω σ ή ρ θ α τ ε    σ τ ο   V I M   T u t o r    -    Έκδοση 1.5     =",
                "\t   τον δρομέα όπως καθορίζεται στην λίστα αντικειμένων.",
            ]),
        EncodedText(
            "tutor.fr.utf-16be-bom.txt", title: "Plain text, UTF-16BE with BOM, 215 lines",
            [
                "     Vim est un éditeur très puissant qui a trop de commandes pour pouvoir",
                "     sur le premier caractère APRÈS l'endroit où insérer le texte.",
            ]),
        EncodedText(
            "tutor.ja.euc", title: "Plain text, EUC-JP, 493 lines",
            ["=    V I M 教 本 (チュートリアル) へ よ う こ そ        -    Version 1.7      =", "    w - カーソル位置から空白を含む単語の末尾まで。"]),
        EncodedText(
            "tutor.ja.sjis", title: "Plain text, Shift_JIS, 493 lines",
            ["=    V I M 教 本 (チュートリアル) へ よ う こ そ        -    Version 1.7      =", "    w - カーソル位置から空白を含む単語の末尾まで。"]),
        EncodedText(
            "tutor.ja.utf-16le-nobom.txt", title: "Plain text, UTF-16LE, 369 lines",
            ["=    V I M 教 本 (チュートリアル) へ よ う こ そ        -    Version 1.7      =", "さて、続けてレッスン 2 を始めましょう。"]),
        EncodedText(
            "tutor.ja.utf-32le-bom.txt", title: "Plain text, UTF-32LE with BOM, 170 lines",
            ["=    V I M 教 本 (チュートリアル) へ よ う こ そ        -    Version 1.7      =", "---> その ううさぎ は つつきき を こええてて とびはねたた"]),
        EncodedText(
            "tutor.ko.euc", title: "Plain text, EUC-KR, 485 lines",
            ["=    빔 길잡이 (VIM Tutor) 에 오신 것을 환영합니다    -      Version 1.7      =", "  삭제 명령 d의 형식은 다음과 같습니다."]),
        EncodedText(
            "tutor.pl.cp1250", title: "Plain text, windows-1250, 496 lines",
            [
                "     Vim to potężny edytor, który posiada wiele poleceń, zbyt dużo, by",
                "    w - do początku następnego wyrazu WYŁĄCZAJĄC pierwszy znak.",
            ]),
        EncodedText(
            "tutor.ru.cp1251", title: "Plain text, windows-1251, 468 lines",
            [
                "=   Д о б р о   п о ж а л о в а т ь   в   у ч е б н и к   VIM  --  версия 1.7 =",
                "  2. Переместите курсор вниз, к строке помеченной --->.",
            ]),
        EncodedText(
            "tutor.tr.iso9", title: "Plain text, ISO-8859-9, 496 lines",
            [
                "=     V I M   T u t o r ' a   h o ş   g e l d i n i z !    --    Sürüm 1.7     =",
                "    w - bir sonraki sözcüğün başlangıcına kadar, ilk karakteri DAHİL OLMADAN",
            ]),
        EncodedText(
            "tutor.vi.utf-8", title: "Plain text, UTF-8 with BOM, 403 lines",
            [
                "=    Xin chào mừng bạn đến với Hướng dẫn dùng Vim    -    Phiên bản 1.5      =",
                "CHÚ Ý:  Dành cho những người ham tìm hiểu, chỉ nhấn đối tượng trong chế độ Câu",
            ]),
        EncodedText(
            "tutor.zh.big5", title: "Plain text, Big5, 565 lines",
            ["=      歡     迎     閱     讀   《 V I M  教  程 》   ──     版本 1.5      =", "  3. 欲刪除整行，請輸入︰dd"]),
    ]

    @Test(arguments: files)
    func previewsTheRightCharactersWithTheEncodingInTheTitle(_ known: EncodedText) throws {
        let (result, generator) = try preview(try fixture("text/" + known.file), named: known.file)
        #expect(generator == "text")
        #expect(result.title == known.title)
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in known.lines {
            #expect(lines.contains(line))
        }
        #expect(!result.truncated)
        #expect(!result.text.contains("\u{FFFD}") || known.file == "tutor.zh.big5")
    }
}

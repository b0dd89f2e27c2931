/// What a DOCX's `word/styles.xml` and `word/numbering.xml` say that a text preview needs:
/// which paragraph styles are headings or lists, and how each list level is numbered.
struct WordprocessingStyles {
    /// A paragraph style's meaning for the preview.
    struct Style {
        /// Heading level (1 is the top) when the style is a heading or the title.
        var headingLevel: Int?
        /// The list the style puts its paragraphs in, if any.
        var numberingID: String?
        /// The style it is based on.
        var basedOn: String?
    }

    /// Paragraph styles by id.
    var styles: [String: Style] = [:]
    /// List (`w:num`) id to its abstract numbering id.
    var abstractOf: [String: String] = [:]
    /// Abstract numbering id to the number format (`bullet`, `decimal`…) of each level.
    var formats: [String: [Int: String]] = [:]

    /// Reads both parts from `package`; a missing part means no styles or no lists.
    init(_ package: OfficePackage) throws {
        if var reader = try package.xml("word/styles.xml") { try readStyles(&reader) }
        if var reader = try package.xml("word/numbering.xml") { try readNumbering(&reader) }
    }

    /// The heading level of style `id`, following `basedOn` a few steps.
    func headingLevel(_ id: String?) -> Int? {
        lookup(id) { $0.headingLevel }
    }

    /// The list of style `id`, following `basedOn` a few steps.
    func numbering(_ id: String?) -> String? {
        lookup(id) { $0.numberingID }
    }

    /// The number format of level `level` of list `numID` (`bullet` when unknown).
    func format(numID: String, level: Int) -> String {
        abstractOf[numID].flatMap { formats[$0]?[level] } ?? "bullet"
    }

    /// The first value `value` finds on style `id` or the styles it is based on.
    private func lookup<T>(_ id: String?, _ value: (Style) -> T?) -> T? {
        var id = id
        for _ in 0..<8 {
            guard let current = id, let style = styles[current] else { return nil }
            if let found = value(style) { return found }
            id = style.basedOn
        }
        return nil
    }

    /// The heading level a style name or id implies: `Title`, `heading 2`, `Heading2`, and
    /// OpenDocument's `Heading_20_2` (`_20_` is its escaped space).
    static func level(forName name: String) -> Int? {
        let lower = name.lowercased().replacingOccurrences(of: "_20_", with: "").replacingOccurrences(of: " ", with: "")
        if lower == "title" { return 1 }
        guard lower.hasPrefix("heading"), let n = Int(lower.dropFirst(7)), (1...9).contains(n) else { return nil }
        return n
    }

    /// Reads the paragraph styles: heading levels from names and outline levels, lists, bases.
    private mutating func readStyles(_ reader: inout XMLTokenizer) throws {
        var id: String? = nil
        var style = Style()
        while let event = try reader.next() {
            switch event {
            case .start(let tag):
                switch tag.name {
                case "style":
                    id = tag.attribute("type") == "paragraph" ? tag.attribute("styleId") : nil
                    style = Style(headingLevel: id.flatMap(Self.level(forName:)))
                case "name": if let name = tag.attribute("val"), let n = Self.level(forName: name) { style.headingLevel = n }
                case "outlineLvl":
                    if let n = tag.attribute("val").flatMap(Int.init), n < 9 { style.headingLevel = style.headingLevel ?? n + 1 }
                case "numId": style.numberingID = tag.attribute("val")
                case "basedOn": style.basedOn = tag.attribute("val")
                default: break
                }
            case .end("style"):
                if let id { styles[id] = style }
                id = nil
            default: break
            }
        }
    }

    /// Reads each list's abstract numbering and each level's number format.
    private mutating func readNumbering(_ reader: inout XMLTokenizer) throws {
        var abstract: String? = nil
        var num: String? = nil
        var level = 0
        while let event = try reader.next() {
            guard case .start(let tag) = event else { continue }
            switch tag.name {
            case "abstractNum": abstract = tag.attribute("abstractNumId")
            case "lvl": level = tag.attribute("ilvl").flatMap(Int.init) ?? 0
            case "numFmt":
                if let abstract, let format = tag.attribute("val") { formats[abstract, default: [:]][level] = format }
            case "num":
                num = tag.attribute("numId")
                abstract = nil
            case "abstractNumId": if let num, let value = tag.attribute("val") { abstractOf[num] = value }
            default: break
            }
        }
    }

    /// The marker of a list item in `format` that is number `n` (from 1) of its level.
    static func marker(format: String, n: Int) -> String {
        switch format {
        case "bullet": "•"
        case "none": ""
        case "lowerLetter": OfficeDocument.columnName(n - 1).lowercased() + "."
        case "upperLetter": OfficeDocument.columnName(n - 1) + "."
        case "lowerRoman": roman(n).lowercased() + "."
        case "upperRoman": roman(n) + "."
        default: "\(n)."
        }
    }

    /// `n` in Roman numerals (as digits past 3999).
    private static func roman(_ n: Int) -> String {
        guard n > 0, n < 4000 else { return String(n) }
        let table: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var n = n
        var out = ""
        for (value, letters) in table {
            while n >= value {
                out += letters
                n -= value
            }
        }
        return out
    }
}

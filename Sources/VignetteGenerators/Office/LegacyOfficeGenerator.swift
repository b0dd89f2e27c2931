public import VignetteCore

/// Previews of legacy Office files (`.doc`, `.xls`, `.ppt`, OLE2 compound files): their
/// document properties, then the text of a Word document, the first sheets of a workbook or
/// the slides of a presentation.
///
/// When the structure cannot be read, the strings visible in the main stream are shown
/// instead: runs of UTF-16 and of ASCII text, in file order.
public struct LegacyOfficeGenerator: BuiltInGenerator, PreviewGenerating {
    /// `office-legacy`.
    public let identifier = "office-legacy"
    /// Word, Excel and PowerPoint 97–2003.
    public let supportedTypes = ["com.microsoft.word.doc", "com.microsoft.excel.xls", "com.microsoft.powerpoint.ppt"]
    /// Most bytes of the main stream searched for strings.
    static let maxScannedBytes = 4 << 20
    /// The main stream of each format, in the order tried.
    static let mainStreams = ["WordDocument", "Workbook", "Book", "PowerPoint Document"]

    /// Creates the generator.
    public init() {}

    /// The properties as `Label: value` lines, then the text (the strings of the main stream
    /// when its structure cannot be read), cut at the request's limits.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let document = try Self.document(of: input, budget: max(request.maxBytes, 1), properties: true, strings: true)
        let (text, html, truncated) = document.rendered(maxBytes: request.maxBytes, maxLines: request.maxLines)
        let protection = document.protection.map { ["protected by a password (\($0))"] } ?? []
        let title = ([input.type.localizedDescription] + protection + document.summary).joined(separator: ", ")
        return TextPreview(title: title, text: text, html: html, truncated: truncated)
    }

    /// The document in `input`, read until `budget` characters are held: its properties as
    /// `Label: value` items first when `properties`, then its text; when the structure of the
    /// main stream cannot be read, its strings under a heading if `strings`, else nothing more.
    /// A document saved with a password says so first, and its text is not read.
    static func document(of input: GeneratorInput, budget: Int, properties: Bool, strings: Bool) throws -> OfficeDocument {
        let file = try CompoundFile(try input.randomAccess())
        guard let (name, main) = try Self.mainStreams.lazy.compactMap({ name in try file.stream(name).map { (name, $0) } }).first
        else {
            throw VignetteError(.declined, "no WordDocument, Workbook or PowerPoint Document stream in the compound file")
        }
        var document = OfficeDocument(budget: budget)
        switch name {
        case "WordDocument": document.protection = try LegacyEncryption.word(file, word: main.bytes)
        case "PowerPoint Document": break
        default: document.protection = LegacyEncryption.workbook(main.bytes)
        }
        if let cipher = document.protection { document.append(.paragraph(LegacyEncryption.headline(cipher))) }
        // Document properties stay readable unless the writer chose to encrypt them too.
        let fields =
            properties ? try file.stream("\u{5}SummaryInformation", limit: 64 << 10).map { SummaryInformation($0.bytes).fields } ?? [] : []
        let width = fields.map(\.label.count).max() ?? 0
        for field in fields {
            let padding = String(repeating: " ", count: width - field.label.count + 1)
            document.append(.listItem(level: 0, marker: "", text: field.label + ":" + padding + field.value))
        }
        if document.protection != nil { return document }
        let before = document.blocks.count
        switch name {
        case "WordDocument":
            for paragraph in try LegacyWordReader.paragraphs(file, word: main.bytes) ?? [] {
                document.append(.paragraph(paragraph))
                if document.isFull { break }
            }
        case "PowerPoint Document":
            let slides = LegacyPowerPointReader.slides(main.bytes)
            document.summary.append(CountText.counted(slides.count, "slide"))
            for (number, slide) in slides.enumerated() where !document.isFull {
                document.append(.heading(level: 2, text: OfficeDocument.slideHeading(number: number + 1, title: slide.title)))
                for line in slide.body { document.append(.paragraph(line)) }
            }
        default: LegacyExcelReader(main.bytes).read(into: &document)
        }
        if strings, document.blocks.count == before {
            document.append(.heading(level: 2, text: "Strings in \(name)"))
            var seen: Set<String> = []
            for string in Self.strings(Array(main.bytes.prefix(Self.maxScannedBytes))) where seen.insert(string).inserted {
                document.append(.paragraph(string))
                if document.isFull { break }
            }
        }
        if !main.whole { document.cut = true }
        return document
    }

    /// Runs of text in `bytes`, in file order: ASCII runs of four or more characters, else
    /// UTF-16LE runs of three or more in one script; each at least half letters.
    ///
    /// ASCII is tried first: read as UTF-16, a pair of ASCII letters looks like a CJK ideograph.
    static func strings(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var i = 0
        func keep(_ scalars: String.UnicodeScalarView) -> Bool {
            let letters = scalars.filter(\.properties.isAlphabetic).count
            guard letters * 2 >= scalars.count else { return false }
            let text = OfficeDocument.flattened(String(scalars))
            if !text.isEmpty { out.append(OfficeDocument.cell(text)) }
            return true
        }
        while i < bytes.count {
            var run = String.UnicodeScalarView()
            var j = i
            while j < bytes.count, bytes[j] == 0x09 || (bytes[j] >= 0x20 && bytes[j] < 0x7F) {
                run.append(Unicode.Scalar(bytes[j]))
                j += 1
            }
            if run.count >= 4, keep(run) {
                i = j
                continue
            }
            run = String.UnicodeScalarView()
            j = i
            var runScript = 0
            while j + 1 < bytes.count {
                let unit = UInt32(bytes[j]) | UInt32(bytes[j + 1]) << 8
                guard let script = Self.script(unit), script == 0 || runScript == 0 || script == runScript,
                    let scalar = Unicode.Scalar(unit)
                else { break }
                if script != 0 { runScript = script }
                run.append(scalar)
                j += 2
            }
            // Latin text read one byte off looks like a run of units ending in a zero byte.
            let shifted = run.filter { $0.value >= 0x100 && $0.value & 0xFF == 0 }.count
            if run.count >= 3, shifted * 2 < run.count, keep(run) {
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    /// The script of a UTF-16 unit for the string scan: 0 for Latin, spaces and punctuation, a
    /// number per other script, nil for what is unlikely in text (controls, symbols, rare blocks).
    static func script(_ unit: UInt32) -> Int? {
        switch unit {
        case 0x09, 0x20...0x7E, 0xA0...0x24F, 0x2010...0x2027, 0x2030...0x205E: 0
        case 0x370...0x3FF: 1
        case 0x400...0x4FF: 2
        case 0x590...0x5FF: 3
        case 0x600...0x6FF: 4
        case 0x3000...0x30FF, 0x4E00...0x9FFF, 0xFF00...0xFFEF: 5
        case 0xAC00...0xD7A3: 6
        default: nil
        }
    }
}

public import VignetteCore

/// Previews of CSV and TSV: the separator sniffed, the records as an aligned text table and an
/// HTML table with the first record as header, cut at 200 rows and 30 columns.
public struct CSVGenerator: BuiltInGenerator, PreviewGenerating {
    /// `csv`.
    public let identifier = "csv"
    /// CSV and TSV.
    public let supportedTypes = ["public.comma-separated-values-text", "public.tab-separated-values-text"]
    /// Most data rows shown.
    public static let maxRows = 200
    /// Most columns shown.
    public static let maxColumns = 30

    /// Creates the generator.
    public init() {}

    /// "CSV table, 3 columns × 120 rows" (rows not counting the header) with the table.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        let isTSV = input.type.identifier == "public.tab-separated-values-text"
        let expected: Unicode.Scalar = isTSV ? "\t" : ","
        let delimiter = CSVTable.sniffDelimiter(excerpt.text, preferred: expected)
        // The text table spends two lines on the header and its underline.
        let rowLimit = min(Self.maxRows, max(1, request.maxLines - 3)) + 1
        let table = CSVTable(excerpt.text, delimiter: delimiter, keepRows: rowLimit, keepColumns: Self.maxColumns)

        var title = isTSV ? "TSV table" : "CSV table"
        if delimiter != expected { title += " (\(CSVTable.delimiterName(delimiter)))" }
        let dataRows = max(table.recordCount - 1, 0)
        let rowText = excerpt.cutAtBytes ? "\(CountText.grouped(dataRows))+ rows" : CountText.counted(dataRows, "row")
        title += table.recordCount == 0 ? ", empty" : ", \(CountText.counted(table.columnCount, "column")) × \(rowText)"

        var cuts: [String] = []
        let shownRows = min(dataRows, rowLimit - 1)
        if shownRows < dataRows {
            cuts.append("\(CountText.grouped(shownRows)) of \(excerpt.cutAtBytes ? rowText : CountText.counted(dataRows, "row"))")
        }
        if table.columnCount > Self.maxColumns {
            cuts.append("\(CountText.grouped(Self.maxColumns)) of \(CountText.counted(table.columnCount, "column"))")
        }
        if let byteCut = excerpt.byteCutDescription { cuts.append("the \(byteCut)") }
        let marker = cuts.isEmpty ? nil : "… cut: showing " + cuts.joined(separator: " and ")

        var lines = table.text(rowLimit: rowLimit, columnLimit: Self.maxColumns)
        if let marker { lines.append(marker) }
        var html = table.html(rowLimit: rowLimit, columnLimit: Self.maxColumns)
        if let marker { html += "<p class=\"vignette-cut\">\(HTML.escape(marker))</p>\n" }
        return TextPreview(title: title, text: lines.joined(separator: "\n"), html: html, truncated: marker != nil)
    }
}

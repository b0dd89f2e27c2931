/// The records of delimiter-separated text (RFC 4180 quoting, ragged rows allowed), of which
/// only the first rows and columns are kept, and how many there were in all.
struct CSVTable {
    /// Longest cell kept, in Unicode scalars; the rest is dropped and the cell marked with `…`.
    static let maxCellLength = 1_000

    /// The kept records (the first `keepRows`), each cut to `keepColumns` cells.
    var rows: [[String]] = []
    /// All records in the text, the first (header) included.
    var recordCount = 0
    /// Most fields in any record.
    var columnCount = 0
    /// The field separator.
    var delimiter: Unicode.Scalar

    /// Parses `text`, keeping `keepRows` records of at most `keepColumns` cells.
    ///
    /// A field that starts with `"` runs to the next lone `"` (`""` is a quote), across line
    /// breaks; text after the closing quote is kept (tolerant of sloppy writers); a quote that
    /// never closes runs to the end. CR LF and CR were already turned into LF by the decoder.
    init(_ text: String, delimiter: Unicode.Scalar, keepRows: Int, keepColumns: Int) {
        self.delimiter = delimiter
        var record: [String] = []
        var fields = 0
        var field = String.UnicodeScalarView()
        var fieldLength = 0
        var inQuotes = false
        var atFieldStart = true
        var pendingQuote = false
        var recordHasContent = false

        func endField() {
            if fields < keepColumns && recordCount < keepRows {
                if fieldLength > Self.maxCellLength { field.append("…") }
                record.append(String(field))
            }
            fields += 1
            field = String.UnicodeScalarView()
            fieldLength = 0
            atFieldStart = true
        }
        func endRecord() {
            endField()
            if recordCount < keepRows { rows.append(record) }
            recordCount += 1
            columnCount = max(columnCount, fields)
            record = []
            fields = 0
            recordHasContent = false
        }
        func append(_ s: Unicode.Scalar) {
            fieldLength += 1
            if fieldLength <= Self.maxCellLength { field.append(s) }
        }

        for s in text.unicodeScalars {
            if inQuotes {
                if pendingQuote {
                    pendingQuote = false
                    if s == "\"" { append(s); continue }
                    inQuotes = false  // the quote closed the field; handle `s` below
                } else if s == "\"" {
                    pendingQuote = true
                    continue
                } else {
                    append(s)
                    continue
                }
            }
            recordHasContent = true
            if s == delimiter {
                endField()
            } else if s == "\n" {
                endRecord()
            } else if s == "\"" && atFieldStart {
                inQuotes = true
                atFieldStart = false
            } else {
                atFieldStart = false
                append(s)
            }
        }
        if recordHasContent || inQuotes || fields > 0 { endRecord() }
    }
}

extension CSVTable {
    /// Separators tried, in order of preference on a tie.
    static let candidateDelimiters: [Unicode.Scalar] = [",", ";", "\t", "|"]
    /// Characters of the text sniffing looks at.
    static let sniffLength = 16 << 10
    /// Records sniffing looks at.
    static let sniffRecords = 20

    /// The separator most records agree on: for each candidate, how many of the first records
    /// have the most common field count (above one); most agreeing records win, then more fields,
    /// then `preferred`, then the order of `candidateDelimiters`.
    static func sniffDelimiter(_ text: String, preferred: Unicode.Scalar) -> Unicode.Scalar {
        let sample = String(String.UnicodeScalarView(text.unicodeScalars.prefix(sniffLength)))
        let sampleIsCut = text.utf8.count > sample.utf8.count
        var best: (delimiter: Unicode.Scalar, agreeing: Int, fields: Int) = (preferred, 0, 0)
        let order = [preferred] + candidateDelimiters.filter { $0 != preferred }
        for candidate in order {
            var table = CSVTable(sample, delimiter: candidate, keepRows: sniffRecords + 1, keepColumns: Int.max)
            // The last record may be cut by the sample's end.
            if table.recordCount > 1 && sampleIsCut { table.rows.removeLast() }
            let counts = table.rows.prefix(sniffRecords).map(\.count)
            var frequency: [Int: Int] = [:]
            for c in counts where c > 1 { frequency[c, default: 0] += 1 }
            guard let mode = frequency.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            if mode.value > best.agreeing || (mode.value == best.agreeing && mode.key > best.fields) {
                best = (candidate, mode.value, mode.key)
            }
        }
        return best.delimiter
    }

    /// The separator's name as a title gives it ("semicolon-separated").
    static func delimiterName(_ delimiter: Unicode.Scalar) -> String {
        switch delimiter {
        case ",": "comma-separated"
        case ";": "semicolon-separated"
        case "\t": "tab-separated"
        case "|": "pipe-separated"
        default: "separated by U+\(String(delimiter.value, radix: 16, uppercase: true))"
        }
    }
}

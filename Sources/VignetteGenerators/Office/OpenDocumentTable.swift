/// An OpenDocument table being read: repeated rows and columns (`number-rows-repeated`,
/// `number-columns-repeated`, which spreadsheets use for millions of empty cells) are counted
/// arithmetically and only expanded within the caps.
final class OpenDocumentTable {
    /// Most rows or columns one element may stand for (spreadsheet grids are 2^20 rows by 2^14
    /// columns), so the arithmetic cannot overflow.
    static let maxRepeat = 1 << 20
    /// The reader's depth at the table's start tag, to skip the rest of it.
    let depth: Int
    /// The kept rows and the table's size so far.
    var table: OfficeDocument.Table
    /// Paragraphs open when the current cell started: only the cell's own paragraphs go into it.
    private(set) var cellParagraphDepth = 0
    private var row: [String] = []
    private var rowRepeat = 1
    private var rowIndex = 0
    private var column = 0
    private var cell: [String]? = nil
    private var cellRepeat = 1

    /// A table whose start tag left the reader at `depth`.
    init(depth: Int, labelled: Bool) {
        self.depth = depth
        table = OfficeDocument.Table(labelled: labelled)
    }

    /// Whether a cell is open.
    var inCell: Bool { cell != nil }

    /// Whether the kept rows are at the cap.
    var isFull: Bool { table.rows.count >= OfficeDocument.maxRows }

    /// A row starts, standing for `repeated` identical rows.
    func startRow(repeated: Int) {
        row = []
        column = 0
        rowRepeat = min(max(1, repeated), Self.maxRepeat)
    }

    /// A cell starts, standing for `repeated` identical cells, with `depth` paragraphs open.
    func startCell(repeated: Int, depth: Int) {
        cell = []
        cellRepeat = min(max(1, repeated), Self.maxRepeat)
        cellParagraphDepth = depth
    }

    /// A paragraph of the open cell.
    func addParagraph(_ text: String) {
        cell?.append(text)
    }

    /// The open cell ends: kept (repeated up to the column cap) when it has text.
    func endCell() {
        guard let paragraphs = cell else { return }
        cell = nil
        let text = OfficeDocument.cell(paragraphs.joined(separator: "\n"))
        defer { column += cellRepeat }
        guard !text.isEmpty else { return }
        table.columnCount = max(table.columnCount, column + cellRepeat)
        while row.count < min(column, OfficeDocument.maxColumns) { row.append("") }
        while row.count < min(column + cellRepeat, OfficeDocument.maxColumns) { row.append(text) }
    }

    /// The open row ends: kept (repeated up to the row cap) when it has text.
    func endRow() {
        defer { rowIndex += rowRepeat }
        guard !row.isEmpty else { return }
        table.rowCount = rowIndex + rowRepeat
        // Empty rows between two with content stay as empty rows.
        while table.rows.count < rowIndex, !isFull { table.rows.append([]) }
        for _ in 0..<min(rowRepeat, OfficeDocument.maxRows) where !isFull { table.rows.append(row) }
        row = []
    }
}

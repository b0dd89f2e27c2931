import VignetteCore

/// The first sheets of an Excel 97–2003 workbook (BIFF8 records in the `Workbook` stream): sheet
/// names, the shared strings, and the text, number, boolean and cached formula cells of each sheet,
/// numbers shown through their cell format like XLSX.
struct LegacyExcelReader {
    private let stream: [UInt8]
    private var strings: [String] = []
    private var sheets: [(name: String, offset: Int)] = []
    private var codes: [Int: String] = [:]
    private var styleFormats: [Int] = []
    private var uses1904 = false

    /// Reads the workbook globals of `stream`.
    init(_ stream: [UInt8]) {
        self.stream = stream
        var sst: [ArraySlice<UInt8>] = []
        var inSST = false
        forEachRecord(from: 0) { type, body in
            switch type {
            case 0x0085 where body.count >= 8:
                sheets.append((Self.shortString(body.dropFirst(6)), Int(CompoundFile.u32(body, 0))))
            case 0x041E where body.count >= 5:
                codes[Int(CompoundFile.u16(body, 0))] = Self.longString(body.dropFirst(2))
            case 0x00E0 where body.count >= 4: styleFormats.append(Int(CompoundFile.u16(body, 2)))
            case 0x0022 where body.count >= 2: uses1904 = CompoundFile.u16(body, 0) == 1
            case 0x00FC: sst = [body]
            case 0x003C where inSST: sst.append(body)
            default: break
            }
            inSST = type == 0x00FC || (inSST && type == 0x003C)
            return type != 0x000A
        }
        strings = Self.sharedStrings(sst)
    }

    /// Reads up to `OfficeDocument.maxSheets` sheets into `document`.
    func read(into document: inout OfficeDocument) {
        var formats = SpreadsheetFormats(codes: codes, styleFormats: styleFormats)
        formats.uses1904 = uses1904
        document.summary.append(
            CountText.counted(sheets.count, "sheet") + (sheets.isEmpty ? "" : ": " + SpreadsheetReader.list(sheets.map(\.name))))
        for sheet in sheets.prefix(OfficeDocument.maxSheets) {
            document.append(.heading(level: 2, text: sheet.name))
            var table = OfficeDocument.Table(labelled: true)
            var cells: [Int: [Int: String]] = [:]
            func put(_ row: Int, _ column: Int, _ value: String) {
                guard !value.isEmpty else { return }
                table.rowCount = max(table.rowCount, row + 1)
                table.columnCount = max(table.columnCount, column + 1)
                if row < OfficeDocument.maxRows && column < OfficeDocument.maxColumns { cells[row, default: [:]][column] = value }
            }
            forEachRecord(from: sheet.offset) { type, b in
                guard b.count >= 6 else { return type != 0x000A }
                let row = Int(CompoundFile.u16(b, 0))
                let column = Int(CompoundFile.u16(b, 2))
                let style = Int(CompoundFile.u16(b, 4))
                switch type {
                case 0x00FD where b.count >= 10:
                    let index = Int(CompoundFile.u32(b, 6))
                    put(row, column, index < strings.count ? strings[index] : "…")
                case 0x0203 where b.count >= 14: put(row, column, formats.display(String(Self.double(b, 6)), style: style))
                case 0x027E where b.count >= 10: put(row, column, formats.display(String(Self.rk(CompoundFile.u32(b, 6))), style: style))
                case 0x00BD:
                    var c = column
                    var at = 4
                    while at + 6 <= b.count - 2, c < column + 256 {
                        put(row, c, formats.display(String(Self.rk(CompoundFile.u32(b, at + 2))), style: Int(CompoundFile.u16(b, at))))
                        at += 6
                        c += 1
                    }
                case 0x0205 where b.count >= 8:
                    put(row, column, b[b.startIndex + 7] == 0 ? (b[b.startIndex + 6] == 0 ? "FALSE" : "TRUE") : "#ERROR")
                case 0x0006 where b.count >= 14 && CompoundFile.u16(b, 12) != 0xFFFF:
                    put(row, column, formats.display(String(Self.double(b, 6)), style: style))
                case 0x0204 where b.count >= 9: put(row, column, Self.longString(b.dropFirst(6)))
                default: break
                }
                return type != 0x000A
            }
            table.rows = (0..<min(table.rowCount, OfficeDocument.maxRows)).map { row in
                let kept = cells[row] ?? [:]
                let width = (kept.keys.max() ?? -1) + 1
                return (0..<width).map { kept[$0] ?? "" }
            }
            if table.rows.isEmpty { document.append(.paragraph("(empty)")) } else { document.append(.table(table)) }
        }
        if sheets.count > OfficeDocument.maxSheets { document.cut = true }
    }

    /// Calls `body` with each record's type and data from `offset` until it returns false.
    private func forEachRecord(from offset: Int, _ body: (UInt16, ArraySlice<UInt8>) -> Bool) {
        var p = offset
        var count = 0
        while p >= 0, p + 4 <= stream.count, count < 4_000_000 {
            let type = CompoundFile.u16(stream[...], p)
            let length = Int(CompoundFile.u16(stream[...], p + 2))
            let end = min(stream.count, p + 4 + length)
            guard body(type, stream[(p + 4)..<end]) else { return }
            p = end
            count += 1
        }
    }

    /// The little-endian IEEE double at `at` of `b`.
    private static func double(_ b: ArraySlice<UInt8>, _ at: Int) -> Double {
        Double(bitPattern: UInt64(CompoundFile.u32(b, at)) | UInt64(CompoundFile.u32(b, at + 4)) << 32)
    }

    /// An RK number: 30 bits of integer or of the top of a double, maybe divided by 100.
    private static func rk(_ raw: UInt32) -> Double {
        let value = raw & 2 != 0 ? Double(Int32(bitPattern: raw) >> 2) : Double(bitPattern: UInt64(raw & 0xFFFF_FFFC) << 32)
        return raw & 1 != 0 ? value / 100 : value
    }

    /// Characters after a flags byte: UTF-16 when bit 0 is set, else one byte each.
    private static func characters(_ b: ArraySlice<UInt8>, count: Int, wide: Bool) -> (String, Int) {
        let n = min(count, wide ? b.count / 2 : b.count)
        if wide { return (String(decoding: (0..<n).map { CompoundFile.u16(b, 2 * $0) }, as: UTF16.self), 2 * n) }
        return (String(String.UnicodeScalarView(b.prefix(n).map { Unicode.Scalar($0) })), n)
    }

    /// A `ShortXLUnicodeString`: a one-byte length, a flags byte, the characters.
    private static func shortString(_ b: ArraySlice<UInt8>) -> String {
        guard b.count >= 2 else { return "" }
        return characters(b.dropFirst(2), count: Int(b[b.startIndex]), wide: b[b.startIndex + 1] & 1 != 0).0
    }

    /// An `XLUnicodeString`: a two-byte length, a flags byte, the characters.
    private static func longString(_ b: ArraySlice<UInt8>) -> String {
        guard b.count >= 3 else { return "" }
        return characters(b.dropFirst(3), count: Int(CompoundFile.u16(b, 0)), wide: b[b.startIndex + 2] & 1 != 0).0
    }

    /// The shared strings of an SST record and its CONTINUE records; a string cut by a record
    /// boundary goes on after a new flags byte.
    private static func sharedStrings(_ segments: [ArraySlice<UInt8>]) -> [String] {
        guard var segment = segments.first, segment.count >= 8 else { return [] }
        var next = 1
        let unique = min(Int(CompoundFile.u32(segment, 4)), SpreadsheetReader.maxSharedStrings)
        segment = segment.dropFirst(8)
        var out: [String] = []
        func advance() -> Bool {
            guard next < segments.count else { return false }
            segment = segments[next]
            next += 1
            return true
        }
        while out.count < unique {
            if segment.count < 3, !advance() { break }
            guard segment.count >= 3 else { break }
            var remaining = Int(CompoundFile.u16(segment, 0))
            let flags = segment[segment.startIndex + 2]
            segment = segment.dropFirst(3)
            let runs = flags & 8 != 0 && segment.count >= 2 ? Int(CompoundFile.u16(segment, 0)) : 0
            if flags & 8 != 0 { segment = segment.dropFirst(2) }
            let extra = flags & 4 != 0 && segment.count >= 4 ? Int(CompoundFile.u32(segment, 0)) : 0
            if flags & 4 != 0 { segment = segment.dropFirst(4) }
            var wide = flags & 1 != 0
            var text = ""
            while remaining > 0 {
                if segment.isEmpty {
                    guard advance(), !segment.isEmpty else { break }
                    wide = segment[segment.startIndex] & 1 != 0
                    segment = segment.dropFirst()
                }
                let (part, used) = characters(segment, count: remaining, wide: wide)
                text += part
                remaining -= part.unicodeScalars.count > 0 ? (wide ? used / 2 : used) : remaining
                segment = segment.dropFirst(used)
            }
            var skip = 4 * runs + extra
            while skip > 0 {
                if segment.isEmpty, !advance() { break }
                let n = min(skip, segment.count)
                segment = segment.dropFirst(n)
                skip -= n
            }
            out.append(OfficeDocument.cell(text))
        }
        return out
    }
}

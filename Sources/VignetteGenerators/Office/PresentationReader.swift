import VignetteCore

/// Reads a PPTX as one section per slide: slides in the order of `ppt/presentation.xml`, each
/// a heading with its title (the `title` or `ctrTitle` placeholder) and the text of its other
/// shapes and tables; speaker notes are left out.
struct PresentationReader {
    /// Most slides read.
    static let maxSlides = 500

    /// Reads the slides of `package` into `document`.
    static func read(_ package: OfficePackage, into document: inout OfficeDocument) throws {
        var presentation = try package.requiredXML("ppt/presentation.xml")
        var ids: [String] = []
        while let event = try presentation.next() {
            if case .start(let tag) = event, tag.name == "sldId", let id = tag.prefixedAttribute("id") { ids.append(id) }
        }
        let targets = try package.relationships(of: "ppt/presentation.xml")
        document.summary.append(CountText.counted(ids.count, "slide"))
        for (number, id) in ids.prefix(maxSlides).enumerated() {
            guard !document.isFull else {
                document.cut = true
                break
            }
            guard let target = targets[id], var reader = try package.xml(target) else {
                document.append(.heading(level: 2, text: "Slide \(number + 1)"))
                document.append(.paragraph("(the slide's part is missing)"))
                continue
            }
            try slide(&reader, number: number + 1, into: &document)
        }
    }

    /// One shape's text: its paragraphs, and whether it is the title placeholder.
    private struct Shape {
        var isTitle = false
        var paragraphs: [String] = []
        var paragraph: String? = nil
    }

    /// Reads one slide part: its title placeholder, its other shapes' paragraphs and its tables.
    private static func slide(_ reader: inout XMLTokenizer, number: Int, into document: inout OfficeDocument) throws {
        var title: [String] = []
        var body: [OfficeDocument.Block] = []
        var shape = Shape()
        var table: OfficeDocument.Table? = nil
        var row: [String]? = nil
        var cell: [String]? = nil
        while let event = try reader.next() {
            switch event {
            case .start(let tag):
                switch tag.name {
                case "sp": shape = Shape()
                case "ph": shape.isTitle = ["title", "ctrTitle"].contains(tag.attribute("type") ?? "")
                case "p": shape.paragraph = ""
                case "t": shape.paragraph? += try reader.textContent(limit: OfficeDocument.maxCellLength * 8)
                case "br": shape.paragraph? += "\n"
                case "tbl": table = OfficeDocument.Table()
                case "tr": row = []
                case "tc": cell = []
                // Alternate content repeats itself in its fallback.
                case "Fallback": try reader.skipElement()
                default: break
                }
            case .end(let name):
                switch name {
                case "p":
                    guard let text = shape.paragraph.map(OfficeDocument.flattened), !text.isEmpty else { break }
                    shape.paragraph = nil
                    if cell != nil { cell!.append(text) } else { shape.paragraphs.append(text) }
                case "sp":
                    if shape.isTitle { title += shape.paragraphs } else { body += shape.paragraphs.map { .paragraph($0) } }
                    shape.paragraphs = []
                case "tc":
                    if let text = cell?.joined(separator: "\n") { row?.append(OfficeDocument.cell(text)) }
                    cell = nil
                case "tr":
                    if let kept = row, table != nil {
                        table!.rowCount += 1
                        table!.columnCount = max(table!.columnCount, kept.count)
                        if table!.rows.count < OfficeDocument.maxRows { table!.rows.append(Array(kept.prefix(OfficeDocument.maxColumns))) }
                    }
                    row = nil
                case "tbl":
                    if let done = table { body.append(.table(done)) }
                    table = nil
                default: break
                }
            case .text: break
            }
        }
        document.append(.heading(level: 2, text: OfficeDocument.slideHeading(number: number, title: title)))
        for block in body { document.append(block) }
    }
}

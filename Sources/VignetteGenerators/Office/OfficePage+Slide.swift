import VignetteCore
import VignetteImaging

extension OfficePage {
    /// Width over height of a slide.
    static let slideAspect = 16.0 / 9.0
    /// Lines of body text a slide holds: the body font is its height over this.
    static let slideLines = 16.0
    /// Items drawn of a slide's body.
    static let maxSlideItems = 12

    /// The first slide, 16:9: a title slide (a title and at most a short subtitle) centred, any
    /// other slide with its title at the top and its text as bullets below.
    static func slide(_ document: OfficeDocument, targetPixels: Int, fonts: Fonts) throws -> Bitmap {
        var page = PageSheet(targetPixels: targetPixels, aspect: slideAspect, linesPerPage: slideLines)
        let W = Double(page.canvas.width), H = Double(page.canvas.height)
        let (title, body) = firstSlide(document)
        let margin = (W * 0.07).rounded()
        let bodySize = max(1, Int(H / slideLines))
        if body.count <= 1, (body.first?.count ?? 0) <= 80 {
            let titleSize = max(1, Int(H / 9))
            let titleLines = try wrap(title, font: fonts.bold, size: titleSize, width: W - 2 * margin, maxLines: 3)
            let subtitleLines = try wrap(body.first ?? "", font: fonts.regular, size: bodySize, width: W - 2 * margin, maxLines: 2)
            let titleHeight = try (fonts.bold.metrics(size: titleSize).lineHeight * 1.1).rounded()
            let subtitleHeight = try (fonts.regular.metrics(size: bodySize).lineHeight * 1.1).rounded()
            let gap = subtitleLines.isEmpty ? 0 : Double(bodySize)
            let total = Double(titleLines.count) * titleHeight + gap + Double(subtitleLines.count) * subtitleHeight
            var flow = Flow(left: margin, right: W - margin, y: ((H - total) / 2).rounded(), bottom: H - margin / 2)
            try flow.paragraph(title, font: fonts.bold, size: titleSize, color: ink, centred: true, on: &page.canvas)
            flow.y += gap
            try flow.paragraph(body.first ?? "", font: fonts.regular, size: bodySize, color: muted, centred: true, on: &page.canvas)
            return page.finished()
        }
        var flow = Flow(left: margin, right: W - margin, y: (H * 0.08).rounded(), bottom: (H * 0.93).rounded())
        try flow.paragraph(title, font: fonts.bold, size: max(1, Int(H / 11)), color: ink, on: &page.canvas)
        flow.y += (H * 0.04).rounded()
        for item in body.prefix(maxSlideItems) where !flow.isFull {
            try flow.paragraph(
                item, font: fonts.regular, size: bodySize, color: ink, indent: Double(bodySize) * 1.3, marker: "•", on: &page.canvas)
            flow.y += Double(bodySize) * 0.3
        }
        return page.finished()
    }

    /// The title and the text items of the document's first slide (everything, when no block
    /// is a slide heading); a table's rows are items with their cells joined.
    static func firstSlide(_ document: OfficeDocument) -> (title: String, body: [String]) {
        var title = ""
        var body: [String] = []
        var inSlide = false
        let hasSlides = document.blocks.contains { block in
            if case .heading(_, let text) = block { return OfficeDocument.slideTitle(inHeading: text) != nil }
            return false
        }
        for block in document.blocks {
            if case .heading(_, let text) = block, let found = OfficeDocument.slideTitle(inHeading: text) {
                if inSlide { break }
                inSlide = true
                title = found
                continue
            }
            guard inSlide || !hasSlides, body.count < maxSlideItems else { continue }
            switch block {
            case .heading(_, let text), .paragraph(let text), .listItem(_, _, let text): body.append(text)
            case .table(let table):
                body += table.rows.prefix(maxSlideItems).map { $0.filter { !$0.isEmpty }.joined(separator: "  ") }.filter { !$0.isEmpty }
            }
        }
        return (title, Array(body.prefix(maxSlideItems)))
    }
}

import VignetteCore

/// The listing of an archive: its entries as a tree with sizes and totals, as text and HTML.
struct ArchiveListing {
    /// The archive's kind for the title ("ZIP archive").
    var kind: String
    /// The name shown at the root of the tree.
    var rootName: String
    /// The entries read, in archive order.
    var entries: [ArchiveEntry]
    /// Compressed bytes, for the totals; nil for an uncompressed archive.
    var compressedSize: Int?
    /// Why the listing is incomplete ("listing stopped after 10,000 entries…"), if it is.
    var note: String?

    /// Renders the listing, showing at most `maxShown` entries of the tree.
    func preview(maxShown: Int) -> TextPreview {
        let tree = ArchiveTree(entries)
        let total = entries.reduce(UInt64(0)) { $0.addingReportingOverflow($1.kind == .directory ? 0 : $1.size).partialValue }
        let atLeast = entries.contains { $0.sizeIsLowerBound } ? "at least " : ""
        let size = "\(atLeast)\(ByteCount.text(Int(clamping: total)))" + (compressedSize == nil ? "" : " uncompressed")
        let files = CountText.counted(tree.fileCount, "file")
        var totals = "\(files), \(CountText.counted(tree.directoryCount, "directory", plural: "directories")), \(size)"
        if let compressedSize { totals += " (\(ByteCount.text(compressedSize)) compressed)" }

        var renderer = Renderer(budget: max(0, maxShown))
        renderer.text = ArchiveListing.clean(rootName) + "\n"
        renderer.html =
            "<ul class=\"vignette-tree\">\n<li><span class=\"vignette-root\">\(HTML.escape(ArchiveListing.clean(rootName)))</span>\n"
        renderer.render(tree.root, prefix: "")
        renderer.html += "</li>\n</ul>\n"
        let hidden = tree.nodeCount - renderer.shown
        var notes: [String] = []
        if hidden > 0 { notes.append("… \(CountText.grouped(hidden)) more \(hidden == 1 ? "entry" : "entries") not shown") }
        if let note { notes.append("(\(note))") }

        var text = renderer.text + "\n" + totals
        var html = renderer.html + "<p class=\"vignette-totals\">\(HTML.escape(totals))</p>\n"
        for line in notes {
            text += "\n" + line
            html += "<p class=\"vignette-note\">\(HTML.escape(line))</p>\n"
        }
        var title = "\(kind), \(files), \(size)"
        if note != nil { title += ", partial listing" }
        return TextPreview(title: title, text: text + "\n", html: html, truncated: !notes.isEmpty)
    }

    /// Draws the tree, `tree`-style, until the budget of shown nodes runs out.
    private struct Renderer {
        var budget: Int
        var shown = 0
        var text = ""
        var html = ""

        mutating func render(_ node: ArchiveTree.Node, prefix: String) {
            guard !node.children.isEmpty else { return }
            html += "<ul>\n"
            for (index, child) in node.children.enumerated() {
                guard shown < budget else { break }
                shown += 1
                let last = index == node.children.count - 1
                let label = ArchiveListing.label(child)
                text += prefix + (last ? "└── " : "├── ") + label + "\n"
                html += "<li>" + HTML.escape(label)
                if child.isDirectory, !child.children.isEmpty {
                    html += "\n"
                    render(child, prefix: prefix + (last ? "    " : "│   "))
                }
                html += "</li>\n"
            }
            html += "</ul>\n"
        }
    }

    /// "docs/", "a.txt (1.2 KB)", "link -> target".
    static func label(_ node: ArchiveTree.Node) -> String {
        let name = clean(node.name)
        if node.isDirectory { return name + "/" }
        guard let entry = node.entry else { return name }
        switch entry.kind {
        case .file, .directory:
            return "\(name) (\(entry.sizeIsLowerBound ? "at least " : "")\(ByteCount.text(Int(clamping: entry.size))))"
        case .symlink(let target): return "\(name) -> \(clean(target))"
        case .hardlink(let target): return "\(name) (hard link to \(clean(target)))"
        case .special(let what): return "\(name) (\(what))"
        }
    }

    /// `text` with control characters and bidirectional overrides shown as `?` (as `ls` does), so
    /// a hostile name cannot drive a terminal or disguise its extension; cut after `maxNameScalars`.
    static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for (index, scalar) in text.unicodeScalars.enumerated() {
            // A name can be 64 KiB long (GNU long names): show enough to recognise it.
            guard index < maxNameScalars else {
                out.append("…")
                break
            }
            let bidi =
                (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || scalar.value == 0x200E || scalar.value == 0x200F
            out.append(scalar.properties.generalCategory == .control || bidi ? "?" : scalar)
        }
        return String(out)
    }

    /// Most characters of one name or link target shown.
    static let maxNameScalars = 1024
}

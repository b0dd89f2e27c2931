public import VignetteCore

/// Previews of JSON: pretty-printed with keys in their order; invalid JSON as written, with
/// the position of the first error in the title and a marker line.
public struct JSONGenerator: BuiltInGenerator, PreviewGenerating {
    /// `json`.
    public let identifier = "json"
    /// JSON and the formats built on it (GeoJSON, notebooks, glTF).
    public let supportedTypes = ["public.json"]

    /// Creates the generator.
    public init() {}

    /// "JSON object, 3 keys" with the pretty-printed text, or "JSON (invalid: …)" with the source.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        let output = JSONPrettyPrinter.format(excerpt.text, maxLines: request.maxLines, complete: !excerpt.cutAtBytes)
        let name = input.type.identifier == "public.json" ? nil : CountText.capitalizedFirst(input.type.localizedDescription)
        if let failure = output.failure, !(failure.atEnd && excerpt.cutAtBytes) {
            try excerpt.declineIfBinary()
            let page = excerpt.page(maxLines: request.maxLines)
            let what = failure.reason.hasPrefix("nesting") ? "not formatted" : "invalid"
            let marker = "… \(what == "invalid" ? "invalid JSON" : "JSON not formatted"): \(failure.message)"
            let title = name.map { "\($0) (\(what) JSON: \(failure.message))" } ?? "JSON (\(what): \(failure.message))"
            let html = "<p class=\"vignette-error\">\(HTML.escape(marker))</p>\n" + page.html(language: "json")
            return TextPreview(title: title, text: marker + "\n" + page.text, html: html, truncated: page.truncated)
        }
        var page = TextPage(output.text, maxLines: request.maxLines, knownLines: output.lines)
        if excerpt.cutAtBytes {
            // The document goes on past the bytes read: say so after what was printed.
            page = TextPage(
                output.text, maxLines: request.maxLines, byteCut: (excerpt.bytesShown, excerpt.fileSize), knownLines: output.lines)
        }
        var title = "JSON " + summary(output, cut: excerpt.cutAtBytes)
        if let cut = excerpt.byteCutDescription { title += ", \(cut)" }
        if let name { title = "\(name), \(title)" }
        return TextPreview(title: title, text: page.text, html: page.html(language: "json"), truncated: page.truncated)
    }

    /// "object, 3 keys", "array, 10 items", "string"; no count when the document was cut.
    func summary(_ output: JSONPrettyPrinter.Output, cut: Bool) -> String {
        let kind = output.topKind ?? "document"
        guard !cut else { return kind }
        switch kind {
        case "object": return "object, " + CountText.counted(output.topCount, "key")
        case "array": return "array, " + CountText.counted(output.topCount, "item")
        default: return kind
        }
    }
}

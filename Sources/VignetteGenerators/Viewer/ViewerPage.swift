import Foundation
public import VignetteCore
import VignetteImaging

/// One self-contained HTML page previewing any file: thumbnail inline, text preview, metadata.
///
/// Nothing is fetched: the thumbnail is a `data:` PNG, the style is inline, there is no script;
/// the page's own Content-Security-Policy says so to the browser too.
public enum ViewerPage {
    /// The policy of every page: nothing fetched but `data:` images, inline style only, no
    /// script, no form, no base URL, no framing (the service sends it as a header as well).
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The page for `input`: the best thumbnail and preview the pipelines give (the fallback's at worst).
    public static func render(
        _ input: GeneratorInput, thumbnails: ThumbnailPipeline, previews: PreviewPipeline,
        thumbnail thumbnailRequest: ThumbnailRequest = ThumbnailRequest(maxPixelSize: 512),
        preview previewRequest: PreviewRequest = PreviewRequest()
    ) -> String {
        let registry = thumbnails.registry
        let name = input.filename ?? "(upload)"
        var thumbHTML = ""
        var thumbBy = ""
        if let (rendered, png) = try? thumbnails.make(input, request: thumbnailRequest, output: ThumbnailOutput(format: .png)) {
            let bitmap = rendered.thumbnail.bitmap
            thumbBy = rendered.generator
            thumbHTML =
                "<img class=\"thumb\" alt=\"thumbnail of \(HTML.escape(name))\" width=\"\(bitmap.width)\" height=\"\(bitmap.height)\" src=\"data:image/png;base64,\(Data(png).base64EncodedString())\">"
        }
        var body = ""
        var previewBy = ""
        var title = name
        do {
            let rendered = try previews.render(input, request: previewRequest)
            previewBy = rendered.generator
            title = rendered.preview.title
            body = rendered.preview.html
        } catch {
            body = "<p class=\"error\">\(HTML.escape("\(error)"))</p>"
        }
        let facts = FileFacts(input, catalog: registry.catalog).rows
            .map { "<tr><th>\(HTML.escape(String($0.0.dropLast())))</th><td>\(HTML.escape($0.1))</td></tr>" }
            .joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="vignette">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <title>\(HTML.escape(name))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header><h1>\(HTML.escape(name))</h1><p class="subtitle">\(HTML.escape(title))</p></header>
            <main>
            <aside>\(thumbHTML)
            <table class="facts">
            \(facts)
            <tr><th>Thumbnail by</th><td>\(HTML.escape(thumbBy))</td></tr>
            <tr><th>Preview by</th><td>\(HTML.escape(previewBy))</td></tr>
            </table></aside>
            <section class="preview">
            \(body)
            </section>
            </main>
            </body>
            </html>

            """
    }

    static let style = """
        body{font:15px/1.45 "DejaVu Sans",system-ui,sans-serif;margin:0;color:#1d2330;background:#f4f6f9}\
        header{background:#1d2330;color:#fff;padding:14px 24px}h1{margin:0;font-size:20px;word-break:break-all}\
        .subtitle{margin:4px 0 0;color:#b8c2d3}main{display:flex;gap:24px;padding:24px;align-items:flex-start}\
        aside{flex:0 0 320px}.thumb{max-width:100%;height:auto;background:#fff;border:1px solid #d5dbe5;\
        box-shadow:0 1px 3px #0002}table{border-collapse:collapse;font-size:13px;margin-top:12px}\
        th{text-align:left;padding:2px 10px 2px 0;color:#5a6577;vertical-align:top;white-space:nowrap}\
        td{word-break:break-all}.preview{flex:1;min-width:0;background:#fff;border:1px solid #d5dbe5;padding:16px}\
        pre{font:13px/1.4 "DejaVu Sans Mono",monospace;overflow:auto;white-space:pre}\
        .preview table{font-size:13px}.preview td,.preview th{border:1px solid #d5dbe5;padding:2px 6px}\
        dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;font-size:13px;margin:0 0 12px}\
        dl.facts dt{color:#5a6577}dl.facts dd{margin:0;word-break:break-word}\
        figure.picture{margin:0 0 12px}figure.picture img{max-width:100%;height:auto}\
        .preview pre.vignette-mail-body{white-space:pre-wrap;word-break:break-word}
        """
}

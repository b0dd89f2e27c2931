import Foundation
import VignetteCache
import VignetteCore
import VignetteGenerators

/// The `--contact-sheet` page: every thumbnail of the batch with its file name, in one HTML file.
enum ContactSheet {
    static let header = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Vignette contact sheet</title>
        <style>
        body{font:14px system-ui,sans-serif;margin:1.5em;background:#f4f4f4;color:#222}
        .grid{display:flex;flex-wrap:wrap;gap:12px}
        figure{margin:0;width:200px;background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px;text-align:center}
        figure img{max-width:184px;max-height:184px}
        figcaption{word-break:break-all;font-size:12px;margin-top:6px}
        .none{height:120px;display:flex;align-items:center;justify-content:center;color:#888}
        .failed{border-color:#d33}.failed .none{color:#d33}
        </style></head><body><h1>Vignette contact sheet</h1><div class="grid">

        """

    /// One figure: the thumbnail (linked relative to the page when below its folder) and the name.
    static func cell(for outcome: BatchOutcome, relativeTo directory: String?) -> String {
        let name = HTML.escape(outcome.path)
        let note: String
        switch outcome.result {
        case .failed: note = "failed: " + HTML.escape(outcome.error ?? "")
        case .icon: note = "no preview: generic icon"
        case .knownFailure: note = "failed earlier (--retry-failed)"
        default: note = ""
        }
        var picture = "<div class=\"none\">\(outcome.result == .failed ? "failed" : "no thumbnail")</div>"
        if let thumbnail = outcome.thumbnail {
            picture = "<img loading=\"lazy\" src=\"\(HTML.escape(link(to: thumbnail, from: directory)))\" alt=\"\">"
        }
        let cls = outcome.result == .failed ? " class=\"failed\"" : ""
        let caption = note.isEmpty ? name : "\(name)<br><small>\(note)</small>"
        return "<figure\(cls)>\(picture)<figcaption>\(caption)</figcaption></figure>\n"
    }

    /// The page's end, with the summary numbers.
    static func footer(summary: [String: Any]) -> String {
        let files = summary["files"] as? Int ?? 0
        return "</div><p>\(CountText.counted(files, "file")).</p></body></html>\n"
    }

    /// A relative URL when `path` is below `directory`, else (or with no directory) a `file://` URI.
    static func link(to path: String, from directory: String?) -> String {
        let absolute = SourceFile.absolute(path)
        guard let directory else { return FileURI.string(forAbsolutePath: absolute) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        if absolute.hasPrefix(prefix) {
            let relative = String(absolute.dropFirst(prefix.count))
            // Escaped like a URI path: "#" or "?" in a name must not end the path.
            return String(FileURI.string(forAbsolutePath: "/" + relative).dropFirst("file:///".count))
        }
        return FileURI.string(forAbsolutePath: absolute)
    }
}

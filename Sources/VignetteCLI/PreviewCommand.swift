import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators

/// `vignette preview FILE...`: text previews of any file.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Print a text or HTML preview of files of any kind.",
        discussion: """
            The generator for the file's content type writes the preview: text in its detected \
            encoding, pretty JSON, CSV as a table, Markdown; the text of PDFs, Office and \
            OpenDocument files and e-mail; archive and package listings; the facts of images, \
            audio, video, fonts and executables. A file nothing \
            understands gets the viewer's facts sheet: name, size, type and its conformance \
            chain, MIME type, modification time, permissions, a hex dump and printable strings. \
            Long content is cut at --max-bytes / --max-lines with a visible marker.

            With several files, each text preview starts with a `==> FILE <==` line (like head). \
            A FILE of - is standard input, typed by its content (and by --stdin-name's extension).

            Examples:
              vignette preview notes.txt
              vignette preview --format html data.csv > table.html
              vignette preview --format json --max-bytes 4096 mystery.bin
              vignette preview --stdin-name invoice.docx - < attachment.bin
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, html, json
    }

    @Option(name: [.short, .customLong("format")], parsing: .unconditional, help: "Output: text, html (a fragment) or json.")
    var format: Format = .text

    @Option(name: .long, parsing: .unconditional, help: "Most bytes of each file to show.")
    var maxBytes = 64 << 10

    @Option(name: .long, parsing: .unconditional, help: "Most lines to show.")
    var maxLines = 2000

    @Flag(name: .long, help: "Fail instead of showing the facts sheet when no generator can preview the file.")
    var noFallback = false

    @Option(name: .long, parsing: .unconditional, help: StandardInput.nameHelp)
    var stdinName: String?

    @OptionGroup var registryOptions: RegistryOptions

    @Argument(help: ArgumentHelp("Files of any kind (- for standard input).", valueName: "FILE"))
    var files: [String]

    func validate() throws {
        try StandardInput.validate(files, name: stdinName)
        guard maxBytes >= 1 else { throw ValidationError("--max-bytes must be at least 1, not \(maxBytes)") }
        guard maxLines >= 1 else { throw ValidationError("--max-lines must be at least 1, not \(maxLines)") }
    }

    func run() throws {
        let thumbnails = ThumbnailPipeline(registry: try registryOptions.makeRegistry())
        let previews = PreviewPipeline(registry: thumbnails.registry)
        let request = PreviewRequest(maxBytes: maxBytes, maxLines: maxLines)
        let out = OutputBuffer()
        var failed = false
        var objects: [[String: Any]] = []
        var printed = 0
        for path in files {
            do {
                let input = try StandardInput.input(
                    path, name: stdinName, limit: registryOptions.imageLimits.maxFileBytes, resolver: thumbnails.resolver)
                let rendered = try previews.render(input, request: request, allowFallback: !noFallback)
                let preview = rendered.preview
                if let problem = rendered.problem {
                    out.flush()
                    Diagnostics.warn(path: path, "\(problem); showed the facts sheet instead")
                }
                switch format {
                case .text:
                    if files.count > 1 { out.write((printed > 0 ? "\n" : "") + "==> \(path) <==\n") }
                    printed += 1
                    out.write(preview.text)
                    if !preview.text.hasSuffix("\n") { out.write("\n") }
                case .html:
                    out.write(preview.html)
                    if !preview.html.hasSuffix("\n") { out.write("\n") }
                case .json:
                    var object = rendered.jsonFields
                    object["path"] = path
                    object["mime"] = rendered.mimeType
                    object["attempts"] = rendered.attempts.map(\.description)
                    objects.append(object)
                }
            } catch {
                failed = true
                out.flush()
                Diagnostics.report(error)
                if format == .json { objects.append(["path": path, "error": Diagnostics.jsonObject(error)]) }
            }
        }
        if format == .json { out.write(JSONOutput.string(files.count == 1 && !objects.isEmpty ? objects[0] : objects) + "\n") }
        out.flush()
        if failed { throw ExitCode(1) }
    }
}

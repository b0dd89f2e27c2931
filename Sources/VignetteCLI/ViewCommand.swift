import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators

/// `vignette view FILE`: one self-contained HTML page previewing any file.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write one self-contained HTML page previewing a file of any kind.",
        discussion: """
            The page holds the thumbnail (inline, as a data: URL), the preview (a table for \
            CSV, rendered Markdown, text, an archive listing, or the facts sheet with a hex dump \
            for files nothing understands) and the file's metadata. It fetches nothing and runs \
            no script, so it can be mailed or opened anywhere. A FILE of - is standard input \
            (a mail client's attachment piped in), typed by its content and by --stdin-name; its \
            page is stdin.html unless -o says otherwise.

            Examples:
              vignette view attachment.bin                 writes ./attachment.bin.html
              vignette view report.csv -o /tmp/report.html
              vignette view notes.md -o - | w3m -T text/html
              vignette view --stdin-name invoice.bin - -o - < attachment | w3m -T text/html
            """
    )

    @Option(
        name: [.short, .customLong("output")], parsing: .unconditional, help: "The page to write, or - for stdout (default: ./NAME.html).")
    var output: String?

    @Option(name: [.short, .customLong("size")], parsing: .unconditional, help: "Thumbnail size in pixels.")
    var size = 512

    @Option(name: .long, parsing: .unconditional, help: StandardInput.nameHelp)
    var stdinName: String?

    @OptionGroup var registryOptions: RegistryOptions

    @Argument(help: ArgumentHelp("A file of any kind (- for standard input).", valueName: "FILE"))
    var file: String

    func validate() throws {
        try StandardInput.validate([file], name: stdinName)
        try OptionBounds.nonEmpty(output, "-o", give: "a file, or - for standard output")
        try OptionBounds.within(size, 16...4096, "--size")
    }

    func run() throws {
        let thumbnails = ThumbnailPipeline(registry: try registryOptions.makeRegistry())
        let previews = PreviewPipeline(registry: thumbnails.registry)
        let input = try StandardInput.input(
            file, name: stdinName, limit: registryOptions.imageLimits.maxFileBytes, resolver: thumbnails.resolver)
        let page = ViewerPage.render(input, thumbnails: thumbnails, previews: previews, thumbnail: ThumbnailRequest(maxPixelSize: size))
        let destination = output ?? (StandardInput.outputName(of: file, name: stdinName) + ".html")
        if destination == "-" {
            FileHandle.standardOutput.write(Data(page.utf8))
            return
        }
        if ProtectedFiles([file]).contains(destination) {
            throw VignetteError(.invalidRequest, path: file, "the page \(destination) would overwrite the file itself")
        }
        try OutputFile.write(Array(page.utf8), to: destination)
        print("wrote \(destination)")
    }
}

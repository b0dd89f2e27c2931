import ArgumentParser
import Foundation
import VignetteCore

/// `vignette`: previews and thumbnails for any file.
struct VignetteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vignette",
        abstract: "Previews and thumbnails for any file: Quick Look for Linux.",
        discussion: """
            Vignette works out a file's content type (Apple's uniform type identifiers, with \
            conformance) from its bytes and name, then previews it.

            Examples:
              vignette type photo.jpg notes.txt    identify files
              vignette type --mime ~/Downloads/*   PATH<TAB>MIME lines
              vignette types --tree                the type hierarchy
              vignette thumbnail -o thumbs/ *.jpg  256-pixel thumbnails
              vignette preview data.csv            a text preview (a table)
              vignette view mystery.bin            a self-contained HTML page for any file
              vignette which photo.jpg             which generator answers, and why
              vignette generators                  every generator, its types and limits
              vignette batch ~/Pictures            fill the desktop's thumbnail cache
              vignette serve --root ~/Pictures     the HTTP service
              vignette thumbnailer-service         the desktop's D-Bus thumbnailer
            """,
        version: VignetteVersion.string,
        subcommands: [
            TypeCommand.self, TypesCommand.self, ThumbnailCommand.self, PreviewCommand.self, ViewCommand.self,
            WhichCommand.self, GeneratorsCommand.self, BatchCommand.self, CacheCommand.self, ServeCommand.self, SignCommand.self,
            HealthcheckCommand.self, ThumbnailerServiceCommand.self,
        ]
    )
}

@main
enum Main {
    static func main() async {
        InterruptCleanup.install()
        do {
            var command = try VignetteCommand.parseAsRoot()
            // Concrete casts: `as? any AsyncParsableCommand` made the runtime scan every
            // conformance record in the program for each command that is not async.
            if let serve = command as? ServeCommand {
                try await serve.run()
            } else if var root = command as? VignetteCommand {
                try root.run()
            } else {
                try command.run()
            }
        } catch let error as VignetteError {
            Diagnostics.report(error)
            Foundation.exit(error.exitCode.rawValue)
        } catch {
            let code = VignetteCommand.exitCode(for: error)
            if code == .validationFailure {
                // Usage errors exit 2, like most Unix tools (ArgumentParser would use 64).
                let message = VignetteCommand.fullMessage(for: error)
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(2)
            }
            VignetteCommand.exit(withError: error)
        }
    }
}

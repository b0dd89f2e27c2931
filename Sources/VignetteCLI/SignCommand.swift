import ArgumentParser
import Foundation
import VignetteServer

/// `vignette sign`: a URL with the signature `vignette serve --signing-key-file` asks for.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print a URL signed for a vignette serve that requires signatures.",
        discussion: """
            Appends sig=…, the HMAC-SHA256 (base64url) of the URL's path and query as given, \
            under the first key of --key-file. Give the URL exactly as it will be requested \
            (percent-encoding included): the server checks the bytes it receives. A full URL \
            keeps its scheme and host; a path with its query is signed alone.

            Examples:
              vignette sign --key-file /etc/vignette/keys \\
                'http://127.0.0.1:8080/v1/thumbnail?path=cat.jpg&size=256'
              vignette sign --key-file keys '/view?path=reports/q3.pdf'
            """
    )

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The signing keys (the first one signs).", valueName: "FILE"))
    var keyFile: String

    @Argument(help: "The URL, or a path with its query.")
    var url: String

    func run() throws {
        let signing: URLSigning
        do { signing = try URLSigning(keyFile: keyFile) } catch {
            Diagnostics.report(error)
            throw ExitCode(1)
        }
        var prefix = ""
        var target = url
        if let scheme = url.range(of: "://") {
            guard let slash = url[scheme.upperBound...].firstIndex(of: "/") else {
                throw ValidationError("the URL has no path to sign: \(url)")
            }
            prefix = String(url[..<slash])
            target = String(url[slash...])
        }
        guard target.hasPrefix("/") else { throw ValidationError("give a URL or a path starting with /, not \(url)") }
        if target.contains("?sig=") || target.contains("&sig=") { throw ValidationError("the URL is signed already: \(url)") }
        print(prefix + signing.sign(target))
    }
}

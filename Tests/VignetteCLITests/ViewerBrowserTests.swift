import Foundation
import Testing
import VignetteCore
import VignetteImaging

/// `vignette view` pages rendered by a real browser: headless Chromium (Debian `chromium`,
/// installed by `make test` / .ci/run), as a user would open them.
@Suite("vignette view in Chromium", .serialized)
struct ViewerBrowserTests {
    let root = CLI.packageRoot

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Flags for a root-run, display-less, deterministic browser.
    static let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--mute-audio"]

    /// Each sample, the generator rows the page must show, and a piece of its own content.
    @Test(arguments: [
        ("photo.jpg", "<th>Preview by</th><td>image</td>", "<dt>Size</dt><dd>640 × 400 pixels (0.3 MP)</dd>"),
        ("report.pdf", "<th>Preview by</th><td>pdf-document</td>", "<dt>Title</dt><dd>Quarterly thumbnail report</dd>"),
        ("report.docx", "<th>Preview by</th><td>office</td>", "Vignette report"),
        ("budget.xlsx", "<th>Preview by</th><td>office</td>", "<td>812004</td>"),
        ("message.eml", "<th>Preview by</th><td>mail</td>", "Bonjour à tous"),
        ("notes.txt", "<th>Preview by</th><td>text</td>", "Vignette sample notes"),
        ("data.csv", "<th>Preview by</th><td>csv</td>", "<th>population</th>"),
        ("guide.md", "<th>Preview by</th><td>markdown</td>", "Vignette guide</h1>"),
        ("unknown.bin", "<th>Preview by</th><td>fallback</td>", "00000000  a3 1c 06 bd"),
    ])
    func aPageShowsItsTitleAndIsNotBlank(sample: String, generator: String, expected: String) throws {
        let browser = try #require(Self.chromium, "chromium is not installed (apt-get install chromium; make test installs it)")
        let dir = try CLI.tempDirectory()
        let page = dir + "/\(sample).html"
        let made = try CLI.run(["view", "Samples/\(sample)", "-o", page], currentDirectory: root)
        #expect(made.status == 0)
        #expect(made.stdout == "wrote \(page)\n")

        let dom = try CLI.runProgram(browser, Self.flags + ["--dump-dom", "file://" + page], deadline: 120)
        #expect(dom.status == 0)
        #expect(dom.stdout.contains("<title>\(sample)</title>"))
        #expect(dom.stdout.contains("<h1>\(sample)</h1>"))
        #expect(dom.stdout.contains(generator))
        #expect(dom.stdout.contains(expected))

        let shot = dir + "/\(sample).png"
        let r = try CLI.runProgram(
            browser, Self.flags + ["--window-size=1000,700", "--screenshot=" + shot, "file://" + page], deadline: 120)
        #expect(r.status == 0)
        let png = try FileSample.readContents(ofFile: shot, limit: 64 << 20)
        let image = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 4096)) }.bitmap
        #expect(image.width == 1000 && image.height == 700)
        // Not blank: the page has a dark header, a light body and many colours in between.
        var colours = Set<UInt32>()
        var dark = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let (r, g, b) = (UInt32(image.pixels[i]), UInt32(image.pixels[i + 1]), UInt32(image.pixels[i + 2]))
            colours.insert(r << 16 | g << 8 | b)
            if r + g + b < 150 { dark += 1 }
        }
        #expect(colours.count > 50, "the screenshot of \(sample) has only \(colours.count) colours")
        #expect(dark > 10_000, "the screenshot of \(sample) has no dark header or text (\(dark) dark pixels)")
        // Kept for people to look at (the previous run's copy is replaced).
        let kept = NSTemporaryDirectory() + "vignette-view-\(sample).png"
        try? FileManager.default.removeItem(atPath: kept)
        try? FileManager.default.copyItem(atPath: shot, toPath: kept)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs ffmpeg (make test installs it)"))
    func aVideosPageShowsAFrameAndItsFacts() throws {
        let browser = try #require(Self.chromium, "chromium is not installed (apt-get install chromium; make test installs it)")
        let dir = try CLI.tempDirectory()
        let video = dir + "/clip.webm"
        let made = try CLI.runProgram(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=2", "-c:v", "libvpx", "-metadata",
                "title=Test card",
                video,
            ], deadline: 120)
        #expect(made.status == 0, "\(made.stderr)")
        let page = dir + "/clip.html"
        #expect(try CLI.run(["view", video, "-o", page]).status == 0)
        let dom = try CLI.runProgram(browser, Self.flags + ["--dump-dom", "file://" + page], deadline: 120)
        #expect(dom.stdout.contains("<th>Thumbnail by</th><td>media</td>"))
        #expect(dom.stdout.contains("<th>Preview by</th><td>media</td>"))
        #expect(dom.stdout.contains("Test card"))
        let shot = dir + "/clip.png"
        let r = try CLI.runProgram(
            browser, Self.flags + ["--window-size=1000,700", "--screenshot=" + shot, "file://" + page], deadline: 120)
        #expect(r.status == 0)
        // The frame in the thumbnail is the test card's colour bars: many saturated colours.
        let png = try FileSample.readContents(ofFile: shot, limit: 64 << 20)
        let image = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 4096)) }.bitmap
        var saturated = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
            if max(r, g, b) - min(r, g, b) > 120 { saturated += 1 }
        }
        #expect(saturated > 10_000, "the page shows no colourful video frame (\(saturated) saturated pixels)")
        let kept = NSTemporaryDirectory() + "vignette-view-clip.webm.png"
        try? FileManager.default.removeItem(atPath: kept)
        try? FileManager.default.copyItem(atPath: shot, toPath: kept)
    }

    /// A script that, if it ran, would retitle the page.
    static let payload = "document.title='pwned'"

    @Test func aScriptRunsInAControlPageButNotUnderTheViewersPolicy() throws {
        let browser = try #require(Self.chromium, "chromium is not installed (apt-get install chromium; make test installs it)")
        let dir = try CLI.tempDirectory()
        let control = "<!DOCTYPE html><html><head><title>clean</title></head><body><script>\(Self.payload)</script></body></html>"
        try control.write(toFile: dir + "/control.html", atomically: true, encoding: .utf8)
        let csp =
            "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        let guarded = control.replacingOccurrences(
            of: "<head>", with: "<head><meta http-equiv=\"Content-Security-Policy\" content=\"\(csp)\">")
        try guarded.write(toFile: dir + "/guarded.html", atomically: true, encoding: .utf8)
        let ran = try CLI.runProgram(browser, Self.flags + ["--dump-dom", "file://" + dir + "/control.html"], deadline: 120)
        #expect(ran.stdout.contains("<title>pwned</title>"), "the control page's script did not run: the check below proves nothing")
        let blocked = try CLI.runProgram(browser, Self.flags + ["--dump-dom", "file://" + dir + "/guarded.html"], deadline: 120)
        #expect(blocked.stdout.contains("<title>clean</title>"))
    }

    @Test func servedPagesOfAnSVGWithOnloadAndMarkdownWithRawHTMLRunNoScript() throws {
        let browser = try #require(Self.chromium, "chromium is not installed (apt-get install chromium; make test installs it)")
        let server = try ServeProcess()
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"\(Self.payload)\"><script>\(Self.payload)</script></svg>\n"
        try svg.write(toFile: server.root + "/drawing.svg", atomically: true, encoding: .utf8)
        let markdown = "# Notes\n\n<script>\(Self.payload)</script>\n\n<img src=\"x\" onerror=\"\(Self.payload)\">\n"
        try markdown.write(toFile: server.root + "/notes.md", atomically: true, encoding: .utf8)
        for name in ["drawing.svg", "notes.md"] {
            let url = "http://127.0.0.1:\(server.port)/view?path=\(name)"
            let dom = try CLI.runProgram(browser, Self.flags + ["--dump-dom", url], deadline: 120)
            #expect(dom.status == 0)
            #expect(dom.stdout.contains("<title>\(name)</title>"), "\(name): \(dom.stdout.prefix(400))")
            #expect(!dom.stdout.contains("<title>pwned</title>"), "a script ran in the page of \(name)")
        }
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit() == 0)
    }
}

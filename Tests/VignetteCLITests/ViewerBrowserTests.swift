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
        ("photo.jpg", "<th>Thumbnail by</th><td>image</td>", "data:image/png;base64,"),
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
}

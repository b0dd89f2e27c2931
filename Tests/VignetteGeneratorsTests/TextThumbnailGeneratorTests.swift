import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

@Suite("Text page thumbnails")
struct TextThumbnailGeneratorTests {
    let registry = BuiltInGenerators.makeRegistry()

    func thumbnail(_ text: String, name: String, _ request: ThumbnailRequest) throws -> (Bitmap, String) {
        let input = GeneratorInput(bytes: Array(text.utf8), filename: name, resolver: TypeResolver(catalog: registry.catalog))
        let (thumb, generator, _) = try registry.thumbnail(for: input, request: request)
        return (thumb.bitmap, generator)
    }

    func isDark(_ b: Bitmap, _ x: Int, _ y: Int) -> Bool { b.pixels[(y * b.width + x) * 4] < 128 }

    @Test func plainTextGetsAnA4Page() throws {
        let (page, generator) = try thumbnail("hello\n", name: "a.txt", ThumbnailRequest(maxPixelSize: 256))
        #expect(generator == "text-thumbnail")
        #expect(page.width == 181 && page.height == 256)
        #expect(!page.hasTransparency)
    }

    @Test(arguments: [(128, 1, 91, 128), (128, 2, 181, 256), (256, 1, 181, 256), (64, 1, 45, 64)])
    func sizesAreExact(size: Int, scale: Int, width: Int, height: Int) throws {
        let (page, _) = try thumbnail("x\n", name: "a.txt", ThumbnailRequest(maxPixelSize: size, scale: scale))
        #expect(page.width == width && page.height == height)
    }

    @Test func chineseTextIsDrawnInAFontThatHasItNotAsBoxes() throws {
        let request = ThumbnailRequest(maxPixelSize: 512)
        let (chinese, _) = try thumbnail("中文文本预览\n", name: "a.txt", request)
        let (boxes, _) = try thumbnail("\u{E000}\u{E000}\u{E000}\u{E000}\u{E000}\u{E000}\n", name: "a.txt", request)
        let (sameWidth, _) = try thumbnail("中文文本预览\n", name: "b.txt", request)
        #expect(chinese.pixels == sameWidth.pixels)
        #expect(chinese.pixels != boxes.pixels)
        // A box is an outline; 本 and 览 put ink inside the box's empty middle.
        let ink = { (b: Bitmap) in b.pixels.enumerated().filter { $0.offset % 4 == 0 && $0.element < 128 }.count }
        #expect(ink(chinese) > ink(boxes))
    }

    @Test func theFirstLineIsInkedAndTheMarginsArePageWhite() throws {
        let text = "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM\n"
        let (page, _) = try thumbnail(text, name: "a.txt", ThumbnailRequest(maxPixelSize: 256))
        // First-line band: below the top margin (5.5 % of 256 = 14 px), one line (256 / 30 ≈ 9 px) tall.
        let band = (14..<25).flatMap { y in (20..<160).map { (y, $0) } }
        #expect(band.filter { isDark(page, $0.1, $0.0) }.count > 100)
        // Left and right margins, and everything below the only line, stay white.
        for y in 2..<254 {
            for x in [3, 8, 12, 170, 176] { #expect(page.pixels[(y * page.width + x) * 4] >= 250) }
        }
        for y in 40..<254 { #expect(page.pixels[(y * page.width + 90) * 4] >= 250) }
        // A light border frames the page.
        #expect(page.pixels[(128 * page.width) * 4] < 230)
    }

    @Test func laterLinesGoFurtherDown() throws {
        let text = String(repeating: "\n", count: 10) + "MMMMMMMMMMMMMMMMMMMM\n"
        let (page, _) = try thumbnail(text, name: "a.txt", ThumbnailRequest(maxPixelSize: 256))
        let inked = (0..<page.height).filter { y in (20..<100).contains { isDark(page, $0, y) } }
        // Eleventh line: top margin 14 px, then ten lines of about 10.5 px, then the cap height.
        #expect(inked.min().map { $0 > 110 && $0 < 130 } == true)
    }

    @Test func codeAndDataAreMonospaceAndProseIsNot() throws {
        let generator = TextThumbnailGenerator(catalog: registry.catalog)
        let catalog = registry.catalog
        func type(_ id: String) throws -> UniformType { try #require(catalog.type(withIdentifier: id)) }
        #expect(generator.usesMonospace(try type("public.json")))
        #expect(generator.usesMonospace(try type("public.comma-separated-values-text")))
        #expect(generator.usesMonospace(try type("public.source-code")))
        #expect(!generator.usesMonospace(try type("public.plain-text")))
        #expect(!generator.usesMonospace(try type("net.daringfireball.markdown")))
    }

    @Test func tabsExpandAndControlsBlank() {
        #expect(TextPageLines.expand("a\tb", maxColumns: 80, tabWidth: 4) == "a   b")
        #expect(TextPageLines.expand("\u{1}x\u{7F}", maxColumns: 80, tabWidth: 4) == " x ")
        #expect(TextPageLines.expand("abcdef", maxColumns: 3, tabWidth: 4) == "abc")
        #expect(TextPageLines.lines(of: "a\r\nb\rc\n", maxLines: 10, maxColumns: 10, tabWidth: 4) == ["a", "b", "c"])
        #expect(TextPageLines.lines(of: "1\n2\n3\n4", maxLines: 2, maxColumns: 10, tabWidth: 4) == ["1", "2"])
    }

    @Test func cjkTextStillMakesAPage() throws {
        let (page, generator) = try thumbnail("日本語のテキスト\n漢字\n", name: "ja.txt", ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "text-thumbnail")
        #expect(page.width == 91)
    }

    @Test func anEmptyTextIsABlankPage() throws {
        let generator = TextThumbnailGenerator(catalog: registry.catalog)
        let input = GeneratorInput(bytes: [], filename: "e.txt", resolver: TypeResolver(catalog: registry.catalog))
        let page = try generator.makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 128)).bitmap
        #expect(page.height == 128)
        #expect(page.pixels[(64 * page.width + 45) * 4] == 255)
    }

    @Test func pagesDrawnOnManyThreadsAtOnceMatchOneDrawnAlone() throws {
        let texts = (0..<8).map { i in (0..<40).map { "line \($0) of page \(i)\tlorem ipsum dolor sit amet" }.joined(separator: "\n") }
        let alone = try texts.map { try thumbnail($0, name: "p.swift", ThumbnailRequest(maxPixelSize: 128)).0 }
        let results = ResultBox(count: texts.count)
        DispatchQueue.concurrentPerform(iterations: texts.count * 3) { i in
            let page = try? thumbnail(texts[i % texts.count], name: "p.swift", ThumbnailRequest(maxPixelSize: 128)).0
            results.record(i % texts.count, page)
        }
        for i in texts.indices {
            #expect(results.pages(i).count == 3)
            #expect(results.pages(i).allSatisfy { $0 == alone[i] })
        }
    }
}

/// Pages collected from several threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var store: [[Bitmap?]]
    init(count: Int) { store = Array(repeating: [], count: count) }
    func record(_ i: Int, _ page: Bitmap?) {
        lock.lock()
        store[i].append(page)
        lock.unlock()
    }
    func pages(_ i: Int) -> [Bitmap?] {
        lock.lock()
        defer { lock.unlock() }
        return store[i]
    }
}

import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("External generators: discovery and use")
struct ExternalLoaderTests {
    static let samples = ExternalFixtures.packageRoot + "/Samples/custom"
    static let shipped = ExternalFixtures.packageRoot + "/Generators"
    static let gdkThumbnailer = "/usr/share/thumbnailers/gdk-pixbuf-thumbnailer.thumbnailer"

    @Test(.enabled(if: ExternalFixtures.installed("python3"), "python3 runs the palette sample's generator"))
    func aManifestTypeIsIdentifiedByExtensionAndSignatureAndGeneratedByItsCommand() throws {
        let result = ExternalFixtures.load([Self.samples])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let resolver = TypeResolver(catalog: result.catalog)
        let byName = try GeneratorInput(path: Self.samples + "/sunset.palette", resolver: resolver)
        let bySignature = try GeneratorInput(path: Self.samples + "/ocean-misnamed.dat", resolver: resolver)
        #expect(byName.type.identifier == "com.example.palette")
        #expect(bySignature.type.identifier == "com.example.palette")
        #expect(result.catalog.origin(of: byName.type) == .exported(file: Self.samples + "/palette.json"))

        let candidates = result.registry.candidates(for: bySignature.type, size: bySignature.size, capability: .thumbnail)
        #expect(candidates.map(\.generator.identifier) == ["com.example.palette", "fallback"])
        #expect(candidates.first?.generator.origin == Self.samples + "/palette.json")

        let (thumb, generator, _) = try result.registry.thumbnail(for: bySignature, request: ThumbnailRequest(maxPixelSize: 64))
        #expect(generator == "com.example.palette")
        #expect(thumb.bitmap.width == 64 && thumb.bitmap.height == 48)
        // First swatch: 03045e Midnight.
        #expect(Array(thumb.bitmap.pixels.prefix(4)) == [0x03, 0x04, 0x5E, 0xFF])

        let (preview, previewer, _) = try result.registry.preview(for: byName, request: PreviewRequest())
        #expect(previewer == "com.example.palette.preview")
        #expect(preview.title == "Example colour palette")
        #expect(
            preview.html.contains(#"<tr><td style="background:#ff5e5b;width:4em"></td><td><code>#ff5e5b</code></td><td>Coral</td></tr>"#))
        #expect(preview.text == "#ff5e5b  Coral\n#ffb347  Apricot\n#ffe66d  Butter\n#4ecdc4  Lagoon\n#1a535c  Deep sea")
    }

    @Test func thumbnailerFilesSplitExecLikeDesktopEntries() throws {
        let text = """
            # comment
            [Desktop Entry]
            Exec=ignored
            [Thumbnailer Entry]
            TryExec=/usr/bin/true
            Exec=/opt/my\\sthumb "--label=a \\"b\\" \\\\\\\\ c" -s %s %u %o
            MimeType=image/x-one;image/x-two;
            """
        let file = try ThumbnailerFile.parse(text, path: "/t/x.thumbnailer")
        #expect(file.exec.arguments == ["/opt/my", "thumb", "--label=a \"b\" \\ c", "-s", "%s", "%u", "%o"])
        #expect(file.mimeTypes == ["image/x-one", "image/x-two"])
        #expect(file.tryExec == "/usr/bin/true")
    }

    @Test func brokenThumbnailerFilesAreReportedWithTheirReason() {
        let cases: [(String, String)] = [
            ("[Thumbnailer Entry]\nMimeType=image/png;\n", "key Exec: missing"),
            ("[Thumbnailer Entry]\nExec=tool %i\nMimeType=image/png;\n", "key Exec: must contain an input code (%i or %u) and %o"),
            ("[Thumbnailer Entry]\nExec=tool %f %o\nMimeType=image/png;\n", "key Exec: unknown placeholder %f (known: %i %u %o %s %m %%)"),
            ("[Thumbnailer Entry]\nExec=tool \"%i %o\n", "key Exec: a double quote is never closed"),
            ("[Thumbnailer Entry]\nExec=tool %i %o\n", "key MimeType: missing or empty"),
            ("[Thumbnailer Entry]\nthis line is wrong\n", "line 2: expected KEY=VALUE, a [group] or a # comment"),
            ("Exec=tool %i %o\n", "no [Thumbnailer Entry] group"),
        ]
        for (text, reason) in cases {
            #expect(throws: VignetteError(.invalidDeclaration, path: "/t/x.thumbnailer", reason)) {
                try ThumbnailerFile.parse(text, path: "/t/x.thumbnailer")
            }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: gdkThumbnailer), "needs Debian's libgdk-pixbuf2.0-bin (.ci/run installs it)"))
    func gdkPixbufsThumbnailerIsSecondToTheBuiltInDecoders() throws {
        let result = ExternalFixtures.load([], thumbnailers: ["/usr/share/thumbnailers"])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let resolver = TypeResolver(catalog: result.catalog)
        let gif = try GeneratorInput(path: ExternalFixtures.path("python.gif"), resolver: resolver)
        let candidates = result.registry.candidates(for: gif.type, size: gif.size, capability: .thumbnail)
        #expect(candidates.map(\.generator.identifier).prefix(2) == ["image", "thumbnailer:gdk-pixbuf-thumbnailer"])
        #expect(candidates.dropFirst().first?.generator.origin == Self.gdkThumbnailer)
        #expect(candidates.dropFirst().first?.generator.priority == .generic)
        let (thumb, generator, _) = try result.registry.thumbnail(for: gif, request: ThumbnailRequest(maxPixelSize: 32))
        #expect(generator == "image")
        #expect(thumb.bitmap.width == 16 && thumb.bitmap.height == 16)  // never enlarged
        // Formats gdk-pixbuf declares by a subtype's MIME type (PPM, CUR) are ours first too.
        let formats = ExternalFixtures.packageRoot + "/Tests/VignetteImagingTests/Fixtures/formats/"
        for path in ["other-images/python.ppm", "other-images/python.pbm", "ico/deerstalker.cur"] {
            let file = try GeneratorInput(path: formats + path, resolver: resolver)
            let first = result.registry.candidates(for: file.type, size: file.size, capability: .thumbnail).first
            #expect(first?.generator.identifier == "image", "\(path)")
        }
        // XPM, which gdk-pixbuf declares, is ours first too, gdk-pixbuf second.
        let xpm = try GeneratorInput(
            path: ExternalFixtures.packageRoot + "/Tests/VignetteGeneratorsTests/Fixtures/external/hopper.xpm", resolver: resolver)
        #expect(
            result.registry.candidates(for: xpm.type, size: xpm.size, capability: .thumbnail).map(\.generator.identifier).prefix(2)
                == ["image", "thumbnailer:gdk-pixbuf-thumbnailer"])
        // A format only gdk-pixbuf reads (an animated cursor, RIFF "ACON") still goes to it.
        let scratch = try ExternalScratch()
        let ani = Array("RIFF".utf8) + [12, 0, 0, 0] + Array("ACONLIST".utf8) + [0, 0, 0, 0]
        try ExternalScratch.writeCloseOnExec(ani, to: scratch.path + "/busy.ani", mode: 0o644)
        let cursor = try GeneratorInput(path: scratch.path + "/busy.ani", resolver: resolver)
        #expect(
            result.registry.candidates(for: cursor.type, size: cursor.size, capability: .thumbnail).first?.generator.identifier
                == "thumbnailer:gdk-pixbuf-thumbnailer")

        let png = try GeneratorInput(path: ExternalFixtures.packageRoot + "/Samples/logo.png", resolver: resolver)
        let pngCandidates = result.registry.candidates(for: png.type, size: png.size, capability: .thumbnail)
        #expect(pngCandidates.map(\.generator.identifier).prefix(2) == ["image", "thumbnailer:gdk-pixbuf-thumbnailer"])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: gdkThumbnailer), "needs libgdk-pixbuf2.0-bin"))
    func aPixelBombRefusedByTheImageGeneratorIsNotHandedToGdkPixbuf() throws {
        let result = ExternalFixtures.load([], thumbnailers: ["/usr/share/thumbnailers"])
        let dir = try ExternalScratch()
        // A valid 65535 × 65535 RGB header (CRCs right) and a token IDAT: what bench/limits.sh makes.
        let bomb: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
            0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0xFF, 0xFF, 0x08, 0x02, 0x00, 0x00, 0x00, 0x39, 0x67, 0x4E,
            0x07, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0xA0, 0x0C, 0x00,
            0x00, 0x00, 0x40, 0x00, 0x01, 0xB7, 0x34, 0x7C, 0xEF, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
            0x44, 0xAE, 0x42, 0x60, 0x82,
        ]
        try ExternalScratch.writeCloseOnExec(bomb, to: dir.path + "/bomb.png", mode: 0o644)
        let input = try GeneratorInput(path: dir.path + "/bomb.png", resolver: TypeResolver(catalog: result.catalog))
        let (thumb, generator, attempts) = try result.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 64))
        #expect(generator == "fallback")
        #expect(thumb.isIcon)
        #expect(
            attempts.map(\.description) == [
                "image: failed: image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP",
                "thumbnailer:gdk-pixbuf-thumbnailer: skipped: not tried: image refused the file",
                "fallback: succeeded",
            ])
    }

    @Test func aThumbnailerForVignetteItselfIsSkippedSoItCannotCallItself() throws {
        let dir = try ExternalScratch()
        try dir.write(
            "thumbnailers/vignette.thumbnailer", (try String(contentsOfFile: Self.shipped + "/vignette.thumbnailer", encoding: .utf8)))
        let result = ExternalFixtures.load([], thumbnailers: [dir.path + "/thumbnailers"])
        #expect(result.skipped.map(\.reason) == ["its command runs vignette itself"])
    }

    @Test(.enabled(if: ExternalFixtures.installed("rsvg-convert"), "needs librsvg2-bin"))
    func theShippedSVGGeneratorThumbnailsAnSVG() throws {
        let result = ExternalFixtures.load([Self.shipped])
        let input = try GeneratorInput(
            path: ExternalFixtures.path("action-unavailable-symbolic.svg"), resolver: TypeResolver(catalog: result.catalog))
        let (thumb, generator, _) = try result.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 48))
        #expect(generator == "svg")
        #expect(thumb.bitmap.width == 48 && thumb.bitmap.height == 48)
        let opaque = stride(from: 3, to: thumb.bitmap.pixels.count, by: 4).filter { thumb.bitmap.pixels[$0] > 0 }.count
        #expect(opaque > 48 * 48 / 10, "the icon should have drawn pixels")
    }

    @Test func shippedManifestsAreValidAndSkipOnlyForAbsentTools() {
        let result = ExternalFixtures.load([Self.shipped])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let loaded = Set(result.registry.generators.map(\.identifier))
        for (id, tool) in [("svg", "rsvg-convert"), ("postscript", "gs")] {
            if ExternalFixtures.installed(tool) {
                #expect(loaded.contains(id))
            } else {
                #expect(result.skipped.contains { $0.identifier == id && $0.reason == "\(tool) is not installed (not found in PATH)" })
            }
        }
    }

    @Test func laterFoldersOverrideEarlierOnesWithTheSameIdentifier() throws {
        let first = try ExternalScratch()
        let second = try ExternalScratch()
        try first.write("same.json", #"{ "generator": { "kind": "text", "types": ["public.data"], "exec": ["cat", "%i"] } }"#)
        let winner = try second.write("same.json", #"{ "generator": { "kind": "html", "types": ["public.data"], "exec": ["cat", "%i"] } }"#)
        let result = ExternalFixtures.load([first.path, second.path])
        let same = result.registry.generators.filter { $0.identifier == "same" }
        #expect(same.map(\.origin) == [winner])
    }
}

import Foundation
import Testing
import VignetteCore
import VignetteImaging

@Suite("External generators through the CLI")
struct ExternalGeneratorCommandTests {
    let root = CLI.packageRoot
    static let gdkThumbnailer = "/usr/share/thumbnailers/gdk-pixbuf-thumbnailer.thumbnailer"

    static func installed(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    @Test(.enabled(if: installed("python3"), "python3 runs the palette sample's generator"))
    func theCustomPaletteTypeWorksInEveryCommand() throws {
        let gens = ["--generators", "Samples/custom"]
        let type = try CLI.run(
            ["type"] + gens + ["Samples/custom/sunset.palette", "Samples/custom/ocean-misnamed.dat"], currentDirectory: root)
        #expect(
            type.stdout == """
                Samples/custom/sunset.palette: com.example.palette (application/x-example-palette); conforms to public.data, public.content, public.item
                Samples/custom/ocean-misnamed.dat: com.example.palette (application/x-example-palette); conforms to public.data, public.content, public.item

                """)
        #expect(type.stderr == "")

        let dir = try CLI.tempDirectory()
        let thumb = try CLI.run(
            ["thumbnail", "-s", "80"] + gens + ["Samples/custom/ocean-misnamed.dat", "-o", dir + "/ocean.png"], currentDirectory: root)
        #expect(thumb.status == 0)
        #expect(thumb.stderr == "")
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/ocean.png"))).map { [$0.0, $0.1] } == [80, 60])

        let preview = try CLI.run(["preview"] + gens + ["Samples/custom/forest.palette"], currentDirectory: root)
        #expect(preview.status == 0)
        #expect(preview.stdout.contains("#2d6a4f  Pine\n#40916c  Fern\n#95d5b2  Mint\n#d8f3dc  Mist\n#6f4518  Bark"))

        let which = try CLI.run(["which"] + gens + ["Samples/custom/ocean-misnamed.dat"], currentDirectory: root)
        let lines = which.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(6) == [
                "Samples/custom/ocean-misnamed.dat",
                "  type:        com.example.palette (Example colour palette), MIME application/x-example-palette",
                "  decided by:  byte signature (priority 70)",
                "  chain:       com.example.palette → public.data → public.content → public.item",
                "thumbnail: com.example.palette answers",
                "  1. com.example.palette  com.example.palette (exact)  preferred  chosen",
            ])
        #expect(lines.contains("preview: com.example.palette.preview answers"))

        let generators = try CLI.run(["generators"] + gens, currentDirectory: root)
        #expect(
            generators.stdout.contains(
                """
                com.example.palette  [thumbnail]  priority preferred  from Samples/custom/palette.json
                  types:  com.example.palette
                  limits: files up to 1 MB, 10 s per run
                """))
        #expect(
            generators.stdout.contains(
                "com.example.palette.preview  [preview]  priority standard  from Samples/custom/palette-preview.json"))
    }

    @Test func vignetteGeneratorsListsFoldersAndBrokenManifestsAreWarningsOnly() throws {
        let dir = try CLI.tempDirectory()
        try #"{ "generator": { "kind": "thumbnail", "types": ["public.data"], "exec": ["cp", "%i"] , "priority": "top" } }"#
            .write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        try #"{ "generator": { "kind": "text", "types": ["public.data"], "exec": ["cat", "%i"] } }"#
            .write(toFile: dir + "/cat.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["generators", "--no-system-thumbnailers"], environment: ["VIGNETTE_GENERATORS": dir], currentDirectory: root)
        #expect(r.status == 0)
        #expect(
            r.stderr
                == "vignette: \(dir)/bad.json: key generator.priority: must be generic, standard, preferred or a whole number from -999 to 999, not \"top\"\n"
        )
        #expect(r.stdout.contains("cat  [preview]  priority standard  from \(dir)/cat.json\n"))
    }

    @Test func aHungGeneratorIsKilledAtItsTimeoutAndTheIconAnswers() throws {
        let dir = try CLI.tempDirectory()
        // Close-on-exec: another test's child must not inherit the script open for writing ("text file busy").
        let fd = open(dir + "/hang.sh", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        #expect(fd >= 0)
        let script = Array("#!/bin/sh\nsleep 1000\n".utf8)
        #expect(script.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == script.count)
        close(fd)
        try
            #"{ "generator": { "kind": "thumbnail", "types": ["public.data"], "exec": ["./hang.sh", "%i", "%o"], "timeoutSeconds": 1, "priority": "preferred" } }"#
            .write(toFile: dir + "/hang.json", atomically: true, encoding: .utf8)
        let start = ContinuousClock.now
        let r = try CLI.run(["thumbnail", "--generators", dir, "Samples/unknown.bin", "-o", dir + "/out.png"], currentDirectory: root)
        #expect(ContinuousClock.now - start < .seconds(3), "a 1 s timeout plus the program's own start-up")
        #expect(r.status == 0)
        #expect(
            r.stderr
                == "vignette: Samples/unknown.bin: warning: hang: failed: timed out after 1 s; its process group was killed; drew the generic icon instead\n"
        )
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/out.png"))) != nil)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: gdkThumbnailer), "needs Debian's libgdk-pixbuf2.0-bin (.ci/run installs it)"))
    func theBuiltInDecoderAnswersForAGIFBeforeGdkPixbufsThumbnailer() throws {
        let gif = root + "/Tests/VignetteGeneratorsTests/Fixtures/external/python.gif"
        let which = try CLI.run(["which", gif])
        #expect(which.stdout.contains("thumbnail: image answers\n"))
        #expect(which.stdout.contains("  1. image                               com.compuserve.gif (exact)  standard   chosen\n"))
        #expect(
            which.stdout.contains(
                "  2. thumbnailer:gdk-pixbuf-thumbnailer  com.compuserve.gif (exact)  generic    not tried: image answered first\n"))
        let off = try CLI.run(["which", "--no-system-thumbnailers", gif])
        #expect(off.stdout.contains("thumbnail: image answers\n"))
        #expect(!off.stdout.contains("gdk-pixbuf"))
    }

    @Test(.enabled(if: installed("rsvg-convert"), "needs librsvg2-bin"))
    func pdfThumbnailsAreBuiltInAndSVGOnesComeFromTheShippedGenerator() throws {
        let dir = try CLI.tempDirectory()
        let fixtures = root + "/Tests/VignetteGeneratorsTests/Fixtures/external/"
        for (file, generator, size) in [
            ("minimal-document.pdf", "pdf-document", (91, 128)), ("action-unavailable-symbolic.svg", "svg", (128, 128)),
        ] {
            let which = try CLI.run(["which", "--no-system-thumbnailers", fixtures + file])
            #expect(which.stdout.contains("thumbnail: \(generator) answers\n"))
            let r = try CLI.run(["thumbnail", "-s", "128", "--no-fallback", fixtures + file, "-o", dir + "/\(file).png"])
            #expect(r.status == 0, "\(r.stderr)")
            let got = pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/\(file).png")))
            #expect(got?.0 == size.0 && got?.1 == size.1)
        }
    }

    @Test(.enabled(if: installed("gs"), "needs ghostscript"))
    func postScriptAndEPSThumbnailsComeFromGhostscriptFirstPageOnly() throws {
        let dir = try CLI.tempDirectory()
        let fixtures = root + "/Tests/VignetteGeneratorsTests/Fixtures/external/"
        // box.eps: a 200 × 100 point bounding box, red, a blue disc in the middle; pages.ps: two A4
        // pages, the first with a green rectangle, the second a red one.
        for (file, size, centre) in [("box.eps", (128, 64), [0, 0, 255]), ("pages.ps", (90, 128), [0, 127, 0])] {
            let which = try CLI.run(["which", "--no-system-thumbnailers", fixtures + file])
            #expect(which.stdout.contains("thumbnail: postscript answers\n"), "\(which.stdout)")
            let out = dir + "/\(file).png"
            let r = try CLI.run(["thumbnail", "-s", "128", "--no-fallback", "--no-system-thumbnailers", fixtures + file, "-o", out])
            #expect(r.status == 0, "\(r.stderr)")
            let png = try Data(contentsOf: URL(fileURLWithPath: out))
            let image = try png.withUnsafeBytes { try ImageDecoder.png($0, request: ThumbnailRequest(maxPixelSize: 128)) }
            #expect(image.bitmap.width == size.0 && image.bitmap.height == size.1)
            let i = (image.bitmap.height / 2 * image.bitmap.width + image.bitmap.width / 2) * 4
            let pixel = image.bitmap.pixels[i..<i + 3].map(Int.init)
            #expect(zip(pixel, centre).allSatisfy { abs($0 - $1) <= 8 }, "\(file): \(pixel)")
        }
    }

    @Test func theShippedThumbnailerFileRunsVignetteAsGNOMEWould() throws {
        // Expand Exec= of Generators/vignette.thumbnailer the way a desktop does, with our binary.
        let text = try String(contentsOfFile: root + "/Generators/vignette.thumbnailer", encoding: .utf8)
        let exec = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") }).dropFirst("Exec=".count)
        let dir = try CLI.tempDirectory()
        let values = ["%s": "128", "%o": dir + "/gnome.png", "%i": root + "/Samples/photo.jpg"]
        let argv = exec.split(separator: " ").map { values[String($0)] ?? String($0) }
        #expect(argv.first == "vignette")
        let r = try CLI.run(Array(argv.dropFirst()))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/gnome.png"))).map { [$0.0, $0.1] } == [128, 80])
    }

    @Test func interruptingVignetteKillsTheGeneratorItIsRunning() throws {
        let dir = try CLI.tempDirectory()
        let fd = open(dir + "/hang.sh", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        // /proc/self/stat gives the process group as Vignette sees it ($$ is 2 in its PID namespace).
        let script = Array(
            "#!/bin/sh\nread pid comm state ppid pgrp rest < /proc/self/stat; echo $pgrp > '\(dir)/pid.tmp'\nmv '\(dir)/pid.tmp' '\(dir)/pid'\nsleep 1000\n"
                .utf8)
        #expect(script.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == script.count)
        close(fd)
        try
            #"{ "generator": { "kind": "thumbnail", "types": ["public.data"], "exec": ["./hang.sh", "%i", "%o"], "timeoutSeconds": 60, "priority": "preferred", "sandbox": false } }"#
            .write(toFile: dir + "/hang.json", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["thumbnail", "--generators", dir, root + "/Samples/unknown.bin", "-o", dir + "/out.png"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (bounded) until the generator has started and written its pid.
        let deadline = ContinuousClock.now + .seconds(20)
        while !FileManager.default.fileExists(atPath: dir + "/pid"), ContinuousClock.now < deadline { usleep(20_000) }
        let pid = try #require(Int32(String(contentsOfFile: dir + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(-pid, 0) == 0)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(kill(-pid, 0) == -1 && errno == ESRCH, "the generator's process group outlived vignette")
    }
}

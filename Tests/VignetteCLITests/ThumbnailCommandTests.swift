import Foundation
import Testing

/// PNG width and height from the IHDR chunk.
func pngSize(_ data: Data) -> (Int, Int)? {
    let b = [UInt8](data)
    guard b.count > 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
    func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
    return (be32(16), be32(20))
}

@Suite("vignette thumbnail")
struct ThumbnailCommandTests {
    let root = CLI.packageRoot

    /// Swift turns a name's bad bytes into U+FFFD, which names no file: the message says why.
    @Test func aFileNameThatIsNotUTF8IsNamedAsSuchNotAsMissing() throws {
        let dir = try CLI.tempDirectory()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CLI.packageRoot + "/Samples/photo.jpg"))
        let raw = Array((dir + "/bad").utf8) + [0xFF] + Array("name.jpg".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { p in p.withMemoryRebound(to: CChar.self) { creat($0.baseAddress!, 0o644) } }
        #expect(fd >= 0)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
        // The shell passes the byte on as it is; Process would take a String.
        let script = #"exec "$0" thumbnail -s 32 -o out.png "$(printf 'bad\377name.jpg')""#
        let r = try CLI.runProgram("/bin/sh", ["-c", script, CLI.binary], currentDirectory: dir)
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: bad\\xFFname.jpg: the file name is not valid UTF-8\n")
    }

    @Test func vignetteDecodeNamesTheHelperTheReadersStartAs() throws {
        let dir = try CLI.tempDirectory()
        let helper = (CLI.binary as NSString).deletingLastPathComponent + "/vignette-decode"
        // A helper that notes each start, then becomes the real one (its descriptors 3-5 kept).
        let wrapper = dir + "/decode.sh"
        try "#!/bin/sh\necho \"$2\" >> '\(dir)/started'\nexec '\(helper)' \"$@\"\n".write(
            toFile: wrapper, atomically: true, encoding: .utf8)
        #expect(chmod(wrapper, 0o755) == 0)
        let pdf = CLI.packageRoot + "/Samples/report.pdf"
        let r = try CLI.run(["thumbnail", "-s", "64", pdf, "-o", dir + "/a.png"], environment: ["VIGNETTE_DECODE": wrapper])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/started", encoding: .utf8) == "poppler\n")
        // A path that is no executable is passed over: the helper beside the binary is used.
        let missing = try CLI.run(["thumbnail", "-s", "64", pdf, "-o", dir + "/b.png"], environment: ["VIGNETTE_DECODE": dir + "/none"])
        #expect(missing.status == 0, "\(missing.stderr)")
        let a = try #require(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))))
        let b = try #require(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/b.png"))))
        #expect(a == b && a.1 == 64)
    }

    @Test func oneInputWritesTheNamedFile() throws {
        let dir = try CLI.tempDirectory()
        let r = try CLI.run(["thumbnail", "-s", "128", "Samples/photo.jpg", "-o", dir + "/t.png"], currentDirectory: root)
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let size = pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/t.png")))
        #expect(size.map { [$0.0, $0.1] } == [128, 80])
        // Nothing but the thumbnail is left in the folder (no temporary files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["t.png"])
    }

    @Test(arguments: [
        ("hdrmerge-eos30d-orient6.dng", [171, 256]), ("IMG_5952.CR2", [256, 171]), ("fujifilm-s5pro-exiftool.raf", [160, 120]),
    ])
    func aCameraRAWGetsAThumbnailWithoutASystemThumbnailer(file: String, size: [Int]) throws {
        // The DNG's 300 × 200 JPEG preview turned by its Orientation 6; the CR2's 1728 × 1152 preview;
        // the RAF's 160 × 120 thumbnail, not enlarged.
        let dir = try CLI.tempDirectory()
        let input = "Tests/VignetteImagingTests/Fixtures/raw/" + file
        let r = try CLI.run(["thumbnail", "--no-system-thumbnailers", "-s", "256", input, "-o", dir + "/t.png"], currentDirectory: root)
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/t.png"))).map { [$0.0, $0.1] } == size)
    }

    @Test func jpegOutputByExtensionOrFormat() throws {
        let dir = try CLI.tempDirectory()
        _ = try CLI.run(["thumbnail", "Samples/logo.png", "-o", dir + "/t.jpg"], currentDirectory: root)
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/t.jpg"))
        #expect(Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let r = try CLI.run(["thumbnail", "-f", "jpeg", "-q", "50", "Samples/logo.png", "-o", dir + "/forced.png"], currentDirectory: root)
        #expect(r.status == 0)
        let forced = try Data(contentsOf: URL(fileURLWithPath: dir + "/forced.png"))
        #expect(Array(forced.prefix(3)) == [0xFF, 0xD8, 0xFF])
    }

    @Test func stdoutOutput() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["thumbnail", "-s", "64", "Samples/logo.png", "-o", "-"]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(pngSize(data).map { [$0.0, $0.1] } == [64, 64])
    }

    @Test func severalInputsGoToADirectoryAndOneFailureDoesNotStopTheOthers() throws {
        let dir = try CLI.tempDirectory()
        let r = try CLI.run(
            [
                "thumbnail", "-j", "2", "-o", dir + "/out/", "Samples/photo.jpg", "Samples/notes.txt", "Samples/missing.png",
                "Samples/logo.png",
            ],
            currentDirectory: root)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").sorted()
        #expect(lines == ["vignette: Samples/missing.png: no such file or directory"])
        let written = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(written == ["logo.png.png", "notes.txt.png", "photo.jpg.png"])
    }

    @Test("- is standard input: a pipe or a redirected file, typed by its content or by --stdin-name")
    func standardInput() throws {
        let dir = try CLI.tempDirectory()
        let photo = try Data(contentsOf: URL(fileURLWithPath: root + "/Samples/photo.jpg"))
        let piped = try CLI.run(["thumbnail", "-", "-o", "piped.png"], currentDirectory: dir, input: .pipe(photo))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/piped.png"))).map { $0.0 } == 256)
        // /dev/stdin is standard input too, not a pipe to refuse.
        let devStdin = try CLI.run(["type", "/dev/stdin"], input: .pipe(photo))
        #expect(devStdin.stdout.hasPrefix("/dev/stdin: public.jpeg (image/jpeg); "), "\(devStdin.stderr)")
        // No -o: stdin.png, or the --stdin-name with the format's extension.
        let redirected = try CLI.run(["thumbnail", "-s", "64", "-"], currentDirectory: dir, input: .file(root + "/Samples/logo.png"))
        #expect(redirected.status == 0, "\(redirected.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/stdin.png"))
        let named = try CLI.run(["thumbnail", "--stdin-name", "cat.jpg", "-"], currentDirectory: dir, input: .pipe(photo))
        #expect(named.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/cat.jpg.png"))

        let typed = try CLI.run(["type", "-"], input: .file(root + "/Samples/report.pdf"))
        #expect(typed.stdout.hasPrefix("-: com.adobe.pdf (application/pdf); "))
        let markdown = try Data(contentsOf: URL(fileURLWithPath: root + "/Samples/guide.md"))
        #expect(try CLI.run(["type", "-"], input: .pipe(markdown)).stdout.hasPrefix("-: public.plain-text (text/plain); "))
        let byName = try CLI.run(["type", "--stdin-name", "guide.md", "-"], input: .pipe(markdown))
        #expect(byName.stdout.hasPrefix("-: net.daringfireball.markdown (text/markdown); "))

        let facts = try CLI.run(["preview", "-"], input: .pipe(Data([0x00, 0x01, 0x02, 0xFF] + Array("hidden words".utf8))))
        #expect(facts.status == 0)
        #expect(facts.stdout.hasPrefix("Name:        (standard input)\nSize:        16 bytes\nType:        data (public.data)\n"))
        #expect(facts.stdout.contains("hidden words"))

        let which = try CLI.run(["which", "-"], input: .file(root + "/Samples/report.pdf"))
        #expect(which.stdout.hasPrefix("-\n  type:        com.adobe.pdf (PDF document), MIME application/pdf\n"))
        let csv = try Data(contentsOf: URL(fileURLWithPath: root + "/Samples/data.csv"))
        let page = try CLI.run(["view", "-", "-o", "-"], input: .pipe(csv))
        #expect(page.status == 0)
        #expect(page.stdout.contains("<title>(standard input)"))
        let namedPage = try CLI.run(["view", "--stdin-name", "data.csv", "-"], currentDirectory: dir, input: .pipe(csv))
        #expect(namedPage.stdout == "wrote data.csv.html\n")

        let big = Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        let over = try CLI.run(["thumbnail", "--max-file-megabytes", "1", "-", "-o", "big.png"], currentDirectory: dir, input: .pipe(big))
        #expect(over.status == 1)
        #expect(over.stderr == "vignette: -: standard input is over the limit of 1 MB\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/big.png"))

        let twice = try CLI.run(["preview", "-", "-"], input: .pipe(markdown))
        #expect(twice.status == 2)
        #expect(twice.stderr.hasPrefix("Error: standard input (-) can be read only once; give - once\n"))
        let folder = try CLI.run(["thumbnail", "--stdin-name", "../up.jpg", "-"], currentDirectory: dir, input: .pipe(photo))
        #expect(folder.status == 2)
        #expect(folder.stderr.hasPrefix("Error: --stdin-name must be a file name without a folder, such as report.pdf, not '../up.jpg'\n"))
    }

    @Test func usageErrors() throws {
        let r = try CLI.run(["thumbnail", "-o", "/tmp/one-file.png", "Samples/photo.jpg", "Samples/logo.png"], currentDirectory: root)
        #expect(r.status == 2)
        #expect(r.stderr.contains("several inputs need -o DIR (an existing directory, or a path ending in /), not /tmp/one-file.png"))
        let bad = try CLI.run(["thumbnail", "-s", "0", "Samples/photo.jpg"], currentDirectory: root)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--size must be between 1 and 16384, not 0"))
        // A negative number is the option's value, as getopt takes it, not a missing one.
        let negative = try CLI.run(["thumbnail", "-s", "-5", "--jobs", "-1", "Samples/photo.jpg"], currentDirectory: root)
        #expect(negative.status == 2)
        #expect(
            negative.stderr.hasPrefix(
                "Error: The value '-5' is invalid for '-s <size[,size…]>': --size must be between 1 and 16384, not -5\n"))
        let jobs = try CLI.run(["thumbnail", "--jobs", "-1", "Samples/photo.jpg"], currentDirectory: root)
        #expect(jobs.stderr.hasPrefix("Error: --jobs must be between 1 and 256, not -1\n"))
        let format = try CLI.run(["thumbnail", "-f", "gif", "Samples/photo.jpg"], currentDirectory: root)
        #expect(format.status == 2)
        #expect(format.stderr.contains("--format must be png, jpeg, webp or avif, not gif"))
    }

    @Test func webpAndAVIFOutputKeepAlphaAndFollowTheExtension() throws {
        let dir = try CLI.tempDirectory()
        // The format follows -o's extension; -f names it outright.
        let webp = try CLI.run(["thumbnail", "-s", "64", "-o", dir + "/logo.webp", "Samples/logo.png"], currentDirectory: root)
        #expect(webp.status == 0)
        let w = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/logo.webp")))
        #expect(w.starts(with: Array("RIFF".utf8)) && Array(w[8..<16]) == Array("WEBPVP8X".utf8))
        #expect(w[20] & 0x10 != 0)  // VP8X says: alpha
        let avif = try CLI.run(
            ["thumbnail", "-s", "64", "-f", "avif", "-q", "60", "-o", dir + "/photo.out", "Samples/photo.jpg"], currentDirectory: root)
        #expect(avif.status == 0)
        let a = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/photo.out")))
        #expect(Array(a[4..<12]) == Array("ftypavif".utf8))
        let types = try CLI.run(["type", "--mime", dir + "/logo.webp", dir + "/photo.out"])
        #expect(types.stdout == "\(dir)/logo.webp\timage/webp\n\(dir)/photo.out\timage/avif\n")
        // Both read back at the size asked for.
        let back = try CLI.run(["thumbnail", "-s", "64", "-o", dir + "/back.png", dir + "/photo.out"])
        #expect(back.status == 0)
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/back.png")))
        #expect(Array(png[16..<24]) == [0, 0, 0, 64, 0, 0, 0, 40])
        // batch --out writes the format asked for; the freedesktop cache stays PNG.
        let batch = try CLI.run(
            ["batch", "--out", dir + "/b", "--format", "webp", "--size", "32", "Samples/photo.jpg"], currentDirectory: root)
        #expect(batch.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/b/photo.jpg.webp"))
    }

    @Test func cropsGiveExactlyTheBox() throws {
        let dir = try CLI.tempDirectory()
        for mode in ["fill", "smart"] {
            let r = try CLI.run(
                ["thumbnail", "--crop", mode, "-s", "96", "-o", dir + "/\(mode).png", "Samples/photo.jpg"], currentDirectory: root)
            #expect(r.status == 0)
            let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/\(mode).png")))
            #expect(Array(png[16..<24]) == [0, 0, 0, 96, 0, 0, 0, 96])
        }
        let bad = try CLI.run(["thumbnail", "--crop", "zoom", "Samples/photo.jpg"], currentDirectory: root)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("The value 'zoom' is invalid for '--crop <fit|fill|smart>'"))
    }

    @Test func severalSizesComeFromOneDecodeAsNameSizeExt() throws {
        let dir = try CLI.tempDirectory()
        let r = try CLI.run(["thumbnail", "-s", "64,256,32", "-o", dir, "Samples/photo.jpg", "Samples/logo.png"], currentDirectory: root)
        #expect(r.status == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(
            written == [
                "logo.png.256.png", "logo.png.32.png", "logo.png.64.png", "photo.jpg.256.png", "photo.jpg.32.png", "photo.jpg.64.png",
            ])
        func size(_ name: String) throws -> [UInt8] {
            Array([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))[16..<24])
        }
        #expect(try size("photo.jpg.256.png") == [0, 0, 1, 0, 0, 0, 0, 160])
        #expect(try size("photo.jpg.64.png") == [0, 0, 0, 64, 0, 0, 0, 40])
        #expect(try size("photo.jpg.32.png") == [0, 0, 0, 32, 0, 0, 0, 20])
        // logo.png is 256 square: never enlarged, and the smaller ones fit.
        #expect(try size("logo.png.256.png") == [0, 0, 1, 0, 0, 0, 1, 0])
        #expect(try size("logo.png.64.png") == [0, 0, 0, 64, 0, 0, 0, 64])
        let oneFile = try CLI.run(["thumbnail", "-s", "64,128", "-o", dir + "/one.png", "Samples/photo.jpg"], currentDirectory: root)
        #expect(oneFile.status == 2)
        #expect(oneFile.stderr.contains("several sizes need -o DIR (an existing directory, or a path ending in /), not \(dir)/one.png"))
        let bad = try CLI.run(["thumbnail", "-s", "64,0", "Samples/photo.jpg"], currentDirectory: root)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--size must be between 1 and 16384, not 0"))
    }

    @Test func aThumbnailNeverOverwritesAnInput() throws {
        let dir = try CLI.tempDirectory()
        let input = dir + "/a.png"
        try FileManager.default.copyItem(atPath: root + "/Samples/logo.png", toPath: input)
        try FileManager.default.copyItem(atPath: root + "/Samples/logo.png", toPath: dir + "/a.png.png")
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png.png"))
        let r = try CLI.run(["thumbnail", "-s", "16", "-o", dir, input, dir + "/a.png.png"])
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: \(input): its thumbnail \(dir)/a.png.png would overwrite an input file\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png.png")) == before)
    }

    @Test func aTruncatedJPEGGivesAPartialThumbnailWithAWarning() throws {
        let dir = try CLI.tempDirectory()
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/Samples/photo.jpg"))
        let cut = dir + "/cut.jpg"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let r = try CLI.run(["thumbnail", cut, "-o", dir + "/cut.png"])
        #expect(r.status == 0)
        #expect(r.stderr == "vignette: \(cut): warning: Premature end of JPEG file\n")
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/cut.png"))) != nil)
    }

    @Test func limitsAreConfigurableAndNoFallbackMakesThemErrors() throws {
        let dir = try CLI.tempDirectory()
        let r = try CLI.run(
            [
                "thumbnail", "--no-system-thumbnailers", "--no-fallback", "--max-megapixels", "0.1", "Samples/photo.jpg", "-o",
                dir + "/never.png",
            ], currentDirectory: root)
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: Samples/photo.jpg: image is 640 × 400 pixels (256000 pixels), over the limit of 100000 pixels\n")
        let big = try CLI.run(
            [
                "thumbnail", "--no-system-thumbnailers", "--no-fallback", "--max-file-megabytes", "0.01", "Samples/photo.jpg", "-o",
                dir + "/never.png",
            ], currentDirectory: root)
        #expect(big.status == 1)
        #expect(big.stderr == "vignette: Samples/photo.jpg: file is 45.8 KB, over this generator's limit of 10 KB\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/never.png"))
    }

    @Test func iconModeFramesThePictureWithAShadowAndABadge() throws {
        let dir = try CLI.tempDirectory()
        let plain = try CLI.run(["thumbnail", "-s", "128", "Samples/photo.jpg", "-o", dir + "/plain.png"], currentDirectory: root)
        let icon = try CLI.run(["thumbnail", "--icon", "-s", "128", "Samples/photo.jpg", "-o", dir + "/icon.png"], currentDirectory: root)
        #expect(plain.status == 0 && icon.status == 0)
        let plainData = try Data(contentsOf: URL(fileURLWithPath: dir + "/plain.png"))
        let iconData = try Data(contentsOf: URL(fileURLWithPath: dir + "/icon.png"))
        #expect(pngSize(plainData)! == (128, 80))
        #expect(pngSize(iconData)!.0 <= 128 && pngSize(iconData)!.1 <= 128)
        // Colour type 2 (RGB) for the opaque photo, 6 (RGBA) for the icon and its soft shadow.
        #expect(plainData[25] == 2)
        #expect(iconData[25] == 6)
    }

    @Test func aFailedGeneratorIsAWarningWhenTheIconAnswers() throws {
        let dir = try CLI.tempDirectory()
        let r = try CLI.run(
            ["thumbnail", "--no-system-thumbnailers", "--max-megapixels", "0.1", "Samples/photo.jpg", "-o", dir + "/icon.png"],
            currentDirectory: root)
        #expect(r.status == 0)
        #expect(
            r.stderr
                == "vignette: Samples/photo.jpg: warning: image: failed: image is 640 × 400 pixels (256000 pixels), over the limit of 100000 pixels; drew the generic icon instead\n"
        )
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/icon.png"))) != nil)
    }
}

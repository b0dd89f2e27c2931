import Foundation
import Testing

@Suite("vignette which / generators / preview / view")
struct WhichCommandTests {
    let root = CLI.packageRoot

    @Test func aFileOverAGeneratorsLimitSkipsItAndWhichSaysWhy() throws {
        let r = try CLI.run(
            ["which", "--no-system-thumbnailers", "--max-file-megabytes", "0.01", "Samples/photo.jpg"], currentDirectory: root)
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.prefix(6) == [
                "Samples/photo.jpg",
                "  type:        public.jpeg (JPEG image), MIME image/jpeg",
                "  decided by:  byte signature (priority 60)",
                "  chain:       public.jpeg → public.image → public.data → public.content → public.item",
                "thumbnail: fallback answers",
                "  1. image     public.jpeg (exact)       standard   skipped: file is 45.8 KB, over this generator's limit of 10 KB",
            ])
        #expect(lines.contains("  2. fallback  public.item (4 steps up)  fallback   chosen"))
    }

    @Test func aGeneratorForTheFileThatCouldNotBeLoadedIsListedWithTheReason() throws {
        let dir = try CLI.tempDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/gens", withIntermediateDirectories: false)
        let manifest = """
            { "format": 1,
              "types": [{ "identifier": "org.example.rec", "conformsTo": ["public.plain-text"], "extensions": ["rec"] }],
              "generator": { "identifier": "rec", "kind": "html", "exec": ["./rec2html.sh", "%i"] } }
            """
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: dir + "/gens/rec.json"))
        // Written but not made executable: the mistake a generator's author makes first.
        try Data("#!/bin/sh\necho '<p>rec</p>'\n".utf8).write(to: URL(fileURLWithPath: dir + "/gens/rec2html.sh"))
        try Data("name: x\n".utf8).write(to: URL(fileURLWithPath: dir + "/a.rec"))
        let r = try CLI.run(["which", "--no-system-thumbnailers", "--generators", "gens", "a.rec"], currentDirectory: dir)
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let reason = "not loaded: \(dir)/gens/rec2html.sh is not an executable file (gens/rec.json)"
        #expect(
            lines.suffix(3) == [
                "  1. text      public.text (2 steps up)  standard   chosen",
                "  2. fallback  public.item (5 steps up)  fallback   not tried: text answered first",
                "  -  rec  org.example.rec (exact)  " + reason,
            ])
        let json = try CLI.run(["which", "--json", "--no-system-thumbnailers", "--generators", "gens", "a.rec"], currentDirectory: dir)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let preview = try #require(object["preview"] as? [String: Any])
        #expect((preview["notLoaded"] as? [[String: String]])?.map { $0["generator"] } == ["rec"])
        #expect(((object["thumbnail"] as? [String: Any])?["notLoaded"] as? [Any])?.isEmpty == true)
    }

    @Test func whichJSONNamesTheChosenGeneratorAndTheRanking() throws {
        let r = try CLI.run(["which", "--json", "Samples/photo.jpg"], currentDirectory: root)
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let thumbnail = try #require(object["thumbnail"] as? [String: Any])
        #expect(thumbnail["chosen"] as? String == "image")
        let candidates = try #require(thumbnail["candidates"] as? [[String: Any]])
        #expect(candidates.first?["outcome"] as? String == "chosen")
        #expect(candidates.last?["generator"] as? String == "fallback")
        #expect(candidates.last?["outcome"] as? String == "not tried: image answered first")
    }

    @Test func generatorsListsTheBuiltInsWithTypesPriorityAndOrigin() throws {
        let r = try CLI.run(["generators", "--json"], currentDirectory: root)
        #expect(r.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let image = try #require(list.first { $0["identifier"] as? String == "image" })
        #expect(
            image["types"] as? [String] == [
                "public.jpeg", "public.png", "org.webmproject.webp", "com.compuserve.gif", "public.tiff", "com.microsoft.bmp",
                "com.microsoft.ico", "com.microsoft.cur", "com.truevision.tga-image", "net.sourceforge.netpbm.pnm", "public.pbm",
                "net.sourceforge.netpbm.pgm", "net.sourceforge.netpbm.ppm", "net.sourceforge.netpbm.pam", "public.heif-standard",
                "public.heic", "public.heif", "public.avif", "public.jpeg-xl", "public.camera-raw-image", "com.adobe.photoshop-image",
                "public.jpeg-2000", "org.jpeg.jpx", "org.jpeg.jpeg-2000-codestream", "com.apple.icns", "org.x.xpixmap-image",
                "public.xbitmap-image", "org.qoiformat.qoi", "net.sourceforge.netpbm.pfm", "com.microsoft.dds", "com.ilm.openexr-image",
                "com.zsoft.pcx", "com.sgi.sgi-image", "com.sun.raster-image", "org.jbig.jbig", "com.microsoft.wmf", "com.microsoft.emf",
                "public.radiance", "org.gimp.xcf", "gov.nasa.fits", "org.smpte.dpx", "org.nema.dicom",
            ])
        #expect(image["priority"] as? String == "standard")
        #expect(image["origin"] as? String == "built-in")
        #expect(image["capabilities"] as? [String] == ["thumbnail", "preview"])
        #expect(list.last?["identifier"] as? String == "fallback")
        let text = try CLI.run(["generators"], currentDirectory: root)
        #expect(text.stdout.contains("fallback  [thumbnail, preview]  priority fallback  from built-in\n  types:  public.item\n"))
    }

    @Test func anUnknownBinaryPreviewsAsTheFactsSheet() throws {
        let r = try CLI.run(["preview", "Samples/unknown.bin"], currentDirectory: root)
        #expect(r.status == 0)
        #expect(
            r.stdout.hasPrefix(
                "Name:        unknown.bin\nPath:        Samples/unknown.bin\nSize:        2 KB (2,048 bytes)\nType:        data (public.data)\nConforms to: public.item\nMIME type:   application/octet-stream\n"
            ))
        #expect(r.stdout.contains("\nFirst 256 bytes:\n00000000  a3 1c 06 bd 46 3e 39 23  bc 1a ad bd e4 8b 16 97  |....F>9#........|\n"))
    }

    @Test func previewErrorsNameTheFileAndTheOthersAreStillDone() throws {
        let r = try CLI.run(["preview", "Samples/missing.txt", "Samples/unknown.bin"], currentDirectory: root)
        #expect(r.status == 1)
        #expect(r.stderr == "vignette: Samples/missing.txt: no such file or directory\n")
        #expect(r.stdout.hasPrefix("==> Samples/unknown.bin <==\nName:        unknown.bin\n"))
        let bad = try CLI.run(["preview", "--max-bytes", "0", "Samples/notes.txt"], currentDirectory: root)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--max-bytes must be at least 1, not 0"))
    }

    @Test func viewNeverOverwritesTheFileItself() throws {
        let dir = try CLI.tempDirectory()
        let file = dir + "/x.html"
        try Data("<p>hi</p>".utf8).write(to: URL(fileURLWithPath: file))
        let r = try CLI.run(["view", file, "-o", file])
        #expect(r.status == 2)
        #expect(r.stderr == "vignette: \(file): the page \(file) would overwrite the file itself\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "<p>hi</p>")
    }
}

import Foundation
import Testing

/// Every file of Samples/: its type, the generator that draws its thumbnail and the one that
/// writes its preview (system .thumbnailer files off, so the answer does not depend on what the
/// machine has installed; the shipped SVG generator needs `rsvg-convert`, which `make test` installs).
@Suite("Samples")
struct SamplesTests {
    let root = CLI.packageRoot

    static let expected: [(file: String, type: String, thumbnail: String, preview: String)] = [
        ("Info.plist", "com.apple.xml-property-list", "text-thumbnail", "structured-text"),
        ("README.md", "net.daringfireball.markdown", "text-thumbnail", "markdown"),
        ("archive.zip", "public.zip-archive", "fallback", "zip-listing"),
        ("book.epub", "org.idpf.epub-container", "epub-cover", "zip-listing"),
        ("build.sh", "public.shell-script", "text-thumbnail", "source-code"),
        ("calendar.ics", "com.apple.ical.ics", "text-thumbnail", "calendar"),
        ("bundle.tar.gz", "org.gnu.gnu-zip-tar-archive", "fallback", "tar-listing"),
        ("chime.wav", "com.microsoft.waveform-audio", "fallback", "media"),
        ("config.json", "public.json", "text-thumbnail", "json"),
        ("config.toml", "io.toml.toml", "text-thumbnail", "structured-text"),
        ("contacts.vcf", "public.vcard", "text-thumbnail", "contacts"),
        ("budget.xlsx", "org.openxmlformats.spreadsheetml.sheet", "office-page", "office"),
        ("data.csv", "public.comma-separated-values-text", "text-thumbnail", "csv"),
        ("drawing.svg", "public.svg-image", "svg", "markup"),
        ("empty.txt", "org.freedesktop.zerosize", "fallback", "fallback"),
        ("feed.xml", "org.ietf.atom", "text-thumbnail", "markup"),
        ("guide.md", "net.daringfireball.markdown", "text-thumbnail", "markdown"),
        ("japanese-sjis.txt", "public.plain-text", "text-thumbnail", "text"),
        ("letter.odt", "org.oasis-open.opendocument.text", "opendocument-thumbnail", "office"),
        ("lettre-latin1.txt", "public.plain-text", "text-thumbnail", "text"),
        ("logo.png", "public.png", "image", "image"),
        ("logs.tar.xz", "org.tukaani.xz-tar-archive", "fallback", "tar-listing"),
        ("memo.rtf", "public.rtf", "office-page", "rtf"),
        ("message.eml", "com.apple.mail.email", "text-thumbnail", "mail"),
        ("notes.txt", "public.plain-text", "text-thumbnail", "text"),
        ("page.html", "public.html", "text-thumbnail", "markup"),
        ("photo.jpg", "public.jpeg", "image", "image"),
        ("really-a-png.jpg", "public.png", "image", "image"),
        ("report.docx", "org.openxmlformats.wordprocessingml.document", "ooxml-thumbnail", "office"),
        ("report.pdf", "com.adobe.pdf", "pdf-document", "pdf-document"),
        ("scan.dcm", "org.nema.dicom", "image", "image"),
        ("script.py", "public.python-script", "text-thumbnail", "source-code"),
        ("serif-subset.ttf", "public.truetype-ttf-font", "font", "font"),
        ("settings.yaml", "public.yaml", "text-thumbnail", "structured-text"),
        ("table.tsv", "public.tab-separated-values-text", "text-thumbnail", "csv"),
        ("unknown.bin", "public.data", "fallback", "fallback"),
    ]

    @Test func everySampleIsInTheTable() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/Samples").filter { name in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/Samples/" + name, isDirectory: &isDir) && !isDir.boolValue
        }
        #expect(files.sorted() == Self.expected.map(\.file).sorted())
    }

    @Test(arguments: expected)
    func eachSampleGetsItsGenerators(sample: (file: String, type: String, thumbnail: String, preview: String)) throws {
        let r = try CLI.run(["which", "--json", "--no-system-thumbnailers", "Samples/" + sample.file], currentDirectory: root)
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["type"] as? String == sample.type)
        #expect((object["thumbnail"] as? [String: Any])?["chosen"] as? String == sample.thumbnail)
        #expect((object["preview"] as? [String: Any])?["chosen"] as? String == sample.preview)
    }

    @Test func theLegacyEncodingsPreviewAsTheRightCharacters() throws {
        let latin = try CLI.run(["preview", "Samples/lettre-latin1.txt"], currentDirectory: root)
        #expect(latin.stdout == "Chère Amélie,\nvoilà les aperçus de l'été : déjà prêts, à bientôt !\n")
        let sjis = try CLI.run(["preview", "Samples/japanese-sjis.txt"], currentDirectory: root)
        #expect(sjis.stdout == "プレビューを作成します。\n日本語のテキストファイルです。\n")
    }

    @Test func everySampleGetsAThumbnailAndAPreviewWithExitZero() throws {
        let dir = try CLI.tempDirectory()
        let files = Self.expected.map { "Samples/" + $0.file }
        let thumbs = try CLI.run(["thumbnail", "-s", "64", "--no-system-thumbnailers", "-o", dir + "/"] + files, currentDirectory: root)
        #expect(thumbs.status == 0, "\(thumbs.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == files.count)
        let previews = try CLI.run(["preview", "--no-system-thumbnailers"] + files, currentDirectory: root)
        #expect(previews.status == 0, "\(previews.stderr)")
        #expect(previews.stdout.components(separatedBy: "==> Samples/").count == files.count + 1)
    }
}

import Foundation
import Testing

@testable import VignetteCore

let resolver = TypeResolver()

/// The preferred MIME type the built-in resolver gives bytes with a name.
func mime(_ bytes: [UInt8], _ name: String?) -> String {
    let result = resolver.resolve(bytes: bytes, filename: name)
    return resolver.catalog.preferredMIMEType(of: result.type)
}

func mime(_ text: String, _ name: String?) -> String { mime(Array(text.utf8), name) }

/// The bytes of a fixture file.
func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/containers/" + name, withExtension: nil))
    return Array(try Data(contentsOf: url))
}

let pngHeader: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
let gzipHeader: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 3] + Array(repeating: 0x55, count: 32)

/// Deterministic noise (xorshift) that matches no signature.
func noise(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var x = seed
    return (0..<count).map { _ in
        x ^= x << 13; x ^= x >> 7; x ^= x << 17
        return UInt8(truncatingIfNeeded: x)
    }
}

@Suite("Resolution rules")
struct TypeResolverTests {
    @Test func emptyFileHasItsOwnTypeWhateverTheName() {
        for name in ["empty.png", "empty.txt", "empty", nil] {
            let r = resolver.resolve(bytes: [], filename: name)
            #expect(r.type.identifier == "org.freedesktop.zerosize")
            #expect(r.evidence == .emptyFile)
        }
        #expect(mime([], "x.pdf") == "application/x-zerosize")
    }

    @Test func binarySignatureBeatsTheName() {
        #expect(mime(pngHeader, "photo.jpg") == "image/png")
        #expect(mime([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8), "really.gif") == "image/jpeg")
        #expect(mime(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0], "really.png") == "image/gif")
        #expect(mime(Array("%PDF-1.7\n".utf8) + noise(64), "report.txt") == "application/pdf")
        #expect(resolver.resolve(bytes: pngHeader, filename: "x.jpg").evidence == .signature(priority: 80))
    }

    @Test func theNameRefinesAGenericContainerSignature() {
        #expect(mime(gzipHeader, "backup.tar.gz") == "application/x-compressed-tar")
        #expect(mime(gzipHeader, "backup.tgz") == "application/x-compressed-tar")
        #expect(mime(gzipHeader, "icon.svgz") == "image/svg+xml-compressed")
        #expect(mime(gzipHeader, "data.gz") == "application/gzip")
        // A name that is not a kind of the container is ignored.
        #expect(mime(gzipHeader, "notes.txt") == "application/gzip")
    }

    @Test func zipContainersAreRefinedByTheirEntries() throws {
        #expect(mime(try fixture("document.odt.zip"), "document.zip") == "application/vnd.oasis.opendocument.text")
        #expect(mime(try fixture("book.bin"), "book.bin") == "application/epub+zip")
        #expect(mime(try fixture("library.zip"), "library.zip") == "application/java-archive")
        #expect(mime(try fixture("report.zip"), "report.zip") == "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        #expect(mime(try fixture("sheet"), nil) == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        #expect(mime(try fixture("app.zip"), "app.zip") == "application/vnd.android.package-archive")
        #expect(mime(try fixture("plain.zip"), "plain.zip") == "application/zip")
    }

    @Test func aZipIsAJarOnlyWhenItsEntriesSaySo() throws {
        #expect(mime(try fixture("not-a-jar.jar"), "not-a-jar.jar") == "application/zip")
    }

    @Test func aZipAfterAPrefixIsFoundByItsEndRecord() throws {
        let r = resolver.resolve(bytes: try fixture("stub-prefixed.zip"), filename: "installer.bin")
        #expect(resolver.catalog.preferredMIMEType(of: r.type) == "application/zip")
        #expect(r.evidence == .containerEntries("end of central directory found"))
    }

    @Test func oldTarWithoutMagicIsFoundByItsChecksum() throws {
        let r = resolver.resolve(bytes: try fixture("old-v7"), filename: "old-v7")
        #expect(resolver.catalog.preferredMIMEType(of: r.type) == "application/x-tar")
        #expect(r.evidence == .tarHeader)
        var broken = try fixture("old-v7")
        broken[150] = UInt8(ascii: "7")
        #expect(mime(broken, "old-v7") != "application/x-tar")
    }

    @Test func interpreterLineNamesTheScriptLanguage() {
        #expect(mime("#!/usr/bin/env python3\nprint(1)\n", nil) == "text/x-python")
        #expect(mime("#!/usr/bin/python3.11\nprint(1)\n", "tool") == "text/x-python")
        #expect(mime("#!/usr/bin/env -S python3 -u\nprint(1)\n", nil) == "text/x-python")
        #expect(mime("#!/bin/bash\necho hi\n", "run.txt") == "application/x-shellscript")
        let unknown = resolver.resolve(bytes: Array("#!/opt/frob/bin/frobnicate\n".utf8), filename: nil)
        #expect(unknown.type.identifier == "public.script")
        #expect(unknown.evidence == .interpreter("frobnicate"))
    }

    @Test func aScriptWithABinaryTailIsStillAScript() throws {
        let bytes = Array("#!/bin/sh\nexec unzip \"$0\"\nexit\n".utf8) + (try fixture("plain.zip"))
        #expect(mime(bytes, "installer") == "application/x-shellscript")
    }
}

@Suite("Text resolution")
struct TextResolutionTests {
    @Test func byteOrderMarksAreRecognised() {
        let cases: [([UInt8], TextSniffer.Encoding, Int)] = [
            ([0xEF, 0xBB, 0xBF] + Array("café\n".utf8), .utf8, 3),
            ([0xFF, 0xFE] + Array("hi\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, .utf16LE, 2),
            ([0xFE, 0xFF] + Array("hi\n".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, .utf16BE, 2),
            ([0xFF, 0xFE, 0, 0] + Array("hi\n".unicodeScalars).flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] }, .utf32LE, 4),
        ]
        for (bytes, encoding, bom) in cases {
            let r = resolver.resolve(bytes: bytes, filename: "a.txt")
            #expect(r.type.identifier == "public.plain-text")
            #expect(r.text == TextSniffer.Result(encoding: encoding, bomLength: bom))
        }
    }

    @Test func utf16WithoutBOMIsText() {
        let text = "日本語のテキスト: vim tutor, lesson 1.\nカーソルを移動するには h j k l を押します。\n"
        let bytes = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let r = resolver.resolve(bytes: bytes, filename: "tutor.txt")
        #expect(r.type.identifier == "public.plain-text")
        #expect(r.text?.encoding == .utf16LE)
    }

    @Test func legacyEncodingsAreTextNotBinary() {
        // Latin-1 "déjà vu" and Shift-JIS "日本" are not valid UTF-8 but are text.
        let latin1: [UInt8] = Array("d".utf8) + [0xE9] + Array("j".utf8) + [0xE0] + Array(" vu, et voil".utf8) + [0xE0, 0x0A]
        #expect(resolver.resolve(bytes: latin1, filename: nil).text?.encoding == .legacy)
        let sjis: [UInt8] = [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x0A, 0x93, 0xFA, 0x96, 0x7B, 0x0A]
        #expect(mime(sjis, "jp.txt") == "text/plain")
        // ISO-2022-JP relies on ESC sequences.
        let iso2022: [UInt8] = [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x1B, 0x28, 0x42, 0x0A]
        #expect(mime(iso2022, nil) == "text/plain")
    }

    @Test func controlBytesAndNULsMakeBinary() {
        #expect(mime(noise(4096), nil) == "application/octet-stream")
        #expect(mime(Array("hello\u{0}world\n".utf8), nil) == "application/octet-stream")
        var mostlyText = Array(String(repeating: "plain words ", count: 20).utf8)
        for i in stride(from: 0, to: mostlyText.count, by: 10) { mostlyText[i] = 0x02 }
        #expect(mime(mostlyText, nil) == "application/octet-stream")
        // A couple of stray control bytes (a vim macro's ^V) stay text.
        let macro = Array(String(repeating: "move the cursor down a line ", count: 10).utf8) + [0x16, 0x0A]
        #expect(mime(macro, "maze_mac") == "text/plain")
    }

    @Test func markupIsRecognisedByItsRoot() {
        #expect(mime("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", "really.png") == "image/svg+xml")
        #expect(mime("<!-- licence -->\n<svg viewBox=\"0 0 1 1\"></svg>\n", "icon") == "image/svg+xml")
        #expect(mime("<!DOCTYPE html>\n<html><body>hi</body></html>\n", nil) == "text/html")
        #expect(mime("<html>\n<head><title>t</title></head></html>\n", "page.txt") == "text/html")
        #expect(
            mime("<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>\n", nil) == "application/xhtml+xml")
        #expect(mime("<?xml version=\"1.0\"?>\n<note><to>me</to></note>\n", nil) == "application/xml")
        #expect(
            mime("<?xml version=\"1.0\"?>\n<!DOCTYPE plist>\n<plist version=\"1.0\"><dict/></plist>\n", nil)
                == resolver.catalog.preferredMIMEType(of: resolver.catalog.type(withIdentifier: "com.apple.xml-property-list")!))
    }

    @Test func aMarkupNameNeedsMarkupInside() {
        #expect(mime("Just prose, no tags at all.\nSecond line.\n", "really.html") == "text/plain")
        #expect(mime("Just prose.\n", "notes.xml") == "text/plain")
        #expect(mime("<p>Hello</p>\n", "frag.html") == "text/html")
        // Angle-bracketed words in prose are not markup.
        #expect(mime("Press <ESC> to leave insert mode.\nThen type :wq <ENTER>.\n", "tutor.html") == "text/plain")
        #expect(mime("<item id=\"1\"/>\n", "list.xml") == "application/xml")
        // An unknown root without an XML declaration is only weakly XML: an HTML name wins.
        #expect(mime("<!-- c -->\n<blink>old web</blink>\n", "index.html") == "text/html")
        #expect(mime("<!-- c -->\n<blink>old web</blink>\n", nil) == "application/xml")
    }

    @Test func contentStructureBeatsAGenericTextName() {
        #expect(mime("{\n  \"a\": 1\n}\n", "data.txt") == "application/json")
        #expect(mime("[\n  {\"a\": 1}\n]\n", nil) == "application/json")
        #expect(mime("[section]\nkey = value\n", "settings.txt") == "text/plain")
        let mail = "MIME-Version: 1.0\nFrom: a@example.org\nTo: b@example.org\nSubject: hi\n\nbody\n"
        #expect(mime(mail, "message.txt") == "message/rfc822")
        let python = "import os\nimport sys\n\n\ndef main():\n    \"\"\"Run.\"\"\"\n    return 0\n\n\nclass Thing:\n    pass\n"
        #expect(mime(python, "code.txt") == "text/x-python")
        #expect(mime("The class was fun: we learned a lot.\nimport duties apply.\n", "essay.txt") == "text/plain")
        #expect(mime("#define icon_width 2\n#define icon_height 2\nstatic char icon_bits[] = { 0x01, 0x02 };\n", nil) == "image/x-xbitmap")
    }

    @Test func theNameRefinesGenericText() {
        #expect(mime("a,b\n1,2\n", "table.csv") == "text/csv")
        #expect(mime("# Title\n\nSome *text*.\n", "README.md") == "text/markdown")
        #expect(mime("int main(void) { return 0; }\n", "main.c") == "text/x-csrc")
        #expect(
            mime("all:\n\tcc main.c\n", "Makefile")
                == resolver.catalog.preferredMIMEType(of: resolver.catalog.declaredType(forFilename: "Makefile")!))
        #expect(mime("print('hello')\n", "hello.txt") == "text/plain")
    }

    @Test func aBinaryNameIsBelievedOnlyWithoutASignatureToCheck() {
        // A Nikon raw file has no signature of its own: its name is all there is.
        #expect(resolver.resolve(bytes: noise(512), filename: "photo.nef").type.identifier == "com.nikon.raw-image")
        // TGA has only weak plausibility signatures: they cannot overrule its name.
        #expect(mime(noise(512), "image.tga") == "image/x-tga")
        // PNG has one, and these bytes do not carry it.
        #expect(mime(noise(512), "image.png") == "application/octet-stream")
        #expect(mime("Four score and seven years ago\n", "really-text.png") == "text/plain")
    }
}

@Suite("Reading files")
struct FileReadingTests {
    func temp(_ name: String) -> String {
        let dir = NSTemporaryDirectory() + "vignette-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/" + name
    }

    @Test func missingFile() {
        let path = temp("missing.txt")
        #expect(throws: VignetteError(.notFound, path: path, "no such file or directory")) { try resolver.resolve(path: path) }
    }

    @Test func directory() {
        let path = NSTemporaryDirectory()
        #expect(throws: VignetteError(.isDirectory, path: path, "is a directory")) { try resolver.resolve(path: path) }
    }

    @Test func brokenSymlink() throws {
        let path = temp("dangling")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + ".nowhere")
        #expect(throws: VignetteError(.brokenSymlink, path: path, "broken symbolic link (its target does not exist)")) {
            try resolver.resolve(path: path)
        }
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let path = temp("pipe")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: VignetteError(.notRegularFile, path: path, "is a FIFO (named pipe), not a regular file")) {
            try resolver.resolve(path: path)
        }
    }

    @Test func deviceNodeIsRefused() {
        #expect(throws: VignetteError(.notRegularFile, path: "/dev/null", "is a character device, not a regular file")) {
            try resolver.resolve(path: "/dev/null")
        }
    }

    @Test func unreadableFile() throws {
        #expect(VignetteError.fromErrno(EACCES, path: "secret.txt").description == "secret.txt: permission denied")
        // Root reads everything; the CLI tests check this case as an unprivileged user.
        guard getuid() != 0 else { return }
        let path = temp("secret.txt")
        try "secret".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0)
        #expect(throws: VignetteError(.permissionDenied, path: path, "permission denied")) { try resolver.resolve(path: path) }
    }

    @Test func aSymlinkToAFileResolvesItsTarget() throws {
        let target = temp("real.json")
        try "{\"a\": 1}".write(toFile: target, atomically: true, encoding: .utf8)
        let link = target + ".link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(resolver.catalog.preferredMIMEType(of: try resolver.resolve(path: link).type) == "application/json")
    }

    @Test func resolutionReadsABoundedAmountOfAHugeFile() throws {
        let path = temp("big.bin")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(noise(4 << 20))))
        let sample = try FileSample(path: path)
        let r = resolver.resolve(sample)
        #expect(r.type.identifier == "public.data")
        #expect(sample.head.count == TypeResolver.headSize)
        // Beyond the head: the zip end-record window and the few bytes of far signatures (ISO 9660 at 32 KiB).
        #expect(sample.extraBytesRead <= 22 + 0xFFFF + 64)
    }
}

import Foundation
import Testing

/// `vignette preview` and `view` of Office documents through the real binary: a DOCX written
/// by the real LibreOffice shows its text, and zip and XML bombs stop quickly and cheaply.
@Suite("vignette preview of Office documents")
struct OfficePreviewCommandTests {
    static let office = "/usr/bin/libreoffice"

    private func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-office-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aDocxWrittenByLibreOfficePreviewsAsItsTextNotItsZipListing() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.office),
            "LibreOffice is not installed: run `make test-deps` (libreoffice-writer-nogui)")
        let dir = try scratch()
        try "<html><body><h1>Quarterly Report</h1><p>Revenue grew.</p><ul><li>North</li><li>South</li></ul></body></html>"
            .write(toFile: dir + "/report.html", atomically: true, encoding: .utf8)
        let converted = try CLI.runProgram(
            Self.office,
            [
                "-env:UserInstallation=file://\(dir)/profile", "--headless", "--convert-to", "docx:MS Word 2007 XML", "--outdir", dir,
                dir + "/report.html",
            ],
            deadline: 180)
        try #require(FileManager.default.fileExists(atPath: dir + "/report.docx"), "LibreOffice wrote no report.docx: \(converted.stderr)")

        let preview = try CLI.run(["preview", dir + "/report.docx"])
        #expect(preview.status == 0)
        #expect(preview.stdout == "# Quarterly Report\n\nRevenue grew.\n\n• North\n• South\n")
        let which = try CLI.run(["which", dir + "/report.docx"])
        #expect(which.stdout.contains("preview: office answers\n"))
        let view = try CLI.run(["view", "-o", dir + "/report.html", dir + "/report.docx"])
        #expect(view.status == 0)
        let page = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        #expect(page.contains("<h1>Quarterly Report</h1>\n<p>Revenue grew.</p>\n"))
        #expect(!page.contains("document.xml"))
    }

    /// Writes the three bombs and runs `vignette preview --no-fallback` on each, reporting the
    /// exit status, the message, the seconds taken and the peak resident memory (from wait4).
    private func runBombs(in dir: String) throws -> [[String: Any]] {
        let script = """
            import json, os, struct, subprocess, sys, time, zlib
            vignette, dir = sys.argv[1], sys.argv[2]
            def write_zip(path, entries):
                out, central = bytearray(), bytearray()
                for name, data, method, size, crc in entries:
                    n, off = name.encode(), len(out)
                    out += struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, method, 0, 0, crc, len(data), size, len(n), 0) + n + data
                    central += struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, method, 0, 0, crc, len(data), size, len(n), 0, 0, 0, 0, 0, off) + n
                cd = len(out)
                out += central + struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, len(entries), len(entries), len(central), cd, 0)
                open(path, 'wb').write(out)
            def stored(name, data): return (name, data, 0, len(data), zlib.crc32(data))
            types = stored('[Content_Types].xml', b'<Types/>')
            # 1 GiB of zeros: 1 MiB deflated with a full flush (byte-aligned, no back references
            # across it), repeated 1,024 times, then a final empty block.
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            chunk = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
            crc = 0
            for _ in range(1024): crc = zlib.crc32(bytes(1 << 20), crc)
            write_zip(dir + '/zip-bomb.docx', [types, ('word/document.xml', chunk * 1024 + b'\\x03\\x00', 8, 1 << 30, crc)])
            lol = '<!DOCTYPE lolz [<!ENTITY lol "lol">' + ''.join('<!ENTITY lol%d "%s">' % (i, ('&lol%s;' % ('' if i == 1 else i - 1)) * 10) for i in range(1, 10))
            lol += ']><w:document><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>'
            write_zip(dir + '/laughs.docx', [types, stored('word/document.xml', lol.encode())])
            deep = '<w:document><w:body>' + '<w:p>' * 100000 + '</w:p>' * 100000 + '</w:body></w:document>'
            write_zip(dir + '/deep.docx', [types, stored('word/document.xml', deep.encode())])
            for name in ['zip-bomb', 'laughs', 'deep']:
                start = time.monotonic()
                child = subprocess.Popen([vignette, 'preview', '--no-fallback', dir + '/' + name + '.docx'], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                err = child.stderr.read().decode()
                _, status, usage = os.wait4(child.pid, 0)
                print(json.dumps({'name': name, 'status': os.waitstatus_to_exitcode(status), 'stderr': err,
                                  'seconds': time.monotonic() - start, 'rssMB': usage.ru_maxrss / 1024}))
            """
        let r = try CLI.runProgram("/usr/bin/python3", ["-c", script, CLI.binary, dir], deadline: 120)
        #expect(r.status == 0, "\(r.stderr)")
        return try r.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func zipAndXMLBombsStopWithTheirReasonInUnderTwoSecondsAnd200MB() throws {
        let dir = try scratch()
        let results = try runBombs(in: dir)
        let expected = [
            "zip-bomb": "word/document.xml is 1.1 GB uncompressed, over the limit of 33.6 MB",
            "laughs": "word/document.xml has a DOCTYPE or other declaration; Office parts have none, and entities are not expanded",
            "deep": "word/document.xml nests deeper than 256 elements",
        ]
        #expect(results.count == 3)
        for result in results {
            let name = try #require(result["name"] as? String)
            #expect(result["status"] as? Int == 1, "\(name)")
            #expect(result["stderr"] as? String == "vignette: \(dir)/\(name).docx: \(expected[name] ?? "")\n")
            #expect((result["seconds"] as? Double ?? 99) < 2, "\(name) took \(result["seconds"] ?? "?") s")
            #expect((result["rssMB"] as? Double ?? 999) < 200, "\(name) peaked at \(result["rssMB"] ?? "?") MB")
        }
    }
}

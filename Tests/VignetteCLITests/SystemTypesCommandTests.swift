import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("vignette type with the system MIME database")
struct SystemTypesCommandTests {
    /// A temporary `$XDG_DATA_HOME` holding one package, and a folder to put files in.
    func install(_ xml: String) throws -> (dataHome: String, dir: String, package: String) {
        let dir = try CLI.tempDirectory()
        let packages = dir + "/data/mime/packages"
        try FileManager.default.createDirectory(atPath: packages, withIntermediateDirectories: true)
        try xml.write(toFile: packages + "/acme.xml", atomically: true, encoding: .utf8)
        return (dir + "/data", dir, packages + "/acme.xml")
    }

    static let acme = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
          <mime-type type="text/x-acme-notes">
            <comment>ACME notes</comment>
            <sub-class-of type="text/plain"/>
            <glob pattern="*.acmenotes"/>
            <magic priority="60"><match type="string" value="#ACME-NOTES" offset="0"/></magic>
          </mime-type>
          <mime-type type="application/x-acme-sketch">
            <comment>ACME sketch</comment>
            <sub-class-of type="application/x-acme-document"/>
            <magic priority="80"><match type="string" value="ACME\x00SKETCH" offset="0"/></magic>
          </mime-type>
          <mime-type type="application/x-acme-document">
            <comment>ACME document</comment>
            <glob pattern="*.acmedoc"/>
          </mime-type>
        </mime-info>
        """#

    @Test func aCustomMIMETypeIsKnownByNameByContentWithItsParentAndItsGenerator() throws {
        let (dataHome, dir, package) = try install(Self.acme)
        try "milk\neggs\n".write(toFile: dir + "/todo.acmenotes", atomically: true, encoding: .utf8)
        try "#ACME-NOTES 1\nmilk\n".write(toFile: dir + "/list.txt", atomically: true, encoding: .utf8)
        try Data(Array("ACME".utf8) + [0] + Array("SKETCH".utf8) + [0, 0, 0, 0x9F, 0xFF, 0x01, 0x00, 0x80, 0x00]).write(
            to: URL(fileURLWithPath: dir + "/drawing.bin"))
        let env = ["XDG_DATA_HOME": dataHome]
        let r = try CLI.run(["type", "--explain", "todo.acmenotes", "list.txt", "drawing.bin"], environment: env, currentDirectory: dir)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                todo.acmenotes: org.freedesktop.mime.text.x-acme-notes (text/x-acme-notes); conforms to public.plain-text, public.text, public.data, public.content, public.item
                  ACME notes; decided by text, typed by its file name; ASCII text; rule from the system MIME database (\(package))
                list.txt: org.freedesktop.mime.text.x-acme-notes (text/x-acme-notes); conforms to public.plain-text, public.text, public.data, public.content, public.item
                  ACME notes; decided by byte signature (priority 60); ASCII text; rule from the system MIME database (\(package))
                drawing.bin: org.freedesktop.mime.application.x-acme-sketch (application/x-acme-sketch); conforms to org.freedesktop.mime.application.x-acme-document, public.data, public.item
                  ACME sketch; decided by byte signature (priority 80); rule from the system MIME database (\(package))

                """)

        // A manifest generator keyed to the MIME type answers for it.
        try FileManager.default.createDirectory(atPath: dir + "/gens", withIntermediateDirectories: true)
        try
            #"{ "generator": { "identifier": "com.example.acme-notes", "kind": "text", "mimeTypes": ["text/x-acme-notes"], "exec": ["cat", "%i"] } }"#
            .write(toFile: dir + "/gens/acme.json", atomically: true, encoding: .utf8)
        let which = try CLI.run(["which", "--generators", "gens", "todo.acmenotes"], environment: env, currentDirectory: dir)
        #expect(which.status == 0)
        #expect(which.stdout.contains("preview: com.example.acme-notes answers\n"))
        #expect(which.stdout.contains("1. com.example.acme-notes  org.freedesktop.mime.text.x-acme-notes (exact)  standard   chosen\n"))
        let preview = try CLI.run(["preview", "--generators", "gens", "list.txt"], environment: env, currentDirectory: dir)
        #expect(preview.status == 0)
        #expect(preview.stdout == "#ACME-NOTES 1\nmilk\n")

        // Without the system database the same files are plain text and data.
        let off = try CLI.run(
            ["type", "--mime", "--no-system-types", "todo.acmenotes", "drawing.bin"], environment: env, currentDirectory: dir)
        #expect(off.stdout == "todo.acmenotes\ttext/plain\ndrawing.bin\tapplication/octet-stream\n")
    }

    @Test func typesListsEveryMIMETypeOfDebiansDatabase() throws {
        let path = "/usr/share/mime/packages/freedesktop.org.xml"
        try #require(FileManager.default.fileExists(atPath: path), "shared-mime-info is not installed (make test installs it)")
        // Read independently of Vignette, with Foundation's XML parser.
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        let declared = try document.nodes(forXPath: "/*[local-name()='mime-info']/*[local-name()='mime-type']/@type").compactMap(
            \.stringValue)
        #expect(declared.count > 800)
        let r = try CLI.run(["types", "--json"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let types = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let listed = Set(types.flatMap { ($0["mimeTypes"] as? [String] ?? []).map { $0.lowercased() } })
        let missing = declared.filter { !listed.contains($0.lowercased()) }
        #expect(missing == [])
    }

    @Test func hostileDatabaseFilesAreReportedWithFileAndLineAndTheCommandCarriesOn() throws {
        let stars = String(repeating: "*", count: 10_000)
        let xml = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
              <mime-type type="application/x-far"><magic><match type="string" value="FAR" offset="0:2147483648"/></magic></mime-type>
              <mime-type type="application/x-stars"><glob pattern="\#(stars)"/></mime-type>
              <mime-type type="application/x-a"><sub-class-of type="application/x-b"/></mime-type>
              <mime-type type="application/x-b"><sub-class-of type="application/x-a"/></mime-type>
              <mime-type type="application/x-good"><glob pattern="*.good"/></mime-type>
            </mime-info>
            """#
        let (dataHome, dir, package) = try install(xml)
        let huge = dataHome + "/mime/packages/huge.xml"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        // A FIFO nobody writes to: read, it would block every command for good.
        #expect(mkfifo(dataHome + "/mime/packages/pipe.xml", 0o644) == 0)
        try Data([0, 1, 2, 3, 0xFF]).write(to: URL(fileURLWithPath: dir + "/x.good"))
        let r = try CLI.run(["type", "--mime", "x.good"], environment: ["XDG_DATA_HOME": dataHome], currentDirectory: dir)
        #expect(r.status == 0)
        #expect(r.stdout == "x.good\tapplication/x-good\n")
        #expect(
            r.stderr == """
                vignette: \(package):3: warning: magic match skipped: offset 0:2147483648 looks past the first 1048576 bytes of a file
                vignette: \(package):4: warning: glob pattern is 10000 characters long; at most 255 are read; skipped
                vignette: \(huge): warning: is 100.0 MB; MIME packages larger than 16 MB are not read
                vignette: \(dataHome)/mime/packages/pipe.xml: warning: is a FIFO (named pipe), not a regular file
                vignette: \(package):6: warning: application/x-b is a subclass of application/x-a, which makes a cycle; that parent was skipped

                """)
    }
}

import Foundation
import Testing
import VignetteCore

/// Office documents written at test time by the real LibreOffice (`make test` installs it):
/// sources written here, converted once with `libreoffice --headless --convert-to`.
enum LibreOfficeDocuments {
    /// The word processing source: a heading, a paragraph, bullets, a numbered list and a table.
    static let reportHTML = """
        <html><head><title>Report for the board</title><meta name="author" content="Ada Lovelace"></head><body>
        <h1>Quarterly Report</h1>
        <p>Revenue grew &amp; costs fell.</p>
        <h2>Highlights</h2>
        <ul><li>First bullet</li><li>Second bullet</li></ul>
        <ol><li>Step one</li><li>Step two</li></ol>
        <table border="1"><tr><td>Region</td><td>Sales</td></tr><tr><td>North</td><td>120</td></tr></table>
        </body></html>
        """

    /// Checks that `result` is the preview of the report: `properties` (the `Label: value` lines
    /// a format keeps, with their blank line), then the text as the `.docx` shows it.
    static func expectReport(_ result: TextPreview, properties: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            result.text == properties + """
                # Quarterly Report

                Revenue grew & costs fell.

                ## Highlights

                • First bullet
                • Second bullet
                1. Step one
                2. Step two

                Region | Sales
                North  | 120
                """, sourceLocation: sourceLocation)
        #expect(
            result.html.contains("<h1>Quarterly Report</h1>\n<p>Revenue grew &amp; costs fell.</p>\n<h2>Highlights</h2>\n"),
            sourceLocation: sourceLocation)
        #expect(
            result.html.contains("<table class=\"vignette-table\">\n<tr><td>Region</td><td>Sales</td></tr>\n"),
            sourceLocation: sourceLocation)
        #expect(!result.truncated, sourceLocation: sourceLocation)
    }

    /// The spreadsheet source: text, a decimal and ISO dates, which LibreOffice reads as dates.
    static let budgetCSV = "Name,Amount,When\nApples,3.5,2024-03-15\nPears,42,2023-12-31\n"

    /// The presentation source (flat ODP): two slides with title and outline placeholders.
    static let deckFODP = """
        <?xml version="1.0" encoding="UTF-8"?>
        <office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
        xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" \
        xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" \
        xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" \
        xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" \
        xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" \
        xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" \
        office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
        <office:styles><style:presentation-page-layout style:name="AL1T1">\
        <presentation:placeholder presentation:object="title" svg:x="2cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"/>\
        <presentation:placeholder presentation:object="outline" svg:x="2cm" svg:y="5cm" svg:width="20cm" svg:height="3cm"/>\
        </style:presentation-page-layout></office:styles>
        <office:automatic-styles>
        <style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="15.75cm"/></style:page-layout>
        <style:style style:name="pr1" style:family="presentation"/>
        </office:automatic-styles>
        <office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1"/></office:master-styles>
        <office:body><office:presentation>
        \(slide(1, title: "Welcome Deck", body: "Opening remarks"))
        \(slide(2, title: "Second Slide", body: "Details here"))
        </office:presentation></office:body>
        </office:document>
        """

    // A frame is a presentation placeholder (exported as <p:ph type="title"/>) only with a
    // presentation style and on the layout layer; the page layout makes it one in .ppt too.
    private static func slide(_ n: Int, title: String, body: String) -> String {
        func frame(_ kind: String, _ y: Int, _ text: String) -> String {
            """
            <draw:frame presentation:style-name="pr1" draw:layer="layout" presentation:class="\(kind)" \
            presentation:user-transformed="true" svg:x="2cm" svg:y="\(y)cm" svg:width="20cm" svg:height="3cm">\
            <draw:text-box><text:p>\(text)</text:p></draw:text-box></draw:frame>
            """
        }
        return "<draw:page draw:name=\"page\(n)\" draw:master-page-name=\"Default\" presentation:presentation-page-layout-name=\"AL1T1\">"
            + frame("title", 1, title) + frame("outline", 5, body) + "</draw:page>"
    }

    /// The converted files by extension (`docx`, `odt`, `xlsx`, `ods`, `pptx`, `odp`, the
    /// legacy `doc`, `xls`, `ppt`, and `rtf`), made once.
    static let converted: Result<[String: String], LibreOfficeMissing> = convertAll()

    /// The path of the converted document with extension `ext`, or a failure saying why there is none.
    static func path(_ ext: String) throws -> String {
        let files = try converted.get()
        return try #require(files[ext], "LibreOffice did not write the .\(ext) file")
    }

    /// Why the LibreOffice documents could not be made.
    struct LibreOfficeMissing: Error, CustomStringConvertible {
        /// The reason.
        let description: String
    }

    private static func convertAll() -> Result<[String: String], LibreOfficeMissing> {
        let candidates = ["/usr/bin/libreoffice", "/usr/bin/soffice", "/usr/lib/libreoffice/program/soffice"]
        guard let office = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return .failure(
                LibreOfficeMissing(
                    description:
                        "LibreOffice is not installed: run `make test-deps` (libreoffice-writer-nogui, -calc-nogui, -impress-nogui)"))
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-lo-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try reportHTML.write(toFile: dir + "/report.html", atomically: true, encoding: .utf8)
            try budgetCSV.write(toFile: dir + "/budget.csv", atomically: true, encoding: .utf8)
            try deckFODP.write(toFile: dir + "/deck.fodp", atomically: true, encoding: .utf8)
        } catch {
            return .failure(LibreOfficeMissing(description: "could not write the sources: \(error)"))
        }
        let jobs = [
            ("docx:MS Word 2007 XML", "report.html", "docx"), ("odt", "report.html", "odt"),
            ("xlsx", "budget.csv", "xlsx"), ("ods", "budget.csv", "ods"),
            ("pptx", "deck.fodp", "pptx"), ("odp", "deck.fodp", "odp"),
            ("doc:MS Word 97", "report.html", "doc"), ("xls", "budget.csv", "xls"), ("ppt", "deck.fodp", "ppt"),
            ("rtf:Rich Text Format", "report.html", "rtf"),
        ]
        var out: [String: String] = [:]
        for (filter, source, ext) in jobs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: office)
            // A profile of its own: a user's running LibreOffice or another test run cannot lock it.
            process.arguments = [
                "-env:UserInstallation=file://\(dir)/profile", "--headless", "--norestore", "--convert-to", filter,
                "--outdir", dir, dir + "/" + source,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
                process.waitUntilExit()
            } catch {
                return .failure(LibreOfficeMissing(description: "\(office) could not be run: \(error)"))
            }
            let name = dir + "/" + (source as NSString).deletingPathExtension + "." + ext
            guard FileManager.default.fileExists(atPath: name) else {
                return .failure(LibreOfficeMissing(description: "\(office) --convert-to \(filter) \(source) wrote nothing"))
            }
            out[ext] = name
        }
        return .success(out)
    }
}

import Foundation
import Testing
import VignetteCore

/// Legacy Office files typed by the streams of their compound file, as `file` types them, not
/// only by their names: standard input and nameless uploads are typed too, and a wrong name is
/// overruled.
@Suite("Legacy Office files typed by their streams")
struct CompoundFileTypeTests {
    private let resolver = TypeResolver(catalog: GeneratorFixtures.registry.catalog)

    @Test(arguments: [
        ("doc", "com.microsoft.word.doc", "WordDocument"), ("xls", "com.microsoft.excel.xls", "Workbook"),
        ("ppt", "com.microsoft.powerpoint.ppt", "PowerPoint Document"),
    ])
    func aNamelessFileIsTypedByItsMainStream(ext: String, type: String, stream: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try LibreOfficeDocuments.path(ext))))
        let resolution = resolver.resolve(bytes: bytes, filename: nil)
        #expect(resolution.type.identifier == type)
        #expect(resolution.evidence.description == "byte signature and file structure: compound file stream \(stream)")
    }

    @Test func theStreamsOverruleAWrongName() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try LibreOfficeDocuments.path("doc"))))
        #expect(resolver.resolve(bytes: bytes, filename: "budget.xls").type.identifier == "com.microsoft.word.doc")
    }

    @Test func aCompoundFileWithoutADocumentStreamStaysOLE2() throws {
        // The header of a compound file and nothing else: its directory cannot be read.
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<8, with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
        #expect(resolver.resolve(bytes: header, filename: nil).type.identifier == "com.microsoft.ole2")
        #expect(resolver.resolve(bytes: header, filename: "mail.msg").type.identifier != "com.microsoft.word.doc")
    }
}

extension CompoundFileTypeTests {
    @Test func aNameMoreSpecificThanTheStreamsStillRefinesThem() throws {
        // shared-mime-info declares Word templates as a kind of Word document, by their name only.
        let xml = """
            <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
            <mime-type type="application/msword-template"><sub-class-of type="application/msword"/>\
            <comment>Word template</comment><glob pattern="*.dot"/></mime-type></mime-info>
            """
        let package = MIMEPackageReader.read(bytes: Array(xml.utf8), path: "templates.xml")
        let (catalog, problems) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(packages: [package]))
        #expect(problems.isEmpty)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try LibreOfficeDocuments.path("doc"))))
        let resolution = TypeResolver(catalog: catalog).resolve(bytes: bytes, filename: "letter.dot")
        #expect(catalog.preferredMIMEType(of: resolution.type) == "application/msword-template")
        #expect(resolution.evidence.description == "byte signature of com.microsoft.word.doc, refined by the file name")
    }
}

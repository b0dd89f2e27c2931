import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("ar archives: static libraries and Debian packages")
struct ArListingTests {
    private func preview(_ input: GeneratorInput) throws -> (TextPreview, String) {
        let (preview, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        return (preview, generator)
    }

    @Test func aDebianPackageShowsItsControlFieldsAndItsFiles() throws {
        let (preview, generator) = try preview(GeneratorFixtures.input("archives/demo.deb"))
        #expect(generator == "ar-listing")
        #expect(preview.title == "Debian package vignette-demo 1.2-3, 2 files, 1.5 KB uncompressed")
        #expect(
            preview.text == """
                Package: vignette-demo
                Version: 1.2-3
                Architecture: all
                Maintainer: Vignette <vignette@example.org>
                Installed-Size: 12
                Section: graphics
                Priority: optional
                Depends: libc6 (>= 2.36)
                Description: demonstration package for the ar listing
                  Its files are listed by Vignette's preview.

                  A second paragraph.

                Files (data.tar.xz):
                demo.deb
                └── usr/
                    ├── bin/
                    │   └── vignette-demo (20 bytes)
                    └── share/
                        └── doc/
                            └── vignette-demo/
                                └── README (1.5 KB)

                2 files, 5 directories, 1.5 KB uncompressed (304 bytes compressed)

                """)
        #expect(preview.html.hasPrefix("<dl class=\"facts\"><dt>Package</dt><dd>vignette-demo</dd>"))
        #expect(preview.html.contains("<h3>Files (data.tar.xz)</h3>\n<ul class=\"vignette-tree\">"))
        #expect(!preview.truncated)
    }

    @Test func aPackageBuiltByDpkgDebIsListedLikeOurs() throws {
        let dpkgDeb = "/usr/bin/dpkg-deb"
        try #require(FileManager.default.isExecutableFile(atPath: dpkgDeb), "dpkg-deb is part of every Debian system")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-deb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = root.appendingPathComponent("pkg")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("DEBIAN"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: tree.appendingPathComponent("usr/share/vignette-real"), withIntermediateDirectories: true)
        try "Package: vignette-real\nVersion: 0.1\nArchitecture: all\nMaintainer: V <v@example.org>\nDescription: built by dpkg-deb\n"
            .write(to: tree.appendingPathComponent("DEBIAN/control"), atomically: true, encoding: .utf8)
        try String(repeating: "x", count: 3000).write(
            to: tree.appendingPathComponent("usr/share/vignette-real/data.txt"), atomically: true, encoding: .utf8)
        for compression in ["xz", "gzip", "zstd", "none"] {
            let deb = root.appendingPathComponent("real-\(compression).deb")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: dpkgDeb)
            process.arguments = ["--root-owner-group", "-Z\(compression)", "--build", tree.path, deb.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            let (preview, generator) = try preview(
                try GeneratorInput(path: deb.path, resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog)))
            #expect(generator == "ar-listing")
            #expect(preview.title == "Debian package vignette-real 0.1, 1 file, 3 KB uncompressed", "\(compression)")
            #expect(preview.text.hasPrefix("Package: vignette-real\nVersion: 0.1\nArchitecture: all\n"), "\(compression)")
            #expect(preview.text.contains("\n            └── data.txt (3 KB)\n"), "\(compression)")
        }
    }

    @Test func aStaticLibraryListsItsMembersWithGNULongNames() throws {
        let (preview, generator) = try preview(GeneratorFixtures.input("archives/libdemo.a"))
        #expect(generator == "ar-listing")
        #expect(preview.title == "ar archive, 2 files, 2.1 KB")
        #expect(
            preview.text
                == "libdemo.a\n├── a-member-with-a-long-name.o (2 KB)\n└── short.o (7 bytes)\n\n2 files, 0 directories, 2.1 KB\n")
    }

    @Test func bsdLongNamesLeadTheData() throws {
        let (preview, _) = try preview(GeneratorFixtures.input("archives/bsd-names.a"))
        #expect(preview.text == "bsd-names.a\n└── a-long-bsd-member-name.o (100 bytes)\n\n1 file, 0 directories, 100 bytes\n")
    }

    @Test func aCutArchiveListsWhatCameBeforeTheCut() throws {
        let (preview, _) = try preview(GeneratorFixtures.input("archives/truncated.a"))
        #expect(
            preview.text.hasSuffix(
                "└── short.o (7 bytes)\n\n1 file, 0 directories, 7 bytes\n(the archive is damaged or cut short after 1 member)\n"))
        #expect(preview.truncated)
    }

    @Test func notAnArArchiveIsAClearError() throws {
        let input = GeneratorInput(
            bytes: Array("!<arch>X not really".utf8), filename: "fake.a",
            resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        #expect(throws: VignetteError(.corrupt, "not an ar archive (no !<arch> signature)")) {
            try ArListingGenerator().makePreview(for: input, request: PreviewRequest())
        }
    }

    @Test func aMemberClaimingMoreThanTheFileHoldsStopsTheListing() throws {
        var bytes = Array("!<arch>\n".utf8)
        bytes += Array("big.o/          0           0     0     100644  99999999  `\n".utf8) + Array("tiny".utf8)
        let input = GeneratorInput(bytes: bytes, filename: "lying.a", resolver: TypeResolver(catalog: GeneratorFixtures.registry.catalog))
        let preview = try ArListingGenerator().makePreview(for: input, request: PreviewRequest())
        #expect(preview.text.hasSuffix("0 files, 0 directories, 0 bytes\n(the archive is damaged or cut short after 0 members)\n"))
    }
}

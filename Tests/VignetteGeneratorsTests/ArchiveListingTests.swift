import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

/// The tree every `listing.*` fixture holds (see Fixtures/make-archives.py), below its root line.
private let listingTree = """
    ├── README.md (70 bytes)
    ├── docs/
    │   ├── guide.txt (1.5 KB)
    │   └── img/
    │       └── logo.png (2.5 KB)
    └── src/
        ├── lib/
        │   └── util.c (1 byte)
        └── main.c (29 bytes)
    """

@Suite("Archive listings")
struct ArchiveListingTests {
    private func preview(_ input: GeneratorInput) throws -> (TextPreview, String) {
        let (preview, generator, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        return (preview, generator)
    }

    @Test func aZipIsListedAsATreeWithSizesAndTotals() throws {
        let (preview, generator) = try preview(GeneratorFixtures.input("archives/listing.zip"))
        #expect(generator == "zip-listing")
        #expect(preview.title == "ZIP archive, 5 files, 4.1 KB uncompressed")
        #expect(preview.text == "listing.zip\n\(listingTree)\n\n5 files, 4 directories, 4.1 KB uncompressed (84 bytes compressed)\n")
        #expect(!preview.truncated)
        #expect(
            preview.html.contains(
                "<li>docs/\n<ul>\n<li>guide.txt (1.5 KB)</li>\n<li>img/\n<ul>\n<li>logo.png (2.5 KB)</li>\n</ul>\n</li>\n</ul>\n</li>"))
        #expect(preview.html.contains("<p class=\"vignette-totals\">5 files, 4 directories, 4.1 KB uncompressed (84 bytes compressed)</p>"))
    }

    @Test(arguments: [
        ("listing.tar", "tar archive, 5 files, 4.1 KB", "5 files, 4 directories, 4.1 KB"),
        (
            "listing.tar.gz", "gzip-compressed tar archive, 5 files, 4.1 KB uncompressed",
            "5 files, 4 directories, 4.1 KB uncompressed (302 bytes compressed)"
        ),
        (
            "listing.tar.bz2", "bzip2-compressed tar archive, 5 files, 4.1 KB uncompressed",
            "5 files, 4 directories, 4.1 KB uncompressed (342 bytes compressed)"
        ),
        (
            "listing.tar.xz", "xz-compressed tar archive, 5 files, 4.1 KB uncompressed",
            "5 files, 4 directories, 4.1 KB uncompressed (348 bytes compressed)"
        ),
        (
            "listing.tar.lzma", "LZMA-compressed tar archive, 5 files, 4.1 KB uncompressed",
            "5 files, 4 directories, 4.1 KB uncompressed (303 bytes compressed)"
        ),
        (
            "listing.tar.zst", "Zstandard-compressed tar archive, 5 files, 4.1 KB uncompressed",
            "5 files, 4 directories, 4.1 KB uncompressed (265 bytes compressed)"
        ),
        (
            "listing-in-disguise.gz", "gzip-compressed tar archive, 5 files, 4.1 KB uncompressed",
            "5 files, 4 directories, 4.1 KB uncompressed (302 bytes compressed)"
        ),
    ])
    func tarsPlainOrCompressedListTheSameTree(file: String, title: String, totals: String) throws {
        let (preview, generator) = try preview(GeneratorFixtures.input("archives/" + file))
        #expect(generator == "tar-listing")
        #expect(preview.title == title)
        #expect(preview.text == "\(file)\n\(listingTree)\n\n\(totals)\n")
    }

    @Test func aZstdFrameAskingForAHugeWindowIsRefusedBeforeItsMemory() throws {
        // The frame header asks for a 2 GiB window (zstd --long=31): over the 256 MiB cap.
        #expect(throws: VignetteError(.limitExceeded, "zstd data needs more than 256 MiB of memory to decompress")) {
            try TarListingGenerator(catalog: GeneratorFixtures.registry.catalog).makePreview(
                for: try GeneratorFixtures.input("archives/huge-window.tar.zst"), request: PreviewRequest())
        }
    }

    @Test func anUploadedTarGzIsStreamedFromMemory() throws {
        let (preview, _) = try preview(GeneratorFixtures.upload("archives/listing.tar.gz", as: "upload.tgz"))
        #expect(preview.text == "upload.tgz\n\(listingTree)\n\n5 files, 4 directories, 4.1 KB uncompressed (302 bytes compressed)\n")
    }

    @Test func gnuLongNamesAndPaxPathsGiveTheFullPath() throws {
        let directory = String(repeating: "very-long-directory-name-", count: 5)
        let (gnu, _) = try preview(GeneratorFixtures.input("archives/gnu-longname.tar"))
        #expect(
            gnu.text
                == "gnu-longname.tar\n└── \(directory)/\n    └── file-with-a-long-name.txt (42 bytes)\n\n1 file, 1 directory, 42 bytes\n")
        let (pax, _) = try preview(GeneratorFixtures.input("archives/pax-path.tar"))
        #expect(pax.text == "pax-path.tar\n└── \(directory)/\n    └── päx-with-a-long-name.txt (7 bytes)\n\n1 file, 1 directory, 7 bytes\n")
    }

    @Test func sparseFilesShowTheirRealSizeInEveryGNUAndPaxFlavour() throws {
        let (preview, _) = try preview(GeneratorFixtures.input("archives/sparse-formats.tar"))
        #expect(
            preview.text == """
                sparse-formats.tar
                ├── end (4 bytes)
                ├── sparse-gnu (200 bytes)
                ├── sparse-posix-0.0 (200 bytes)
                ├── sparse-posix-0.1 (200 bytes)
                └── sparse-posix-1.0 (200 bytes)

                5 files, 0 directories, 804 bytes

                """)
    }

    @Test func aVeryLongNameIsShownCutAndManyLongNamesStopTheListing() throws {
        let long = String(repeating: "n", count: 3000)
        let one = GeneratorInput(bytes: TarBuilder.file(long, size: 3) + TarBuilder.end, filename: "long.tar", resolver: TypeResolver())
        let cut = try TarListingGenerator(catalog: .builtIn).makePreview(for: one, request: PreviewRequest())
        #expect(cut.text == "long.tar\n└── \(String(repeating: "n", count: 1024))… (3 bytes)\n\n1 file, 0 directories, 3 bytes\n")

        var bytes: [UInt8] = []
        for i in 0..<200 { bytes += TarBuilder.file(String(format: "%03d", i) + String(repeating: "x", count: 59_997), size: 0) }
        let many = GeneratorInput(bytes: bytes + TarBuilder.end, filename: "names.tar", resolver: TypeResolver())
        let stopped = try TarListingGenerator(catalog: .builtIn).makePreview(for: many, request: PreviewRequest())
        #expect(stopped.title == "tar archive, 140 files, 0 bytes, partial listing")
        #expect(
            stopped.text.hasSuffix(
                "\n140 files, 0 directories, 0 bytes\n(listing stopped after 8.4 MB of entry names; the archive continues)\n"))
    }

    // A cut download still says what it held: the entries read are listed and the damage is named,
    // rather than failing the whole preview (a failure would only show the hex fallback).
    @Test func aTruncatedTarGzListsWhatWasReadAndSaysWhereItBroke() throws {
        let (preview, generator) = try preview(GeneratorFixtures.input("archives/truncated.tar.gz"))
        #expect(generator == "tar-listing")
        #expect(preview.title == "gzip-compressed tar archive, 2 files, 100 KB uncompressed, partial listing")
        #expect(
            preview.text == """
                truncated.tar.gz
                ├── a.txt (10 bytes)
                └── noise.bin (100 KB)

                2 files, 0 directories, 100 KB uncompressed (50.2 KB compressed)
                (archive damaged after 2 entries: unexpected end of gzip data)

                """)
        #expect(preview.truncated)
    }

    @Test func aStreamOverTheByteBudgetIsListedAsPartial() throws {
        let generator = TarListingGenerator(catalog: .builtIn, limits: ArchiveLimits(maxStreamBytes: 64 << 10))
        let preview = try generator.makePreview(for: GeneratorFixtures.input("archives/zeros.tar.xz"), request: PreviewRequest())
        #expect(
            preview.text == """
                zeros.tar.xz
                └── zero0.bin (100 KB)

                1 file, 0 directories, 100 KB uncompressed (260 bytes compressed)
                (listing stopped after 65.5 KB of data; the archive continues)

                """)
        #expect(preview.title == "xz-compressed tar archive, 1 file, 100 KB uncompressed, partial listing")
    }

    @Test func theEntryCapStopsReadingAndTheShownCapCutsTheTree() throws {
        let limits = ArchiveLimits(maxEntries: 2)
        let stopped = try TarListingGenerator(catalog: .builtIn, limits: limits)
            .makePreview(for: GeneratorFixtures.input("archives/zeros.tar.xz"), request: PreviewRequest())
        #expect(
            stopped.text.hasSuffix(
                "2 files, 0 directories, 200 KB uncompressed (260 bytes compressed)\n(listing stopped after 2 entries; the archive may hold more)\n"
            ))
        let cut = try ZipListingGenerator(limits: ArchiveLimits(maxShownEntries: 3))
            .makePreview(for: GeneratorFixtures.input("archives/listing.zip"), request: PreviewRequest())
        #expect(
            cut.text == """
                listing.zip
                ├── README.md (70 bytes)
                ├── docs/
                │   ├── guide.txt (1.5 KB)

                5 files, 4 directories, 4.1 KB uncompressed (84 bytes compressed)
                … 6 more entries not shown

                """)
        #expect(cut.truncated)
    }

    @Test func aCompressedFileThatIsNotATarIsOneEntryWithItsStoredName() throws {
        let (preview, generator) = try preview(GeneratorFixtures.input("archives/notes.txt.gz"))
        #expect(generator == "tar-listing")
        #expect(preview.title == "gzip-compressed file, 1 file, 1.6 KB uncompressed")
        #expect(
            preview.text == "notes.txt.gz\n└── notes.txt (1.6 KB)\n\n1 file, 0 directories, 1.6 KB uncompressed (60 bytes compressed)\n")
    }

    @Test func gzipMembersAreDecodedOneAfterAnother() throws {
        let member = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("archives/notes.txt.gz"))))
        let input = GeneratorInput(bytes: member + member + [0, 0, 0, 0], filename: "twice.gz", resolver: TypeResolver())
        let (preview, _) = try preview(input)
        #expect(preview.text == "twice.gz\n└── notes.txt (3.2 KB)\n\n1 file, 0 directories, 3.2 KB uncompressed (124 bytes compressed)\n")
    }

    @Test func aFileThatIsNeitherTarNorCompressedIsDeclined() throws {
        let input = GeneratorInput(
            bytes: Array("plain words, not a tar\n".utf8) + [UInt8](repeating: 0x41, count: 600), filename: "fake.tar",
            resolver: TypeResolver())
        #expect(throws: VignetteError(.declined, "not a tar archive (no valid tar header)")) {
            try TarListingGenerator(catalog: .builtIn).makePreview(for: input, request: PreviewRequest())
        }
    }

    @Test func namesWithoutTheUTF8FlagAreReadAsCodePage437() throws {
        let (preview, _) = try preview(GeneratorFixtures.input("archives/zip_cp437_header.zip"))
        #expect(preview.text.hasPrefix("zip_cp437_header.zip\n├── filename_with_æoå.txt ("))
    }

    @Test func hostileNamesAreShownTamedAndEscaped() throws {
        let (preview, _) = try preview(GeneratorFixtures.input("archives/hostile.zip"))
        #expect(
            preview.text == """
                hostile.zip
                ├── ../
                │   └── ../
                │       └── etc/
                │           └── passwd (1 byte)
                ├── <script>alert(1)</
                │   └── script>.txt (1 byte)
                ├── bad-\u{FFFD}\u{FFFD}.txt (1 byte)
                └── ctrl?[31mred.txt (1 byte)

                4 files, 4 directories, 4 bytes uncompressed (12 bytes compressed)

                """)
        #expect(preview.html.contains("<li>&lt;script&gt;alert(1)&lt;/\n<ul>\n<li>script&gt;.txt (1 byte)</li>"))
        #expect(!preview.html.contains("<script"))
        #expect(!preview.html.contains("\u{1B}"))
    }

    @Test func aZipWithAHundredThousandEntriesIsListedUpToTheDirectoryCap() throws {
        let names = (0..<100_000).map { String(format: "f/%05d.txt", $0) }
        let input = GeneratorInput(bytes: ZipBuilder.storedEmptyFiles(names), filename: "many.zip", resolver: TypeResolver())
        let preview = try ZipListingGenerator().makePreview(for: input, request: PreviewRequest())
        #expect(preview.title == "ZIP archive, 18,396 files, 0 bytes uncompressed, partial listing")
        #expect(
            preview.text.hasSuffix(
                """
                    ├── 00998.txt (0 bytes)

                18,396 files, 1 directory, 0 bytes uncompressed (0 bytes compressed)
                … 17,397 more entries not shown
                (listing shows the first 18,396 of 100,000 entries)

                """))
    }
}

/// Writes minimal zip archives in memory for tests that need many entries.
enum ZipBuilder {
    /// A zip of empty stored files with these names.
    static func storedEmptyFiles(_ names: [String]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ v: Int, _ b: inout [UInt8]) { b += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int, _ b: inout [UInt8]) { le16(v & 0xFFFF, &b); le16(v >> 16 & 0xFFFF, &b) }
        for name in names {
            let bytes = Array(name.utf8)
            let offset = out.count
            le32(0x0403_4B50, &out); le16(10, &out); le16(0, &out); le16(0, &out); le32(0, &out)
            le32(0, &out); le32(0, &out); le32(0, &out); le16(bytes.count, &out); le16(0, &out)
            out += bytes
            le32(0x0201_4B50, &central); le16(20, &central); le16(10, &central); le16(0, &central); le16(0, &central)
            le32(0, &central); le32(0, &central); le32(0, &central); le32(0, &central)
            le16(bytes.count, &central); le16(0, &central); le16(0, &central); le16(0, &central); le16(0, &central)
            le32(0, &central); le32(offset, &central)
            central += bytes
        }
        let cdOffset = out.count
        out += central
        if names.count >= 0xFFFF {
            // zip64 end record and locator: the classic record's count field tops out at 65,535.
            let record = out.count
            le32(0x0606_4B50, &out); le32(44, &out); le32(0, &out); le16(45, &out); le16(45, &out)
            le32(0, &out); le32(0, &out)
            le32(names.count, &out); le32(0, &out); le32(names.count, &out); le32(0, &out)
            le32(central.count, &out); le32(0, &out); le32(cdOffset, &out); le32(0, &out)
            le32(0x0706_4B50, &out); le32(0, &out); le32(record, &out); le32(0, &out); le32(1, &out)
        }
        le32(0x0605_4B50, &out); le16(0, &out); le16(0, &out)
        le16(min(names.count, 0xFFFF), &out); le16(min(names.count, 0xFFFF), &out)
        le32(central.count, &out); le32(cdOffset, &out); le16(0, &out)
        return out
    }
}

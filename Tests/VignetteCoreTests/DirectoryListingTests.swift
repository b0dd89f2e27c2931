import Foundation
import Testing

@testable import VignetteCore

@Suite("Folder listing")
struct DirectoryListingTests {
    @Test func itListsWhatFileManagerLists() throws {
        let dir = NSTemporaryDirectory() + "vignette-listing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["b.json", "a.json", ".hidden.json", "notes.txt", "é.thumbnailer"] {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        #expect(DirectoryListing.names(in: dir)?.sorted() == (try FileManager.default.contentsOfDirectory(atPath: dir)).sorted())
        #expect(DirectoryListing.names(in: dir + "/missing") == nil)
        #expect(DirectoryListing.names(in: dir + "/notes.txt") == nil)
    }
}

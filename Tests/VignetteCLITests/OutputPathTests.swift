import Foundation
import Testing

/// What `-o` does with a path that is not a plain new file: the input itself, a link, a FIFO.
@Suite("-o: links, pipes and the input itself")
struct OutputPathTests {
    let root = CLI.packageRoot

    /// A copy of Samples/photo.jpg in a new folder, with its bytes.
    func photo() throws -> (dir: String, path: String, bytes: Data) {
        let dir = try CLI.tempDirectory()
        let path = dir + "/p.jpg"
        try FileManager.default.copyItem(atPath: root + "/Samples/photo.jpg", toPath: path)
        return (dir, path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aThumbnailNamedAfterItsOwnInputIsRefusedHoweverTheInputIsReached() throws {
        let (dir, input, bytes) = try photo()
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.jpg", withDestinationPath: "p.jpg")
        try FileManager.default.linkItem(atPath: input, toPath: dir + "/hard.jpg")
        for output in [input, dir + "/link.jpg", dir + "/hard.jpg", dir + "/./p.jpg"] {
            let r = try CLI.run(["thumbnail", "-s", "32", input, "-o", output])
            #expect(r.status == 2)
            #expect(r.stderr == "vignette: \(input): its thumbnail \(output) would overwrite the file itself\n")
        }
        let page = try CLI.run(["view", input, "-o", dir + "/link.jpg"])
        #expect(page.status == 2)
        #expect(page.stderr == "vignette: \(input): the page \(dir)/link.jpg would overwrite the file itself\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == bytes)
    }

    @Test func aSymbolicLinkIsWrittenThroughAndStaysALink() throws {
        let (dir, input, _) = try photo()
        try Data().write(to: URL(fileURLWithPath: dir + "/target.png"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/out.png", withDestinationPath: "target.png")
        let r = try CLI.run(["thumbnail", "-s", "32", input, "-o", dir + "/out.png"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/out.png") == "target.png")
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/target.png"))).map { [$0.0, $0.1] } == [32, 20])
    }

    @Test func aLinkToNothingIsWrittenThroughMakingItsTarget() throws {
        let (dir, input, _) = try photo()
        try FileManager.default.createDirectory(atPath: dir + "/thumbs", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir + "/out.png", withDestinationPath: "thumbs/p.png")
        try FileManager.default.createSymbolicLink(atPath: dir + "/latest.png", withDestinationPath: dir + "/out.png")
        let r = try CLI.run(["thumbnail", "-s", "32", input, "-o", dir + "/latest.png"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/latest.png") == dir + "/out.png")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/out.png") == "thumbs/p.png")
        #expect(pngSize(try Data(contentsOf: URL(fileURLWithPath: dir + "/thumbs/p.png"))).map { [$0.0, $0.1] } == [32, 20])
    }

    @Test func aFIFOIsWrittenIntoNotReplaced() throws {
        let (dir, input, _) = try photo()
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened for reading first, without blocking, so that the command's open for writing
        // does not wait; a 32-pixel PNG fits in the pipe's buffer.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let r = try CLI.run(["thumbnail", "-s", "32", input, "-o", fifo])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(reader, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        #expect(pngSize(Data(received)).map { [$0.0, $0.1] } == [32, 20])
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
    }
}

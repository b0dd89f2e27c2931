import Foundation
import Testing

/// Audio and video through the real binary: a video made by Debian's ffmpeg previews with its
/// facts, `which` names the built-in reader, and the thumbnail is a frame that is not black.
@Suite("Media commands", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs ffmpeg"))
struct MediaCommandTests {
    /// A 2-second 160 × 120 test pattern in WebM (VP8 is in every Debian ffmpeg) with a title.
    static func video(in dir: String) throws -> String {
        let path = dir + "/clip.webm"
        let r = try CLI.runProgram(
            "/usr/bin/ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=s=160x120:r=25:d=2", "-c:v", "libvpx", "-metadata",
                "title=Clip", path,
            ])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    @Test func aVideoPreviewsThumbnailsAndIsNamedByWhich() throws {
        let dir = try CLI.tempDirectory()
        let video = try Self.video(in: dir)
        let preview = try CLI.run(["preview", video])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout.hasPrefix("Duration: 0:02.0\nContainer: Matroska / WebM (matroska,webm)\n"))
        #expect(preview.stdout.contains("\nVideo: vp8 (On2 VP8), yuv420p, 160 × 120, 25 fps\n"))
        #expect(preview.stdout.hasSuffix("\nTitle: Clip\n"))
        let which = try CLI.run(["which", "--no-system-thumbnailers", video])
        #expect(which.stdout.contains("thumbnail: media answers\n"), "\(which.stdout)")
        let thumb = try CLI.run(["thumbnail", "-s", "64", "--no-fallback", video, "-o", dir + "/clip.png"])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/clip.png"))
    }

    @Test func aVideoCutShortSaysWhyAndStillGetsTheFactsSheet() throws {
        let dir = try CLI.tempDirectory()
        let path = dir + "/cut.mp4"
        let r = try CLI.runProgram(
            "/usr/bin/ffmpeg",
            ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=s=160x120:r=25:d=2", "-c:v", "mpeg4", path])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count * 3 / 10).write(to: URL(fileURLWithPath: path))
        let preview = try CLI.run(["preview", path])
        #expect(preview.status == 0)
        #expect(
            preview.stderr.contains(
                "media: failed: the MP4/QuickTime index (moov atom) is missing: the file is cut short or still being written; showed the facts sheet instead"
            ), "\(preview.stderr)")
    }
}

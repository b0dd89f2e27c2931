import Foundation

/// Audio and video files made at test time by Debian's `ffmpeg` (nothing binary in the
/// repository), once per test process, in a temporary folder.
enum MediaFixtures {
    static let ffmpeg = "/usr/bin/ffmpeg"
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: ffmpeg) }

    /// The folder holding the files; nil when ffmpeg is missing or failed (the failure is in `problem`).
    static let folder: String? = try? make()
    /// The video codec of `video.mp4`: H.264 when this ffmpeg has libx264, else MPEG-4 part 2.
    static let h264 = encoders.contains(" libx264 ")
    static let encoders: String = (try? run(["-hide_banner", "-encoders"])) ?? ""

    static func path(_ name: String) -> String { (folder ?? "/nonexistent") + "/" + name }

    /// Runs ffmpeg with `arguments`; what it printed (stdout and stderr), or an error holding that.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "ffmpeg", code: Int(process.terminationStatus), userInfo: [NSLocalizedDescriptionKey: printed])
        }
        return printed
    }

    /// The tags every file gets.
    static let tags = [
        "-metadata", "title=Test pattern", "-metadata", "artist=Vignette tests", "-metadata", "album=Fixtures", "-metadata", "date=2026",
    ]
    /// One second of black, then four of the test pattern (320 × 240, 25 fps), with a 440 Hz tone.
    static let blackThenPattern = [
        "-f", "lavfi", "-i", "color=black:s=320x240:r=25:d=1", "-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=4", "-f", "lavfi", "-i",
        "sine=f=440:d=5", "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0[v]", "-map", "[v]", "-map", "2:a",
    ]
    /// Three seconds of a 440 Hz tone.
    static let tone = ["-f", "lavfi", "-i", "sine=f=440:d=3"]
    /// The cover: 200 × 200 of one red (0xC03020).
    static let coverColour: (UInt8, UInt8, UInt8) = (0xC0, 0x30, 0x20)

    static func make() throws -> String {
        guard installed else { throw CocoaError(.fileNoSuchFile) }
        let dir = NSTemporaryDirectory() + "vignette-media-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func make(_ name: String, _ arguments: [String]) throws {
            try run(["-hide_banner", "-loglevel", "error", "-y"] + arguments + ["\(dir)/\(name)"])
        }
        let video = h264 ? ["-c:v", "libx264", "-pix_fmt", "yuv420p"] : ["-c:v", "mpeg4"]
        try make("cover.png", ["-f", "lavfi", "-i", "color=c=0xC03020:s=200x200", "-frames:v", "1"])
        try make("video.mp4", blackThenPattern + video + ["-c:a", "aac"] + tags)
        try make("faststart.mp4", blackThenPattern + video + ["-c:a", "aac", "-movflags", "+faststart"] + tags)
        try make("video.webm", blackThenPattern + ["-c:v", "libvpx", "-c:a", "libopus"] + tags)
        try make("video.mkv", blackThenPattern + video + ["-c:a", "flac"] + tags)
        try make("video.mov", blackThenPattern + ["-c:v", "mpeg4", "-c:a", "aac"] + tags)
        try make("video.avi", blackThenPattern + ["-c:v", "mpeg4", "-c:a", "libmp3lame"] + tags)
        let withCover = tone + ["-i", "\(dir)/cover.png", "-map", "0", "-map", "1", "-disposition:v", "attached_pic"]
        try make("song.mp3", withCover + ["-c:a", "libmp3lame", "-c:v", "png", "-id3v2_version", "3"] + tags)
        try make("song.m4a", withCover + ["-c:a", "aac", "-c:v", "mjpeg"] + tags)
        try make("song.flac", withCover + ["-c:a", "flac", "-c:v", "png"] + tags)
        try make("tone.opus", tone + ["-c:a", "libopus"] + tags)
        try make("tone.ogg", tone + ["-c:a", "libvorbis"] + tags)
        try make("tone.flac", tone + ["-c:a", "flac"] + tags)
        try make("tone.wav", tone + tags)
        try make("tone.aiff", tone + tags)
        try make("tone.aac", tone + ["-c:a", "aac"])
        // The first 30 % of each MP4: with the index (moov) at the end, and at the front.
        for name in ["video.mp4", "faststart.mp4"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)"))
            try bytes.prefix(bytes.count * 3 / 10).write(to: URL(fileURLWithPath: "\(dir)/truncated-\(name)"))
        }
        return dir
    }
}

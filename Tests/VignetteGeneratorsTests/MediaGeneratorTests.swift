import Foundation
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

@Suite("Audio and video: facts, tags, frames and covers through FFmpeg in a child", .enabled(if: MediaFixtures.installed, "needs ffmpeg"))
struct MediaGeneratorTests {
    static let registry = GeneratorFixtures.registry
    static let generator = MediaGenerator(catalog: registry.catalog)

    static func input(_ name: String) throws -> GeneratorInput {
        #expect(MediaFixtures.folder != nil, "ffmpeg could not make the fixtures")
        return try GeneratorInput(path: MediaFixtures.path(name), resolver: TypeResolver(catalog: registry.catalog))
    }

    static func preview(_ name: String) throws -> TextPreview {
        try generator.makePreview(for: try input(name), request: PreviewRequest())
    }

    /// The mean of each channel (R, G, B) of a bitmap.
    static func mean(_ bitmap: Bitmap) -> (Double, Double, Double) {
        var sums = (0.0, 0.0, 0.0)
        for i in stride(from: 0, to: bitmap.pixels.count, by: 4) {
            sums.0 += Double(bitmap.pixels[i])
            sums.1 += Double(bitmap.pixels[i + 1])
            sums.2 += Double(bitmap.pixels[i + 2])
        }
        let n = Double(bitmap.width * bitmap.height)
        return (sums.0 / n, sums.1 / n, sums.2 / n)
    }

    @Test func anMP4PreviewsWithItsDurationCodecsResolutionAndTags() throws {
        let preview = try Self.preview("video.mp4")
        #expect(preview.title == "Video: MPEG-4, 0:05, 320 × 240")
        let video =
            MediaFixtures.h264
            ? "Video: h264 (H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10), High, yuv420p, 320 × 240, 25 fps"
            : "Video: mpeg4 (MPEG-4 part 2), Simple Profile, yuv420p, 320 × 240, 25 fps"
        #expect(preview.text.hasPrefix("Duration: 0:05.0\nContainer: QuickTime / MOV (mov,mp4,m4a,3gp,3g2,mj2)\nBit rate: "))
        #expect(preview.text.contains("\n\(video), "))
        #expect(preview.text.contains("\nAudio: aac (AAC (Advanced Audio Coding)), LC, 44.1 kHz, mono, "))
        #expect(preview.text.hasSuffix("\nTitle: Test pattern\nArtist: Vignette tests\nAlbum: Fixtures\nYear: 2026\n"))
        #expect(preview.html.hasPrefix("<dl class=\"facts\"><dt>Duration</dt><dd>0:05.0</dd><dt>Container</dt>"))
    }

    @Test func theVideoThumbnailIsAFrameAfterTheBlackOpening() throws {
        let (thumb, generator, _) = try Self.registry.thumbnail(
            for: try Self.input("video.mp4"), request: ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "media")
        #expect(thumb.bitmap.width == 128 && thumb.bitmap.height == 96)
        #expect(thumb.originalSize == PixelSize(width: 320, height: 240))
        let (r, g, b) = Self.mean(thumb.bitmap)
        #expect((r + g + b) / 3 > 80, "the frame 10 % in is black; the thumbnail should be the test pattern after it")
    }

    @Test func theReaderSaysWhichFrameItTookAndHowManyBlackOnesItPassed() throws {
        let contents = try MediaReader.read(path: MediaFixtures.path("video.mp4"), thumbnailSide: 64)
        guard case .frame(let bitmap, let time, let skipped) = contents.thumbnail else {
            Issue.record("no frame: \(contents.thumbnailNote ?? "")")
            return
        }
        #expect(bitmap.width == 64 && bitmap.height == 48)
        #expect(time.map { $0 >= 1.0 && $0 < 1.5 } == true, "\(String(describing: time))")
        #expect(skipped >= 12)
    }

    @Test(arguments: [
        ("video.webm", "Video: WebM, 0:05, 320 × 240", "Video: vp8 (On2 VP8), yuv420p, 320 × 240, 25 fps"),
        ("video.mkv", "Video: Matroska, 0:05, 320 × 240", "Audio: flac (FLAC (Free Lossless Audio Codec)), 44.1 kHz, mono"),
        ("video.mov", "Video: QuickTime, 0:05, 320 × 240", "Video: mpeg4 (MPEG-4 part 2), Simple Profile, yuv420p, 320 × 240, 25 fps"),
        ("video.avi", "Video: AVI, 0:05, 320 × 240", "Audio: mp3 (MP3 (MPEG audio layer 3)), 44.1 kHz, mono"),
    ])
    func otherVideoContainersPreviewAndThumbnail(file: String, title: String, line: String) throws {
        let preview = try Self.preview(file)
        #expect(preview.title == title)
        #expect(preview.text.contains("\n\(line)"), "\(preview.text)")
        #expect(preview.text.contains("\nTitle: Test pattern\n"))
        let thumb = try Self.generator.makeThumbnail(for: try Self.input(file), request: ThumbnailRequest(maxPixelSize: 64))
        #expect(thumb.bitmap.width == 64 && thumb.bitmap.height == 48)
        let (r, g, b) = Self.mean(thumb.bitmap)
        #expect((r + g + b) / 3 > 80)
    }

    @Test(arguments: [("song.mp3", "Audio: MP3, 0:03"), ("song.m4a", "Audio: MPEG-4, 0:03"), ("song.flac", "Audio: FLAC, 0:03")])
    func anAudioFileWithACoverHasItsTagsAndTheCoverAsThumbnail(file: String, title: String) throws {
        let preview = try Self.preview(file)
        #expect(preview.title == title)
        #expect(preview.text.contains("\nCover: "))
        #expect(preview.text.contains(", 200 × 200\n"))
        #expect(preview.text.hasSuffix("\nTitle: Test pattern\nArtist: Vignette tests\nAlbum: Fixtures\nYear: 2026\n"), "\(preview.text)")
        let (thumb, generator, _) = try Self.registry.thumbnail(for: try Self.input(file), request: ThumbnailRequest(maxPixelSize: 128))
        #expect(generator == "media")
        #expect(thumb.bitmap.width == 128 && thumb.bitmap.height == 128)
        let (r, g, b) = Self.mean(thumb.bitmap)
        let cover = MediaFixtures.coverColour
        #expect(abs(r - Double(cover.0)) < 8 && abs(g - Double(cover.1)) < 8 && abs(b - Double(cover.2)) < 8, "\((r, g, b))")
    }

    @Test(arguments: [
        ("tone.opus", "Audio: Ogg Opus, 0:03", "Audio: opus (Opus (Opus Interactive Audio Codec)), 48 kHz, mono"),
        ("tone.ogg", "Audio: Ogg Vorbis, 0:03", "Audio: vorbis (Vorbis), 44.1 kHz, mono"),
        ("tone.flac", "Audio: FLAC, 0:03", "Audio: flac (FLAC (Free Lossless Audio Codec)), 44.1 kHz, mono"),
        ("tone.wav", "Audio: WAV, 0:03", "Audio: pcm_s16le (PCM signed 16-bit little-endian), 44.1 kHz, mono, 706 kb/s"),
        ("tone.aiff", "Audio: AIFF, 0:03", "Audio: pcm_s16be (PCM signed 16-bit big-endian), 44.1 kHz, mono, 706 kb/s"),
    ])
    func audioWithoutACoverPreviewsAndDeclinesTheThumbnail(file: String, title: String, line: String) throws {
        let preview = try Self.preview(file)
        #expect(preview.title == title)
        #expect(preview.text.contains("\n\(line)"), "\(preview.text)")
        // AIFF keeps the title only (NAME); the others keep every tag.
        #expect(
            preview.text.hasSuffix(
                file == "tone.aiff"
                    ? "\nTitle: Test pattern\n" : "\nTitle: Test pattern\nArtist: Vignette tests\nAlbum: Fixtures\nYear: 2026\n"),
            "\(preview.text)")
        #expect(throws: VignetteError(.declined, "no video and no cover picture in the file")) {
            try Self.generator.makeThumbnail(for: try Self.input(file), request: ThumbnailRequest(maxPixelSize: 64))
        }
        let (thumb, generator, _) = try Self.registry.thumbnail(for: try Self.input(file), request: ThumbnailRequest(maxPixelSize: 64))
        #expect(generator == "fallback")
        #expect(thumb.isIcon)
    }

    // Its time (89 ms, release build) is measured by bench/limits.sh: here the fixture is made by
    // ffmpeg inside the call, which a loaded machine makes slow.
    @Test func anMP4CutShortBeforeItsIndexSaysSo() throws {
        #expect(
            throws: VignetteError(.corrupt, "the MP4/QuickTime index (moov atom) is missing: the file is cut short or still being written")
        ) {
            try Self.preview("truncated-video.mp4")
        }
    }

    @Test func anMP4CutShortAfterItsIndexStillHasItsFactsAndAFrame() throws {
        let preview = try Self.preview("truncated-faststart.mp4")
        #expect(preview.title == "Video: MPEG-4, 0:05, 320 × 240")
        let thumb = try Self.generator.makeThumbnail(
            for: try Self.input("truncated-faststart.mp4"), request: ThumbnailRequest(maxPixelSize: 64))
        #expect(thumb.bitmap.width == 64)
    }

    @Test func anUploadIsReadFromMemory() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: MediaFixtures.path("song.mp3"))))
        let input = GeneratorInput(bytes: bytes, filename: "upload.mp3", resolver: TypeResolver(catalog: Self.registry.catalog))
        let preview = try Self.generator.makePreview(for: input, request: PreviewRequest())
        #expect(preview.title == "Audio: MP3, 0:03")
        let thumb = try Self.generator.makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 32))
        #expect(thumb.bitmap.width == 32)
    }

    @Test func aRawAACStreamHasNoTagsButItsFacts() throws {
        let preview = try Self.preview("tone.aac")
        #expect(preview.title == "Audio: AAC, 0:03")
        #expect(preview.text.contains("\nAudio: aac (AAC (Advanced Audio Coding)), LC, 44.1 kHz, mono"), "\(preview.text)")
    }

    @Test func dataInNoFormatFFmpegKnowsIsDeclinedNotCalledDamaged() throws {
        #expect(throws: MediaReader.unknownFormat) {
            try MediaReader.read(Array("not a film at all, just words".utf8))
        }
        let midi: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 0x60] + Array("MTrk".utf8) + [0, 0, 0, 4, 0, 0xFF, 0x2F, 0]
        let input = GeneratorInput(bytes: midi, filename: "tune.mid", resolver: TypeResolver(catalog: Self.registry.catalog))
        #expect(input.type.identifier == "public.midi-audio")
        let (_, generator, attempts) = try Self.registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "fallback")
        #expect(attempts.first.map(\.description) == "media: declined: FFmpeg does not recognise the format")
    }

    @Test func durationsBitRatesAndRatesReadAsPeopleWriteThem() {
        #expect(MediaPreview.duration(4.96, tenths: true) == "0:05.0")
        #expect(MediaPreview.duration(192.4, tenths: false) == "3:12")
        #expect(MediaPreview.duration(3723, tenths: false) == "1:02:03")
        #expect(MediaPreview.bitRate(127_600) == "128 kb/s")
        #expect(MediaPreview.decimal(30000.0 / 1001, places: 3) == "29.97")
        #expect(MediaPreview.decimal(44.1, places: 3) == "44.1")
        #expect(MediaPreview.decimal(25, places: 3) == "25")
    }
}

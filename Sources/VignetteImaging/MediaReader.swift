import CVignetteCodecs
import Foundation
public import VignetteCore

/// One stream of an audio or video file, as FFmpeg describes it.
public struct MediaStream: Sendable, Equatable {
    /// What a stream carries.
    public enum Kind: Sendable, Equatable {
        /// Moving pictures.
        case video
        /// Sound.
        case audio
        /// Subtitles or captions.
        case subtitle
        /// A still picture attached to the file: the cover art of a song or album.
        case picture
        /// Data, attachments, timecodes.
        case other
    }

    /// What it carries.
    public var kind: Kind
    /// FFmpeg's short codec name (`h264`, `opus`).
    public var codec: String
    /// The codec's long name (`H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10`), when FFmpeg knows it.
    public var codecDescription: String?
    /// The codec profile (`High`, `LC`), when there is one.
    public var profile: String?
    /// The pixel format of a video (`yuv420p`).
    public var pixelFormat: String?
    /// The picture's size as shown (sample aspect ratio and rotation applied), for video and pictures.
    public var displaySize: PixelSize?
    /// Degrees clockwise the picture is turned for display (phones record upright video this way).
    public var rotation: Int
    /// Frames a second of a video.
    public var frameRate: Double?
    /// Samples a second of audio.
    public var sampleRate: Int?
    /// Audio channels.
    public var channels: Int
    /// The channel layout's name (`stereo`, `5.1(side)`).
    public var channelLayout: String?
    /// The stream's language code (`eng`), when tagged.
    public var language: String?
    /// Bits a second, when the container records it.
    public var bitRate: Int?
    /// The stream's length in seconds, when known.
    public var duration: Double?
}

/// What FFmpeg read from an audio or video file: its container, streams, tags and thumbnail.
public struct MediaContents: Sendable {
    /// The thumbnail the file gave, when one was asked for and there is one.
    public enum Thumbnail: Sendable {
        /// A decoded video frame, taken `time` seconds in after `skipped` black frames.
        case frame(Bitmap, time: Double?, skipped: Int)
        /// The embedded cover picture, still encoded (JPEG, PNG…).
        case picture([UInt8])
    }

    /// FFmpeg's demuxer names (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `ogg`).
    public var format: String
    /// The container's long name (`QuickTime / MOV`).
    public var formatDescription: String
    /// The length in seconds, when known.
    public var duration: Double?
    /// The overall bits a second, when known.
    public var bitRate: Int?
    /// Streams in the file; `streams` lists at most `VGN_MEDIA_MAX_STREAMS` of them.
    public var streamCount: Int
    /// The streams described, in file order.
    public var streams: [MediaStream]
    /// The metadata, as FFmpeg names it (`title`, `ARTIST`…): the container's, then the streams',
    /// first of each key (compared without case).
    public var tags: [(key: String, value: String)]
    /// The thumbnail, when one was asked for and found.
    public var thumbnail: Thumbnail?
    /// Why there is no thumbnail, or what is wrong with the one given.
    public var thumbnailNote: String?

    /// The first tag named one of `keys` (without case), trimmed; nil when none has a value.
    public func tag(_ keys: String...) -> String? {
        for key in keys {
            if let value = tags.first(where: { $0.key.caseInsensitiveCompare(key) == .orderedSame })?.value {
                let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { return trimmed }
            }
        }
        return nil
    }

    /// The streams of one kind.
    public func streams(_ kind: MediaStream.Kind) -> [MediaStream] { streams.filter { $0.kind == kind } }
}

/// Reads audio and video files with FFmpeg's libraries in a child process: a crash, a hang or
/// runaway memory there is an error here, never the caller's end.
public enum MediaReader {
    /// How much a read may take.
    public struct Limits: Sendable {
        /// The child is stopped after this many milliseconds.
        public var timeoutMilliseconds: UInt32
        /// Time spent decoding frames in search of one that is not black.
        public var searchMilliseconds: UInt32
        /// Memory the child may take beyond what it starts with.
        public var memoryBytes: Int
        /// Largest cover picture returned.
        public var pictureBytes: Int

        /// Limits; the defaults allow 10 s, 3 s of it looking for a frame, 512 MiB (a 4K H.264
        /// or HEVC decoder keeps up to 16 reference frames of 12 MB) and 16 MiB of cover.
        public init(
            timeoutMilliseconds: UInt32 = 10_000, searchMilliseconds: UInt32 = 3_000, memoryBytes: Int = 512 << 20,
            pictureBytes: Int = 16 << 20
        ) {
            self.timeoutMilliseconds = timeoutMilliseconds
            self.searchMilliseconds = searchMilliseconds
            self.memoryBytes = memoryBytes
            self.pictureBytes = pictureBytes
        }
    }

    /// The contents of the file at `path`, read where it lies (a film is never loaded whole),
    /// with a thumbnail whose longest side is at most `thumbnailSide` pixels (0: none).
    ///
    /// - Throws: `.unsupported` when FFmpeg is missing, `unknownFormat` when it recognises no
    ///   format in the file, `.corrupt` for what FFmpeg cannot read,
    ///   `.refused` past the time or memory limit, `.io` when the file cannot be opened.
    public static func read(path: String, thumbnailSide: Int = 0, limits: Limits = Limits()) throws -> MediaContents {
        try path.withCString { try read(path: $0, bytes: [], thumbnailSide: thumbnailSide, limits: limits) }
    }

    /// The contents of a file held in memory (an upload); see `read(path:thumbnailSide:limits:)`.
    public static func read(_ bytes: [UInt8], thumbnailSide: Int = 0, limits: Limits = Limits()) throws -> MediaContents {
        guard !bytes.isEmpty else { throw VignetteError(.corrupt, "the media file is empty") }
        return try read(path: nil, bytes: bytes, thumbnailSide: thumbnailSide, limits: limits)
    }

    private static func read(path: UnsafePointer<CChar>?, bytes: [UInt8], thumbnailSide: Int, limits: Limits) throws -> MediaContents {
        _ = ImageDecoder.StreamedFormat.helper
        var request = vgn_media_request()
        request.path = path
        request.thumbnail_side = UInt32(clamping: min(max(thumbnailSide, 0), Int(VGN_MEDIA_MAX_THUMBNAIL_SIDE)))
        request.max_picture = limits.pictureBytes
        request.timeout_ms = limits.timeoutMilliseconds
        request.search_ms = limits.searchMilliseconds
        request.max_memory = limits.memoryBytes
        var facts = vgn_media_facts()
        var err = vgn_error()
        let status = bytes.withUnsafeBufferPointer { buffer in
            vgn_media_read_isolated(buffer.baseAddress, buffer.count, &request, &facts, &err)
        }
        defer { vgn_media_facts_free(&facts) }
        guard status == 0 else { throw facts.unknown_format != 0 ? unknownFormat : error(err) }
        try WorkPool.stopIfAbandoned()
        return contents(facts)
    }

    /// The facts in Swift's terms.
    static func contents(_ facts: vgn_media_facts) -> MediaContents {
        func text<T>(_ tuple: T) -> String? {
            let value = CodecError.text(tuple).trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : value
        }
        func positive(_ seconds: Double) -> Double? { seconds.isFinite && seconds > 0 ? seconds : nil }
        let streams = withUnsafeBytes(of: facts.streams) { raw in
            Array(raw.bindMemory(to: vgn_media_stream.self).prefix(Int(facts.streams_listed)))
        }.map { s in
            MediaStream(
                kind: kind(s.kind), codec: text(s.codec) ?? "unknown", codecDescription: text(s.codec_long), profile: text(s.profile),
                pixelFormat: text(s.pixel_format),
                displaySize: s.display_width > 0 && s.display_height > 0
                    ? PixelSize(width: Int(s.display_width), height: Int(s.display_height)) : nil,
                rotation: Int(s.rotation), frameRate: positive(s.frame_rate), sampleRate: s.sample_rate > 0 ? Int(s.sample_rate) : nil,
                channels: Int(s.channels), channelLayout: text(s.channel_layout), language: text(s.language),
                bitRate: s.bit_rate > 0 ? Int(s.bit_rate) : nil, duration: positive(s.duration))
        }
        let tags = withUnsafeBytes(of: facts.tags) { raw in
            Array(raw.bindMemory(to: vgn_media_tag.self).prefix(Int(facts.tag_count)))
        }.compactMap { tag -> (key: String, value: String)? in
            guard let key = text(tag.key), let value = text(tag.value) else { return nil }
            return (key, value)
        }
        var thumbnail: MediaContents.Thumbnail?
        if facts.thumbnail_kind == Int32(VGN_MEDIA_THUMB_FRAME), let pixels = facts.pixels, facts.width > 0, facts.height > 0 {
            let count = Int(facts.width) * Int(facts.height) * 4
            let bitmap = Bitmap(
                width: Int(facts.width), height: Int(facts.height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
            thumbnail = .frame(bitmap, time: facts.frame_time >= 0 ? facts.frame_time : nil, skipped: Int(facts.frames_skipped))
        } else if facts.thumbnail_kind == Int32(VGN_MEDIA_THUMB_PICTURE), let picture = facts.picture, facts.picture_size > 0 {
            thumbnail = .picture(Array(UnsafeBufferPointer(start: picture, count: facts.picture_size)))
        }
        return MediaContents(
            format: text(facts.format) ?? "unknown", formatDescription: text(facts.format_long) ?? text(facts.format) ?? "unknown",
            duration: positive(facts.duration), bitRate: facts.bit_rate > 0 ? Int(facts.bit_rate) : nil,
            streamCount: Int(facts.stream_count), streams: streams, tags: tags, thumbnail: thumbnail,
            thumbnailNote: text(facts.thumbnail_note))
    }

    static func kind(_ value: Int32) -> MediaStream.Kind {
        switch value {
        case Int32(VGN_MEDIA_VIDEO): .video
        case Int32(VGN_MEDIA_AUDIO): .audio
        case Int32(VGN_MEDIA_SUBTITLE): .subtitle
        case Int32(VGN_MEDIA_PICTURE): .picture
        default: .other
        }
    }

    /// The error for data in which FFmpeg recognises no format (a MIDI file, say): a generator
    /// may pass such a file on rather than call it damaged.
    public static let unknownFormat = VignetteError(.unsupported, "FFmpeg does not recognise the format")

    /// FFmpeg's reasons said in plainer words.
    static let explanations = [
        "moov atom not found": "the MP4/QuickTime index (moov atom) is missing: the file is cut short or still being written"
    ]

    /// The error for a failed read, in words that name what was wrong.
    static func error(_ err: vgn_error) -> VignetteError {
        let message = CodecError.text(err.message)
        switch Int32(err.code) {
        case VGN_E_UNSUPPORTED.rawValue: return VignetteError(.unsupported, message)
        case VGN_E_LIMIT.rawValue, VGN_E_NOMEM.rawValue: return VignetteError(.refused, message)
        case VGN_E_IO.rawValue: return VignetteError(.io, "FFmpeg's reader \(message)")
        case VGN_E_STATE.rawValue: return VignetteError(.invalidRequest, "media reader misuse: \(message)")
        default:
            if let plain = explanations.first(where: { message.hasPrefix($0.key) })?.value { return VignetteError(.corrupt, plain) }
            return VignetteError(.corrupt, "FFmpeg cannot read the file: \(message)")
        }
    }
}

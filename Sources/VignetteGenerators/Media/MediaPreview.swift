import Foundation
import VignetteCore
import VignetteImaging

/// An audio or video file's contents as a text preview: duration, container, bit rate, one line
/// a stream, then the tags people look for (title, artist, album, year…).
struct MediaPreview {
    let contents: MediaContents

    init(_ contents: MediaContents) { self.contents = contents }

    /// The tags shown, in order: the label, then the keys FFmpeg and the containers use for it
    /// (ID3 and MP4 tags come normalised, Vorbis comments as written).
    static let tagRows: [(label: String, keys: [String])] = [
        ("Title", ["title"]), ("Artist", ["artist", "author"]), ("Album artist", ["album_artist", "album artist", "albumartist"]),
        ("Album", ["album"]), ("Year", ["date", "year"]), ("Track", ["track", "tracknumber"]), ("Disc", ["disc", "discnumber"]),
        ("Genre", ["genre"]), ("Composer", ["composer"]), ("Comment", ["comment", "description"]), ("Copyright", ["copyright"]),
    ]

    /// Whether the file has moving pictures (a cover picture alone does not count).
    var isVideo: Bool { !contents.streams(.video).isEmpty }

    /// The container's everyday name: `MPEG-4`, `QuickTime`, `WebM`, `Matroska`, `Ogg Opus`, `MP3`…
    var containerName: String {
        let c = contents
        let codecs = Set(c.streams.filter { $0.kind == .video || $0.kind == .audio }.map(\.codec))
        switch c.format {
        case "mov,mp4,m4a,3gp,3g2,mj2":
            let brand = (c.tag("major_brand") ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            if brand == "qt" { return "QuickTime" }
            if brand.hasPrefix("3g") { return "3GPP" }
            return "MPEG-4"
        case "matroska,webm":
            return codecs.isSubset(of: ["vp8", "vp9", "av1", "opus", "vorbis"]) && !codecs.isEmpty ? "WebM" : "Matroska"
        case "ogg":
            let audio = c.streams(.audio).first?.codec
            if !isVideo, let audio, let name = ["opus": "Opus", "vorbis": "Vorbis", "flac": "FLAC", "speex": "Speex"][audio] {
                return "Ogg \(name)"
            }
            return c.streams(.video).first?.codec == "theora" ? "Ogg Theora" : "Ogg"
        default:
            let names = [
                "mp3": "MP3", "flac": "FLAC", "wav": "WAV", "aiff": "AIFF", "avi": "AVI", "aac": "AAC", "mpegts": "MPEG-TS",
                "mpeg": "MPEG-PS", "asf": "ASF", "flv": "Flash Video", "w64": "Wave64", "caf": "Core Audio", "ape": "Monkey's Audio",
                "wv": "WavPack", "amr": "AMR", "ac3": "AC-3", "dts": "DTS",
            ]
            return names[c.format] ?? c.formatDescription
        }
    }

    /// The facts as label and value, in the order shown; absent ones left out.
    var facts: [(String, String)] {
        var rows: [(String, String)] = []
        let c = contents
        if let duration = c.duration { rows.append(("Duration", Self.duration(duration, tenths: true))) }
        rows.append(("Container", "\(c.formatDescription) (\(c.format))"))
        if let bits = c.bitRate { rows.append(("Bit rate", Self.bitRate(bits))) }
        let labels: [MediaStream.Kind: String] = [
            .video: "Video", .audio: "Audio", .subtitle: "Subtitles", .picture: "Cover", .other: "Data",
        ]
        for kind in [MediaStream.Kind.video, .audio, .subtitle, .picture, .other] {
            let streams = c.streams(kind)
            for (index, stream) in streams.enumerated() {
                let label = labels[kind]! + (streams.count > 1 ? " \(index + 1)" : "")
                rows.append((label, Self.describe(stream)))
            }
        }
        if c.streamCount > c.streams.count {
            rows.append(("Streams", "\(CountText.grouped(c.streamCount)) (the first \(c.streams.count) listed)"))
        }
        for (label, keys) in Self.tagRows {
            guard let value = keys.lazy.compactMap({ c.tag($0) }).first else { continue }
            let isYear = value.count == 4 && value.allSatisfy(\.isNumber)
            rows.append((label == "Year" && !isYear ? "Date" : label, Self.oneLine(value)))
        }
        return rows
    }

    /// The preview.
    var preview: TextPreview {
        var title =
            isVideo ? "Video: \(containerName)" : contents.streams(.audio).isEmpty ? "Media: \(containerName)" : "Audio: \(containerName)"
        if let duration = contents.duration { title += ", " + Self.duration(duration, tenths: false) }
        if let size = contents.streams(.video).first?.displaySize { title += ", \(size.width) × \(size.height)" }
        let rows = facts
        let text = rows.map { "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
        var html = "<dl class=\"facts\">"
        for (label, value) in rows { html += "<dt>\(HTML.escape(label))</dt><dd>\(HTML.escape(value))</dd>" }
        html += "</dl>\n"
        return TextPreview(title: title, text: text, html: html, truncated: false)
    }

    /// One stream in a line: `h264 (H.264 / AVC…), High, yuv420p, 320 × 240, 25 fps, 32 kb/s`.
    static func describe(_ s: MediaStream) -> String {
        var parts = [s.codec + (s.codecDescription.map { " (\($0))" } ?? "")]
        if let profile = s.profile { parts.append(profile) }
        if let format = s.pixelFormat, s.kind == .video { parts.append(format) }
        if let size = s.displaySize { parts.append("\(size.width) × \(size.height)" + (s.rotation != 0 ? " (turned \(s.rotation)°)" : "")) }
        if let rate = s.frameRate, s.kind == .video { parts.append("\(decimal(rate, places: 3)) fps") }
        if let rate = s.sampleRate { parts.append("\(decimal(Double(rate) / 1000, places: 3)) kHz") }
        if s.kind == .audio, s.channels > 0 { parts.append(channels(s)) }
        if let language = s.language { parts.append(language) }
        if let bits = s.bitRate, s.kind != .picture { parts.append(bitRate(bits)) }
        return parts.joined(separator: ", ")
    }

    /// The layout's name (`stereo`, `5.1(side)`); a count FFmpeg could not name (a WAV without a
    /// channel mask says `1 channels`) as `mono`, `stereo` or `3 channels`.
    static func channels(_ s: MediaStream) -> String {
        if let layout = s.channelLayout, !layout.hasSuffix(" channels") { return layout }
        return [1: "mono", 2: "stereo"][s.channels] ?? CountText.counted(s.channels, "channel")
    }

    /// `1:02:03`, `3:12`, `0:05` (rounded), or with tenths: `0:05.0`.
    static func duration(_ seconds: Double, tenths: Bool) -> String {
        let tenthsTotal = Int((seconds * 10).rounded())
        let whole = tenths ? tenthsTotal / 10 : Int(seconds.rounded())
        let h = whole / 3600, m = whole / 60 % 60, s = whole % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let clock = h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
        return tenths ? "\(clock).\(tenthsTotal % 10)" : clock
    }

    /// `128 kb/s`, as FFmpeg counts them (1000 bits).
    static func bitRate(_ bits: Int) -> String { "\(CountText.grouped((bits + 500) / 1000)) kb/s" }

    /// `25`, `29.97`, `44.1`: at most `places` decimals, no trailing zeros.
    static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A tag's value on one line (comments may hold several).
    static func oneLine(_ value: String) -> String {
        value.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " / ")
    }
}

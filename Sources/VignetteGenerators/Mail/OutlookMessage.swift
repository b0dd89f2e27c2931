import Foundation
import VignetteCore

/// An Outlook message (`.msg`, MS-OXMSG) as a preview shows it: sender, recipients, date and
/// subject, the body (plain text, else HTML, else the text of the compressed RTF), and the
/// attachments with their sizes.
///
/// A `.msg` is an OLE2 compound file whose properties are streams named `__substg1.0_IIIITTTT`
/// (property id, then type: `001F` UTF-16 text, `001E` 8-bit text, `0102` bytes) and fixed-size
/// values in `__properties_version1.0`; each attachment is a storage `__attach_version1.0_#N`.
/// Streams are read through `CompoundFile`'s capped reads; no attachment's data is read.
struct OutlookMessage {
    /// Header rows in `MailPage.shownFields` order.
    private(set) var rows: [(String, String)] = []
    /// The body: the plain text, else the HTML.
    private(set) var bodyParts: [MailMessage.BodyPart] = []
    /// The attachments.
    private(set) var attachments: [MailMessage.Attachment] = []
    /// What could not be shown.
    private(set) var notes: [String] = []
    /// The subject, if any.
    private(set) var subject: String?

    /// Most bytes of one text property read (the body included).
    static let maxPropertyBytes = 4 << 20
    /// Most bytes of RTF decompressed from the compressed RTF body.
    static let maxRTFBytes = 16 << 20
    /// Most attachments listed.
    static let maxAttachments = 1000

    private let file: CompoundFile
    private let streams: [String: CompoundFile.Entry]

    /// Reads the message in `file`.
    init(_ file: CompoundFile) throws {
        self.file = file
        let paths = file.paths()
        streams = Dictionary(paths.map { ($0.path, $0.entry) }, uniquingKeysWith: { first, _ in first })
        guard streams["__properties_version1.0"] != nil || paths.contains(where: { $0.path.hasPrefix("__substg1.0_") }) else {
            throw VignetteError(.declined, "no message properties (__substg1.0_ streams) in the compound file")
        }
        subject = try text(0x0037)
        let fromName = try text(0x0C1A) ?? text(0x0042)
        let fromAddress = try [0x5D01, 0x0C1F, 0x0065].lazy.compactMap { try self.text($0) }.first { !$0.hasPrefix("/") }
        let from = [fromName, fromAddress.map { fromName == nil ? $0 : "<\($0)>" }].compactMap { $0 }.joined(separator: " ")
        let date = try transportDate() ?? time(0x0039) ?? time(0x0E06)
        for (name, value) in [("Subject", subject), ("From", from), ("To", try text(0x0E04)), ("Cc", try text(0x0E03)), ("Date", date)] {
            if let value, !value.isEmpty { rows.append((name, value)) }
        }
        if let plain = try text(0x1000), !plain.isEmpty {
            bodyParts.append(MailMessage.BodyPart(text: plain.replacingOccurrences(of: "\r\n", with: "\n"), isHTML: false))
        } else if let html = try text(0x1013) ?? bytes(0x1013).map({ TextDecoder.decode($0[...], complete: true).text }) {
            bodyParts.append(MailMessage.BodyPart(text: html, isHTML: true))
        } else if let compressed = try bytes(0x1009) {
            try richTextBody(compressed)
        }
        let storages = paths.filter { $0.entry.type == 1 && $0.path.hasPrefix("__attach_version1.0_#") && !$0.path.contains("/") }
        for storage in storages.prefix(Self.maxAttachments) { attachments.append(try attachment(storage.path)) }
        if storages.count > Self.maxAttachments {
            notes.append(
                "only the first \(CountText.grouped(Self.maxAttachments)) of \(CountText.grouped(storages.count)) attachments are listed")
        }
    }

    /// The body from the compressed RTF property, as its text; an RTF body that cannot be read
    /// becomes a note saying why.
    private mutating func richTextBody(_ compressed: [UInt8]) throws {
        do {
            let rtf = try CompressedRTF.decompress(compressed[...], limit: Self.maxRTFBytes)
            let document = try RichTextReader(rtf[...], budget: Self.maxPropertyBytes).document(
                budget: Self.maxPropertyBytes, properties: false)
            let text = document.rendered(maxBytes: Self.maxPropertyBytes, maxLines: .max).text
            if !text.isEmpty { bodyParts.append(MailMessage.BodyPart(text: text, isHTML: false)) }
        } catch let error as VignetteError where error.code == .unsupported || error.code == .declined {
            notes.append("the body is in compressed RTF that cannot be read: \(error.reason)")
        }
    }

    /// One attachment: its long, short or display name, MIME type and size; an attached
    /// Outlook message stands in as "(message: Subject)".
    private func attachment(_ prefix: String) throws -> MailMessage.Attachment {
        let base = prefix + "/"
        let name = try text(0x3707, in: base) ?? text(0x3704, in: base) ?? text(0x3001, in: base)
        let declaredSize = try fixed(0x0E20, in: base).map { Int($0 & 0xFFFF_FFFF) }
        if streams[base + "__substg1.0_3701000D"] != nil {
            let embedded = base + "__substg1.0_3701000D/"
            let subject = try text(0x0037, in: embedded) ?? name ?? "no subject"
            // Outlook often records no size for an attached message: its streams' sum stands in.
            let streamed = streams.filter { $0.key.hasPrefix(embedded) && $0.value.type == 2 }.reduce(0) { $0 + max(0, $1.value.size) }
            return MailMessage.Attachment(
                nameSource: nil, standIn: "(message: \(subject))", type: "application/vnd.ms-outlook", size: declaredSize ?? streamed)
        }
        let data = streams[base + "__substg1.0_37010102"]
        let type = try text(0x370E, in: base)?.lowercased() ?? "application/octet-stream"
        return MailMessage.Attachment(nameSource: nil, standIn: name ?? "(no name)", type: type, size: data?.size ?? declaredSize ?? 0)
    }

    /// The text property `id` under `prefix` (UTF-16, else 8-bit), without trailing NULs.
    private func text(_ id: Int, in prefix: String = "") throws -> String? {
        let tag = prefix + "__substg1.0_" + Self.hex(id)
        if let entry = streams[tag + "001F"], entry.type == 2 {
            let raw = try file.contents(of: entry, limit: Self.maxPropertyBytes).bytes
            let units = stride(from: 0, to: raw.count - 1, by: 2).map { UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8 }
            return Self.trimmed(String(decoding: units, as: UTF16.self))
        }
        if let entry = streams[tag + "001E"], entry.type == 2 {
            let raw = try file.contents(of: entry, limit: Self.maxPropertyBytes).bytes
            return Self.trimmed(TextDecoder.decode(raw[...], complete: true).text)
        }
        return nil
    }

    /// The binary property `id` of the message.
    private func bytes(_ id: Int) throws -> [UInt8]? {
        guard let entry = streams["__substg1.0_" + Self.hex(id) + "0102"], entry.type == 2 else { return nil }
        return try file.contents(of: entry, limit: Self.maxPropertyBytes).bytes
    }

    /// The 8-byte value of fixed-size property `id` in the property stream under `prefix`.
    ///
    /// The stream is a header (32 bytes for the message, 24 for an attached one, 8 for an
    /// attachment or recipient) and then 16-byte entries: type and id, flags, value.
    private func fixed(_ id: Int, in prefix: String = "") throws -> UInt64? {
        guard let entry = streams[prefix + "__properties_version1.0"], entry.type == 2 else { return nil }
        let raw = try file.contents(of: entry, limit: 64 << 10).bytes[...]
        let header = prefix.isEmpty ? 32 : prefix.hasSuffix("3701000D/") ? 24 : 8
        for offset in stride(from: header, to: raw.count - 15, by: 16) where Int(CompoundFile.u16(raw, offset + 2)) == id {
            return UInt64(CompoundFile.u32(raw, offset + 8)) | UInt64(CompoundFile.u32(raw, offset + 12)) << 32
        }
        return nil
    }

    /// The time property `id` (a FILETIME: 100 ns since 1601) as an RFC 5322 date in UTC.
    private func time(_ id: Int) throws -> String? {
        guard let value = try fixed(id), value > 0 else { return nil }
        let seconds = Double(value) / 10_000_000 - 11_644_473_600
        guard seconds > 0, seconds < 253_402_300_800 else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, d MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The `Date:` of the Internet headers the message arrived with, when it kept them.
    private func transportDate() throws -> String? {
        guard let headers = try text(0x007D) else { return nil }
        return MIMEHeader(Array(headers.utf8)[...], limits: .standard).text("Date")
    }

    private static func hex(_ id: Int) -> String {
        let digits = String(id, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func trimmed(_ text: String) -> String? {
        var text = Substring(text)
        while text.last == "\u{0}" { text.removeLast() }
        return text.isEmpty ? nil : String(text)
    }
}

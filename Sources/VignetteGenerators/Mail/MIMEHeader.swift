import VignetteCore

/// The header section of a message or MIME part: its fields in order (unfolded, undecoded),
/// where the body starts, and what was wrong with it.
struct MIMEHeader {
    /// One header field: its name as written and its value's raw bytes, unfolded.
    struct Field {
        /// The name, as written (`Subject`).
        let name: String
        /// The value's bytes after the colon, line folds removed.
        var raw: [UInt8]
    }

    /// The fields read, in order.
    private(set) var fields: [Field] = []
    /// Index in the parsed bytes where the body starts (past the blank line).
    private(set) var bodyStart: Int
    /// What was wrong with the header section, as sentences for the preview's notes.
    private(set) var notes: [String] = []

    /// Parses the header section at the start of `bytes`, within `limits`.
    init(_ bytes: ArraySlice<UInt8>, limits: MailLimits) {
        bodyStart = bytes.endIndex
        var lineStart = bytes.startIndex
        var fieldLengths: [Int] = []
        var skippedFields = 0
        var cutFields: [(name: String, length: Int)] = []
        while lineStart < bytes.endIndex {
            let newline = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: lineStart)
            let next = newline.map { $0 + 1 } ?? bytes.endIndex
            var lineEnd = newline ?? bytes.endIndex
            if lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = bytes[lineStart..<lineEnd]
            if line.isEmpty {
                bodyStart = next
                break
            }
            if TransferDecoding.isSpace(line[line.startIndex]) {
                // A folded continuation of the field before (or of one skipped over the limit).
                if skippedFields == 0, let last = fields.indices.last {
                    fieldLengths[last] += line.count
                    let room = limits.maxHeaderBytes - fields[last].raw.count
                    if room > 0 { fields[last].raw += line.prefix(room) }
                }
            } else if let colon = line.firstIndex(of: UInt8(ascii: ":")), Self.isFieldName(line[line.startIndex..<colon]) {
                if fields.count >= limits.maxHeaderFields {
                    skippedFields += 1
                } else {
                    let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).trimming(" \t")
                    let value = line[(colon + 1)...]
                    fields.append(Field(name: name, raw: Array(value.prefix(limits.maxHeaderBytes))))
                    fieldLengths.append(value.count)
                }
            } else if fields.isEmpty && skippedFields == 0 && line.starts(with: Array("From ".utf8)) {
                // An mbox separator line before the message's own header: not a field.
            } else {
                notes.append("a line in the header is not a header field; the body is taken to start there")
                bodyStart = lineStart
                break
            }
            lineStart = next
        }
        for (k, length) in fieldLengths.enumerated() where length > limits.maxHeaderBytes {
            cutFields.append((fields[k].name, length))
        }
        for cut in cutFields.prefix(3) {
            notes.append(
                "the \(cut.name) header is \(ByteCount.text(cut.length)) long; cut at \(ByteCount.text(limits.maxHeaderBytes))")
        }
        if skippedFields > 0 {
            notes.append("only the first \(limits.maxHeaderFields) header fields were read (\(skippedFields) more skipped)")
        }
    }

    /// Whether `name` can be a field name: printable ASCII without spaces (trailing ones aside).
    static func isFieldName(_ name: ArraySlice<UInt8>) -> Bool {
        var trimmed = name
        while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed.removeLast() }
        return !trimmed.isEmpty && trimmed.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// The raw value of the first field named `name` (any case), or nil.
    func raw(_ name: String) -> [UInt8]? {
        let lower = name.lowercased()
        return fields.first { $0.name.lowercased() == lower }?.raw
    }

    /// The first field named `name` decoded for reading (RFC 2047 words, folding collapsed), or nil.
    func text(_ name: String) -> String? {
        raw(name).map { EncodedWord.decodeHeader($0[...]) }
    }

    /// The values of every field named `name`, decoded and joined with ", " (several `To` lines), or nil.
    func joinedText(_ name: String) -> String? {
        let lower = name.lowercased()
        let values = fields.filter { $0.name.lowercased() == lower }.map { EncodedWord.decodeHeader($0.raw[...]) }
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

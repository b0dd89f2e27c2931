import Foundation
public import VignetteCore

/// What can be said of any file: name, size, type and its chain, MIME, time, permissions.
public struct FileFacts: Sendable {
    /// Labelled rows in display order, labels ending with a colon ("Size:", "1.2 KB (1,234 bytes)").
    public let rows: [(String, String)]

    /// The facts of `input`, with conformance and MIME from `catalog`.
    public init(_ input: GeneratorInput, catalog: TypeCatalog) {
        var rows: [(String, String)] = []
        rows.append(("Name:", input.filename ?? "(upload)"))
        if let path = input.displayPath { rows.append(("Path:", path)) }
        let exact = input.size.formatted(.number.grouping(.automatic))
        rows.append(("Size:", input.size < 1000 ? ByteCount.text(input.size) : "\(ByteCount.text(input.size)) (\(exact) bytes)"))
        rows.append(("Type:", "\(input.type.localizedDescription) (\(input.type.identifier))"))
        rows.append(("Conforms to:", catalog.supertypes(of: input.type).dropFirst().map(\.identifier).joined(separator: " → ")))
        rows.append(("MIME type:", catalog.preferredMIMEType(of: input.type)))
        rows.append(("Identified:", input.resolution.evidence.description))
        if let text = input.resolution.text { rows.append(("Encoding:", text.encoding.displayName)) }
        if let status = input.status {
            let date = Date(timeIntervalSince1970: TimeInterval(status.modificationSeconds))
            rows.append(("Modified:", FileFacts.timestamp(date)))
            rows.append(("Permissions:", FileFacts.permissions(status.permissions)))
        }
        self.rows = rows
    }

    /// `2026-11-22 06:30:00 UTC`.
    static func timestamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return f.string(from: date)
    }

    /// `rw-r--r-- (0644)`.
    static func permissions(_ mode: Int) -> String {
        let symbols = Array("rwxrwxrwx")
        var s = ""
        for i in 0..<9 { s.append(mode & (1 << (8 - i)) != 0 ? symbols[i] : "-") }
        return "\(s) (\(String(format: "%04o", mode)))"
    }
}

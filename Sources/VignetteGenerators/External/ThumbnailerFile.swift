import Foundation
import VignetteCore

/// A freedesktop `.thumbnailer` file, as GNOME, Xfce (tumbler) and GLib read them.
///
/// ```ini
/// [Thumbnailer Entry]
/// TryExec=/usr/bin/gdk-pixbuf-thumbnailer
/// Exec=/usr/bin/gdk-pixbuf-thumbnailer -s %s %u %o
/// MimeType=image/png;image/gif;
/// ```
/// `Exec` is split like a desktop entry's (double quotes, backslash escapes inside them) and
/// must name the input (`%i` or `%u`) and the output (`%o`).
public struct ThumbnailerFile: Sendable, Equatable {
    /// The file.
    public let path: String
    /// A program that must exist for the thumbnailer to be used.
    public let tryExec: String?
    /// The command line.
    public let exec: ExecTemplate
    /// MIME types handled.
    public let mimeTypes: [String]

    /// The group holding the keys.
    public static let group = "Thumbnailer Entry"

    /// Reads and checks a `.thumbnailer` file.
    ///
    /// - Throws: `VignetteError(.invalidDeclaration)` naming the file and the line or key.
    public static func load(contentsOf path: String) throws -> ThumbnailerFile {
        let bytes: [UInt8]
        do {
            bytes = try FileSample.readContents(ofFile: path, limit: 256 << 10)
        } catch let error as VignetteError where error.code == .limitExceeded {
            throw VignetteError(.invalidDeclaration, path: path, "thumbnailer file is over 256 KiB")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// Checks the text of a `.thumbnailer` file.
    public static func parse(_ text: String, path: String) throws -> ThumbnailerFile {
        var keys: [String: String] = [:]
        var inGroup = false
        var sawGroup = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw problem(path, "line \(index + 1): group header without a closing ]") }
                inGroup = line.dropFirst().dropLast() == group
                sawGroup = sawGroup || inGroup
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw problem(path, "line \(index + 1): expected KEY=VALUE, a [group] or a # comment")
            }
            guard inGroup else { continue }
            let key = line[..<eq].trimmingWhitespaces()
            keys[key] = unescape(line[line.index(after: eq)...].trimmingWhitespaces())
        }
        guard sawGroup else { throw problem(path, "no [\(group)] group") }
        guard let execLine = keys["Exec"], !execLine.isEmpty else { throw problem(path, "key Exec: missing") }
        let words: [String]
        do {
            words = try splitExec(execLine)
        } catch let reason as SplitProblem {
            throw problem(path, "key Exec: \(reason.text)")
        }
        let exec: ExecTemplate
        do {
            exec = try ExecTemplate(words)
        } catch let p as ExecTemplate.TemplateProblem {
            throw problem(path, "key Exec: \(p.reason)")
        }
        guard exec.takesInput, exec.writesOutputFile else {
            throw problem(path, "key Exec: must contain an input code (%i or %u) and %o")
        }
        let mimeTypes = (keys["MimeType"] ?? "").split(separator: ";").map { $0.trimmingWhitespaces() }.filter {
            !$0.isEmpty
        }
        guard !mimeTypes.isEmpty else { throw problem(path, "key MimeType: missing or empty") }
        let tryExec = keys["TryExec"].flatMap { $0.isEmpty ? nil : $0 }
        return ThumbnailerFile(path: path, tryExec: tryExec, exec: exec, mimeTypes: mimeTypes)
    }

    struct SplitProblem: Error { let text: String }

    /// Splits an `Exec` value into arguments (desktop entry rules: spaces separate, double
    /// quotes group, and inside quotes a backslash escapes `"`, `` ` ``, `$` and `\`).
    static func splitExec(_ value: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var chars = value.makeIterator()
        var quoted = false
        while let c = chars.next() {
            if quoted {
                if c == "\"" {
                    quoted = false
                } else if c == "\\" {
                    guard let next = chars.next() else { throw SplitProblem(text: "ends inside a quoted argument") }
                    current.append(next)
                } else {
                    current.append(c)
                }
            } else if c == " " || c == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else if c == "\"" {
                quoted = true
                inWord = true
            } else {
                current.append(c)
                inWord = true
            }
        }
        if quoted { throw SplitProblem(text: "a double quote is never closed") }
        if inWord { words.append(current) }
        return words
    }

    /// Key-file value escapes: `\s` space, `\n`, `\t`, `\r`, `\\`.
    static func unescape(_ value: String) -> String {
        var out = ""
        var chars = value.makeIterator()
        while let c = chars.next() {
            guard c == "\\", let next = chars.next() else {
                out.append(c)
                continue
            }
            switch next {
            case "s": out.append(" ")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\\": out.append("\\")
            default: out.append("\\"); out.append(next)
            }
        }
        return out
    }

    static func problem(_ path: String, _ reason: String) -> VignetteError {
        VignetteError(.invalidDeclaration, path: path, reason)
    }
}

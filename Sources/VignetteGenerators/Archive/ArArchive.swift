import Foundation
import VignetteCore

/// The members of a Unix `ar` archive (static libraries, Debian packages), read from their headers.
///
/// Understands the common layout (`!<arch>`), GNU long names (the `//` table, `/N` references),
/// BSD long names (`#1/N`, the name leading the data) and GNU thin archives (`!<thin>`, whose
/// members live in other files). Every header is checked; nothing is read beyond the file.
struct ArArchive {
    /// One member: its name and where its data lies in the file.
    struct Member: Equatable {
        var name: String
        /// Offset of the data in the archive file (after a BSD long name).
        var offset: Int
        /// Bytes of data.
        var size: Int
        /// Whether the data is in the archive (not so in a thin archive).
        var isStored: Bool
    }

    /// Largest GNU long-name table read.
    static let maxNameTable = 1 << 20

    /// The members read, in order.
    private(set) var members: [Member] = []
    /// Why reading stopped before the end ("the archive is damaged or cut short after 2 members"), if it did.
    private(set) var problem: String?

    /// Reads the member headers of `source`, at most `maxMembers`; symbol tables are left out.
    ///
    /// - Throws: `.corrupt` when the file does not start as an `ar` archive.
    init(_ source: FileSample, maxMembers: Int) throws {
        let magic = source.bytes(at: 0, count: 8).map(Array.init) ?? []
        let thin = magic == Array("!<thin>\n".utf8)
        guard thin || magic == Array("!<arch>\n".utf8) else { throw VignetteError(.corrupt, "not an ar archive (no !<arch> signature)") }
        var at = 8
        var longNames: [UInt8] = []
        while at < source.size {
            guard members.count < maxMembers else {
                problem = "listing stopped after \(CountText.grouped(members.count)) members; the archive may hold more"
                return
            }
            guard let header = source.bytes(at: at, count: 60).map(Array.init), header.count == 60, header[58] == 0x60, header[59] == 0x0A,
                let size = Int(String(decoding: header[48..<58], as: UTF8.self).trimmingCharacters(in: .whitespaces)), size >= 0,
                size <= source.size
            else {
                problem = "the archive is damaged or cut short after \(CountText.counted(members.count, "member"))"
                return
            }
            let rawName = String(decoding: header[0..<16], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            let data = at + 60
            // Symbol and name tables are always stored, even in a thin archive.
            let isTable = rawName == "/" || rawName == "//" || rawName == "/SYM64/" || rawName.hasPrefix("__.SYMDEF")
            let stored = !thin || isTable
            var member = Member(name: rawName, offset: data, size: size, isStored: stored)
            if rawName == "//" {
                longNames = source.bytes(at: data, count: min(size, ArArchive.maxNameTable)).map(Array.init) ?? []
            } else if rawName.hasPrefix("#1/"), let length = Int(rawName.dropFirst(3)), length >= 0, length <= min(size, 4096) {
                let name = source.bytes(at: data, count: length).map(Array.init) ?? []
                member.name = String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
                member.offset = data + length
                member.size = size - length
            } else if rawName.count > 1, rawName.hasPrefix("/"), let offset = Int(rawName.dropFirst()), offset >= 0,
                offset < longNames.count
            {
                let name = longNames[offset...].prefix { $0 != 0x0A }
                member.name = String(decoding: name.last == UInt8(ascii: "/") ? name.dropLast() : name, as: UTF8.self)
            } else if rawName.hasSuffix("/"), rawName.count > 1 {
                member.name = String(rawName.dropLast())
            }
            if !isTable { members.append(member) }
            let next = (stored ? data + size : data)
            at = next + (stored ? next % 2 : 0)
        }
    }
}

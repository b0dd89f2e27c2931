import Foundation
import Testing

@testable import VignetteCore

/// Rules that look past a signature or into text structure: ELF kinds, TZif leap seconds,
/// troff, ISO-2022 shifts, YAML directives, printer descriptions, interpreter variants.
@Suite("Type resolution: structure rules")
struct TypeStructureRulesTests {
    @Test func aPositionIndependentExecutableIsNotALibrary() throws {
        // Debian's own binaries: /usr/bin/ls is PIE (DF_1_PIE); libc.so.6 has an interpreter but is a library.
        let ls = try resolver.resolve(path: "/usr/bin/ls")
        #expect(resolver.catalog.preferredMIMEType(of: ls.type) == "application/x-pie-executable")
        #expect(ls.evidence == .structure("ELF dynamic section flags DF_1_PIE"))
        #expect(resolver.catalog.conforms(ls.type, to: "org.freedesktop.elf-executable"))
        let libc = try #require(
            ["/lib/x86_64-linux-gnu/libc.so.6", "/lib/aarch64-linux-gnu/libc.so.6"].first { FileManager.default.fileExists(atPath: $0) })
        #expect(resolver.catalog.preferredMIMEType(of: try resolver.resolve(path: libc).type) == "application/x-sharedlib")
        // A truncated or lying header is just a shared library, never a crash.
        let head = Array(try #require(FileManager.default.contents(atPath: "/usr/bin/ls")).prefix(64))
        #expect(mime(head, nil) == "application/x-sharedlib")
        var lying = head
        lying[0x20..<0x28] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(mime(lying, nil) == "application/x-sharedlib")
    }

    @Test func tzifWithLeapSecondRecordsIsTzifLeap() {
        func tzif(leapCount: UInt8) -> [UInt8] {
            Array("TZif2".utf8) + Array(repeating: 0, count: 15) + [
                0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, leapCount, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4,
            ]
                + Array(repeating: 0, count: 40)
        }
        #expect(mime(tzif(leapCount: 27), "Tokyo") == "application/tzif-leap")
        #expect(mime(tzif(leapCount: 0), "Tokyo") == "application/tzif")
    }

    @Test func troffIsKnownByItsRequestsAndAManualNameNeedsThem() {
        let macros = ".\\\" local additions\n.if !d MR \\{\\\n.  de MR\n.    I \\\\$1\n.  .\n.\\}\n.nr X 1\n"
        #expect(mime(macros, "an-ext.tmac") == "text/troff")
        #expect(mime(macros, nil) == "text/troff")
        #expect(mime(".TH LS 1\n.SH NAME\nls \\- list\n", "ls.1") == "application/x-troff-man")
        // A section-number name on text without a single request is not a manual page.
        #expect(mime("[DEFAULT]\nfoo = bar\n", "cfgparser.1") == "text/plain")
        // Dot-files listed one per line are not troff.
        #expect(mime(".DS_Store\n.vscode\n.env.local\n.PHONY\n", nil) == "text/plain")
    }

    @Test func iso2022ShiftBytesAreText() {
        let korean: [UInt8] =
            [0x1B, 0x24, 0x29, 0x43] + Array(repeating: [0x0E, 0x21, 0x5D, 0x0F, 0x20, 0x41], count: 40).flatMap { $0 } + [0x0A]
        #expect(mime(korean, "iso2022_kr.txt") == "text/plain")
        // Without the designation the same shifts are binary control bytes.
        #expect(mime(Array(korean.dropFirst(4)), nil) == "application/octet-stream")
    }

    @Test func directivesSignaturesAndInterpreterVariants() {
        #expect(mime("%YAML 1.1\n---\nkey: value\n", "highlight.cfg") == "application/yaml")
        #expect(mime("*PPD-Adobe: \"4.3\"\n*FormatVersion: \"4.3\"\n", nil) == "application/vnd.cups-ppd")
        #expect(mime("-----BEGIN X509 CRL-----\nMIIB\n-----END X509 CRL-----\n", "revocation.crl") == "application/pkix-crl")
        #expect(mime([0x08, 0x09, 0xFE, 0x02, 0x01, 0x08] + Array(repeating: 0, count: 40), "seed.dgn") == "application/x-bentley-dgn")
        #expect(
            mime([0x1E, 0x02, 0x30, 0x00, 0x26, 0x00, 0x0F, 0x00] + Array(repeating: 1, count: 40), "screen") == "application/x-terminfo2")
        #expect(mime("#!/usr/bin/env lua-any\nprint(1)\n", "ldoc") == "text/x-lua")
    }
}

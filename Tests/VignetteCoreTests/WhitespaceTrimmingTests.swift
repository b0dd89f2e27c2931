import Foundation
import Testing

@testable import VignetteCore

@Suite("Whitespace trimming")
struct WhitespaceTrimmingTests {
    @Test func everyScalarIsTrimmedAsFoundationTrimsIt() {
        // Each scalar of the Basic Multilingual Plane and the first supplementary one, alone
        // and around a word, against Foundation's answer.
        for value in UInt32(0)..<0x2_0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(scalar)a b\(scalar)"
            #expect(text.trimmingWhitespaces() == text.trimmingCharacters(in: .whitespaces), "U+\(String(value, radix: 16))")
        }
    }

    @Test func substringsAndEdgeCases() {
        let cases = ["", " ", "\t \u{A0}", "  256 ", "a", " a\u{3000}", "\u{301}x ", "x\n", "\n x \r"]
        for text in cases {
            #expect(text.trimmingWhitespaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            let sub = text[...]
            #expect(sub.trimmingWhitespaces() == sub.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }
}

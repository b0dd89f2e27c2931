import Foundation
import Testing
import VignetteCore
import VignetteGenerators

/// Messages built line by line, joined with CRLF as mail travels.
enum MailFixtures {
    /// A PDF-like attachment of 1,234 bytes.
    static let pdf: [UInt8] = Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x41, count: 1225)

    /// multipart/mixed holding a multipart/alternative (quoted-printable ISO-8859-1 text and HTML)
    /// and two attachments (base64 PDF, text named in RFC 2231); RFC 2047 words in UTF-8 and ISO-8859-1.
    static var acceptance: String {
        [
            "From: =?ISO-8859-1?Q?Am=E9lie_Dupont?= <amelie@example.org>",
            "To: Bob <bob@example.com>, =?UTF-8?B?w4lsb2RpZQ==?= <elodie@example.net>",
            "Cc: team@example.org",
            "Date: Tue, 10 Mar 2026 09:30:00 +0100",
            "Subject: =?UTF-8?B?Q2Fmw6kg4oCUIA==?=",
            " =?ISO-8859-1?Q?r=E9union_d=27=E9t=E9?=",
            "MIME-Version: 1.0",
            "Content-Type: multipart/mixed; boundary=\"outer\"",
            "",
            "This is a multi-part message in MIME format.",
            "--outer",
            "Content-Type: multipart/alternative; boundary=\"alt\"",
            "",
            "--alt",
            "Content-Type: text/plain; charset=ISO-8859-1",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            "Bonjour =E0 tous,",
            "",
            "La r=E9union aura lieu au caf=E9 demain =E0 10 h. Ceci est une longue ligne=",
            " coup=E9e par un saut de ligne doux.",
            "--alt",
            "Content-Type: text/html; charset=UTF-8",
            "",
            "<p>Bonjour à tous <b>(HTML)</b></p>",
            "--alt--",
            "",
            "--outer",
            "Content-Type: application/pdf; name=\"ordre du jour.pdf\"",
            "Content-Disposition: attachment; filename=\"ordre du jour.pdf\"",
            "Content-Transfer-Encoding: base64",
            "",
            Data(pdf).base64EncodedString(options: .lineLength76Characters).replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\n", with: "\r\n"),
            "--outer",
            "Content-Type: text/plain; charset=UTF-8; name=notes.txt",
            "Content-Disposition: attachment; filename*=UTF-8''notes%20%C3%A9t%C3%A9.txt",
            "",
            "Liste des points",
            "--outer--",
            "",
        ].joined(separator: "\r\n")
    }

    /// The text the acceptance message previews as.
    static let acceptanceText = """
        Subject: Café — réunion d'été
        From:    Amélie Dupont <amelie@example.org>
        To:      Bob <bob@example.com>, Élodie <elodie@example.net>
        Cc:      team@example.org
        Date:    Tue, 10 Mar 2026 09:30:00 +0100

        Bonjour à tous,

        La réunion aura lieu au café demain à 10 h. Ceci est une longue ligne coupée par un saut de ligne doux.

        Attachments (2):
          ordre du jour.pdf  application/pdf  1.2 KB
          notes été.txt      text/plain       16 bytes
        """
}

@Suite("E-mail previews")
struct MailPreviewTests {
    @Test func aMultipartMessageShowsDecodedHeadersTheQuotedPrintableTextAndTheAttachments() throws {
        let (result, generator) = try preview(MailFixtures.acceptance, named: "invitation.eml")
        #expect(generator == "mail")
        #expect(result.title == "E-mail: Café — réunion d'été")
        #expect(result.text == MailFixtures.acceptanceText)
        #expect(!result.truncated)
        #expect(result.html.contains("<tr><th>Subject</th><td>Café — réunion d&#39;été</td></tr>"))
        #expect(
            result.html.contains(
                "<pre class=\"vignette-mail-body\">Bonjour à tous,\n\nLa réunion aura lieu au café demain à 10 h. Ceci est une longue ligne coupée par un saut de ligne doux.</pre>"
            ))
        #expect(result.html.contains("<tr><td>ordre du jour.pdf</td><td>application/pdf</td><td>1.2 KB</td></tr>"))
        #expect(result.html.contains("<tr><td>notes été.txt</td><td>text/plain</td><td>16 bytes</td></tr>"))
        #expect(!result.html.contains("(HTML)"))
    }

    @Test func anHTMLOnlyBodyIsShownAsTextAndAsSanitizedHTML() throws {
        let message = [
            "Subject: =?utf-8?q?Hello?=", "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64", "",
            Data("<h1>Hi</h1><p>One &amp; two</p><script>alert(1)</script><img src=\"https://t.example/p.gif\">".utf8)
                .base64EncodedString(),
        ].joined(separator: "\n")
        let (result, _) = try preview(message, named: "h.eml")
        #expect(result.text == "Subject: Hello\n\nHi\nOne & two")
        #expect(result.html.contains("<div class=\"vignette-mail-body\"><h1>Hi</h1><p>One &amp; two</p>"))
        #expect(!result.html.contains("script") && !result.html.contains("t.example"))
    }

    @Test func aMissingClosingBoundaryStillPreviewsWhatIsThereWithANote() throws {
        let message = [
            "Subject: cut", "Content-Type: multipart/mixed; boundary=b", "", "--b", "Content-Type: text/plain", "", "Body here.",
            "--b", "Content-Type: image/png", "Content-Disposition: attachment; filename=a.png", "Content-Transfer-Encoding: base64", "",
            "iVBORw0KGgo=",
        ].joined(separator: "\r\n")
        let (result, generator) = try preview(message, named: "cut.eml")
        #expect(generator == "mail")
        #expect(
            result.text == """
                Subject: cut

                Body here.

                Attachments (1):
                  a.png  image/png  8 bytes

                Notes:
                  - a multipart/mixed part has no closing boundary; the message may be cut
                """)
        #expect(
            result.html.contains(
                "<ul class=\"vignette-note\">\n<li>a multipart/mixed part has no closing boundary; the message may be cut</li>"))
    }

    @Test func truncatedBase64DecodesWhatItHoldsAndSaysSo() throws {
        let message = [
            "Subject: b64", "Content-Type: multipart/mixed; boundary=b", "", "--b", "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64", "", "Qm9uam91ciDDoCB0b3", "--b", "Content-Type: application/pdf",
            "Content-Disposition: attachment; filename=x.pdf", "Content-Transfer-Encoding: base64", "", "JVBERi0xLj", "--b--",
        ].joined(separator: "\r\n")
        let (result, _) = try preview(message, named: "b.eml")
        #expect(
            result.text == """
                Subject: b64

                Bonjour à to

                Attachments (1):
                  x.pdf  application/pdf  7 bytes

                Notes:
                  - the base64 of a text/plain part is damaged or cut; shown as far as it decodes
                """)
    }

    @Test func tenThousandNestedMultipartsStopAtTheDepthLimit() throws {
        var message = "Subject: deep\r\n"
        for level in 0..<10_000 { message += "Content-Type: multipart/mixed; boundary=\"b\(level)\"\r\n\r\n--b\(level)\r\n" }
        message += "Content-Type: text/plain\r\n\r\nthe bottom\r\n"
        for level in (0..<10_000).reversed() { message += "--b\(level)--\r\n" }
        let started = Date()
        let (result, generator) = try preview(message, named: "deep.eml", request: PreviewRequest(maxBytes: 1 << 20))
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(generator == "mail")
        #expect(result.title == "E-mail: deep")
        #expect(
            result.text == """
                Subject: deep

                (no text in the body)

                Notes:
                  - multipart nesting is deeper than 24 levels; the parts below were not read
                """)
    }

    @Test func aTenMegabyteHeaderIsCutWithANote() throws {
        let message = "From: a@example.org\r\nSubject: " + String(repeating: "A", count: 10_000_000) + "\r\n\r\nShort body.\r\n"
        let (result, generator) = try preview(message, named: "big.eml")
        #expect(generator == "mail")
        #expect(result.title == "E-mail: " + String(repeating: "A", count: 199) + "…")
        #expect(result.text.hasSuffix("\n\nShort body.\n\nNotes:\n  - the Subject header is 10 MB long; cut at 16 KB"))
        #expect(result.text.utf8.count < 40_000)
    }

    @Test func partsOverTheLimitAreNotReadAndTheListIsCut() throws {
        let part = "--b\r\nContent-Type: application/octet-stream\r\n\r\nAAAA\r\n"
        let message =
            "Subject: many\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" + String(repeating: part, count: 1500) + "--b--\r\n"
        let (result, _) = try preview(message, named: "many.eml")
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("Attachments (999):"))
        #expect(lines.filter { $0 == "  (no name)  application/octet-stream  4 bytes" }.count == 100)
        #expect(result.text.hasSuffix("\n  … and 899 more\n\nNotes:\n  - only the first 1000 MIME parts were read"))
    }

    @Test func aLongBodyIsCutAtTheRequestedBytesWithAMarker() throws {
        let message = "Subject: long\n\n" + String(repeating: "word ", count: 1000)
        let (result, _) = try preview(message, named: "l.eml", request: PreviewRequest(maxBytes: 100))
        #expect(result.truncated)
        #expect(result.text.hasSuffix("\n… body cut: showing the first 100 bytes of 5 KB of text"))
    }

    @Test func aFileWithoutHeadersIsPassedToThePlainTextPreview() throws {
        let bytes = Array("just a note, no header here\n".utf8)
        let input = GeneratorInput(bytes: bytes, filename: "note.eml", resolver: TypeResolver(catalog: textRegistry.catalog))
        let (result, generator, attempts) = try textRegistry.preview(for: input, request: PreviewRequest())
        #expect(generator == "text")
        #expect(result.text == "just a note, no header here")
        #expect(attempts.first?.description == "mail: failed: no header fields at the start: not an e-mail message")
    }

    @Test func theFirstMessagesOfAMailboxAreShown() throws {
        let mbox = """
            From alice@example.org Tue Mar 10 09:00:00 2026
            From: alice@example.org
            Subject: one

            First body.
            >From here on, quoted.

            From bob@example.org Tue Mar 10 10:00:00 2026
            From: bob@example.org
            Subject: =?UTF-8?Q?deux_=C3=A9t=C3=A9?=

            Second body.

            """
        let (result, generator) = try preview(mbox, named: "inbox.mbox")
        #expect(generator == "mail")
        #expect(result.title == "Mailbox, 2 messages")
        #expect(
            result.text == """
                === Message 1 of 2 ===
                Subject: one
                From:    alice@example.org

                First body.
                >From here on, quoted.

                === Message 2 of 2 ===
                Subject: deux été
                From:    bob@example.org

                Second body.
                """)
        #expect(result.html.contains("<section class=\"vignette-mail-message\">\n<h2>Message 2 of 2</h2>"))
    }

    @Test func aMailboxOverTheMessageCapSaysHowManyWereLeftOut() throws {
        let mbox = (1...25).map { "From x@example.org Tue Mar 10 09:00:00 2026\nSubject: m\($0)\n\nbody \($0)\n" }.joined(separator: "\n")
        let (result, _) = try preview(mbox, named: "many.mbox")
        #expect(result.title == "Mailbox, 25 messages")
        #expect(result.truncated)
        #expect(result.text.hasSuffix("body 20\n… cut: showing the first 20 of 25 messages"))
    }

    @Test func encodedWordsDecodeAcrossCharsetsAndSplitCharacters() throws {
        // "é" split over two words in UTF-8 must still make one character.
        let message = "Subject: =?UTF-8?Q?caf=C3?= =?UTF-8?Q?=A9?= and =?iso-8859-1?b?6XTp?= plain\n\n"
        let (result, _) = try preview(message, named: "w.eml")
        #expect(result.title == "E-mail: café and été plain")
    }
}

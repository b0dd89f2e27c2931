import Foundation
import Testing

@Suite("vignette preview / view on e-mail")
struct MailPreviewCommandTests {
    static let message = [
        "From: =?ISO-8859-1?Q?Am=E9lie?= <amelie@example.org>", "To: bob@example.com",
        "Subject: =?UTF-8?B?Q2Fmw6k=?= demain", "Date: Tue, 10 Mar 2026 09:30:00 +0100",
        "Content-Type: multipart/mixed; boundary=b", "", "--b", "Content-Type: text/plain; charset=ISO-8859-1",
        "Content-Transfer-Encoding: quoted-printable", "", "Rendez-vous au caf=E9 =E0 10 h.", "--b",
        "Content-Type: application/pdf", "Content-Disposition: attachment; filename=plan.pdf", "Content-Transfer-Encoding: base64", "",
        "JVBERi0xLjQK", "--b--", "",
    ].joined(separator: "\r\n")

    @Test func previewPrintsTheDecodedMessage() throws {
        let dir = try CLI.tempDirectory()
        let path = dir + "/cafe.eml"
        try Data(Self.message.utf8).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["preview", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout == """
                Subject: Café demain
                From:    Amélie <amelie@example.org>
                To:      bob@example.com
                Date:    Tue, 10 Mar 2026 09:30:00 +0100

                Rendez-vous au café à 10 h.

                Attachments (1):
                  plan.pdf  application/pdf  9 bytes

                """)
        let which = try CLI.run(["which", path])
        #expect(which.stdout.contains("preview: mail answers"), "\(which.stdout)")
    }

    @Test func viewShowsTheMessageInThePage() throws {
        let dir = try CLI.tempDirectory()
        let path = dir + "/cafe.eml"
        try Data(Self.message.utf8).write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["view", path, "-o", dir + "/page.html"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: dir + "/page.html", encoding: .utf8)
        #expect(page.contains("<p class=\"subtitle\">E-mail: Café demain</p>"))
        #expect(page.contains("<pre class=\"vignette-mail-body\">Rendez-vous au café à 10 h.</pre>"))
        #expect(page.contains("<tr><td>plan.pdf</td><td>application/pdf</td><td>9 bytes</td></tr>"))
        #expect(page.contains("<tr><th>Preview by</th><td>mail</td></tr>"))
    }
}

import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

/// Outlook `.msg` files previewed as e-mail: sender, recipients, date, subject, body, attachments.
@Suite("Outlook messages")
struct OutlookMessageTests {
    private func preview(_ input: GeneratorInput) throws -> (TextPreview, String) {
        let (result, used, _) = try GeneratorFixtures.registry.preview(for: input, request: PreviewRequest())
        return (result, used)
    }

    @Test func aMessageWithAnAttachedMessage() throws {
        let (result, used) = try preview(GeneratorFixtures.input("outlook/outer.msg"))
        #expect(used == "outlook-message")
        #expect(result.title == "Outlook message: outer subject")
        #expect(
            result.text == """
                Subject: outer subject
                To:      outer@foo.bar
                Date:    Tue, 15 Nov 2016 23:29:05 +0000

                Outer body

                Attachments (1):
                  (message: test)  application/vnd.ms-outlook  13.2 KB
                """)
        #expect(result.html.contains("<tr><th>Subject</th><td>outer subject</td></tr>"))
    }

    @Test func theSenderTheDateOfTheInternetHeadersAndTextInTwoScripts() throws {
        let (result, used) = try preview(GeneratorFixtures.input("outlook/other.msg"))
        #expect(used == "outlook-message")
        #expect(result.title == "Outlook message: 投递状态通知 (Failure Notice)")
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(6)) == [
                "Subject: 投递状态通知 (Failure Notice)", "From:    Mail Delivery Subsystem <mailer-daemon@tjdpf.org.cn>",
                "To:      yosipnps@model.com", "Date:    Mon, 27 Nov 2017 17:44:30 +0800", "",
                "Hi. This is an automatically generated Delivery Status Notification at",
            ])
        #expect(lines.contains("到以下收信人地址的邮件投递失败："))
        #expect(lines.last == "  (message: 回复：转发：反馈·北京 2017年12月02-03日 销售)  application/vnd.ms-outlook  156 KB")
    }

    @Test func aBodyOnlyInCompressedRTFIsShownAsItsText() throws {
        // other.msg with its plain-text bodies renamed away: only the compressed RTF (GBK,
        // \ansicpg936, wrapped HTML as Outlook writes it) is left to show.
        let (result, used) = try preview(GeneratorFixtures.input("outlook/rtf-only.msg"))
        #expect(used == "outlook-message")
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(8)) == [
                "Subject: 投递状态通知 (Failure Notice)", "From:    Mail Delivery Subsystem <mailer-daemon@tjdpf.org.cn>",
                "To:      yosipnps@model.com", "Date:    Mon, 27 Nov 2017 17:44:30 +0800", "",
                "Hi. This is an automatically generated Delivery Status Notification at tjdpf.org.cn", "",
                "I'm afraid I was not able to deliver your message to the following recipient:",
            ])
        #expect(lines.contains("【这是服务器 tjdpf.org.cn 自动产生的投递状态通知】"))
        #expect(lines.contains("---- 【附件是您所发邮件的原件】"))
        #expect(!result.text.contains("htmltag") && !result.text.contains("\\"))
    }

    @Test func aNamelessMessageIsTypedByItsStorages() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: GeneratorFixtures.path("outlook/outer.msg"))))
        let resolution = TypeResolver(catalog: GeneratorFixtures.registry.catalog).resolve(bytes: bytes, filename: nil)
        #expect(resolution.type.identifier == "com.microsoft.outlook.message")
        #expect(
            resolution.evidence.description
                == "byte signature and file structure: compound file with __nameid_version1.0 and __properties_version1.0")
    }

    @Test func aCompoundFileWithoutMessagePropertiesIsDeclined() throws {
        let input = try GeneratorFixtures.upload("documents/password.docx", as: "mail.msg")
        #expect(throws: VignetteError(.declined, "no message properties (__substg1.0_ streams) in the compound file")) {
            try OutlookMessageGenerator().makePreview(for: input, request: PreviewRequest())
        }
    }

    @Test func theThumbnailIsTheMessageOnAPage() throws {
        let (thumb, used, _) = try GeneratorFixtures.registry.thumbnail(
            for: GeneratorFixtures.input("outlook/other.msg"), request: ThumbnailRequest(maxPixelSize: 256))
        #expect(used == "outlook-message")
        #expect(thumb.bitmap.width == 181 && thumb.bitmap.height == 256)
        #expect(!thumb.isIcon)
        // Text is drawn: some pixels are dark.
        #expect(stride(from: 0, to: thumb.bitmap.pixels.count, by: 4).contains { thumb.bitmap.pixels[$0] < 100 })
    }
}

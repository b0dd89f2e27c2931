import Foundation
import Testing
import VignetteCore
import VignetteImaging

/// Inputs the C fuzz harnesses found (Tests/Fixtures/fuzz), through the production path.
@Suite("C fuzz findings")
struct FuzzFindingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/Fixtures/fuzz"

    @Test func aProgressiveHeaderOfTwoGigapixelsIsRefusedBeforeTheLowFrequencyDecoderRuns() throws {
        // jpeg-dc ran 38 s on this 4 KB file: a 31638 × 62055 progressive frame whose scans say
        // almost nothing. ImageDecoder checks the header first, so the decoder never sees it.
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/jpeg-dc/progressive-1963mp-header.jpg"))
        #expect(throws: VignetteError(.refused, "image is 31638 × 62055 pixels (1963 MP), over the limit of 100 MP")) {
            try data.withUnsafeBytes { try ImageDecoder.jpeg($0, request: ThumbnailRequest(maxPixelSize: 256)) }
        }
    }
}

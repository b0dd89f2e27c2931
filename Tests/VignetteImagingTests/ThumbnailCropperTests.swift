import Testing
import VignetteCore

@testable import VignetteImaging

@Suite("Crops: fill and smart")
struct ThumbnailCropperTests {
    /// A `width × height` grey picture with a busy, colourful checkerboard in the given column range.
    func picture(width: Int, height: Int, busyColumns: Range<Int>) -> Bitmap {
        var px = [UInt8](repeating: 128, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                px[i + 3] = 255
                if busyColumns.contains(x), (x / 2 + y / 2) % 2 == 0 {
                    px[i] = 230
                    px[i + 1] = 40
                    px[i + 2] = 20
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: px)
    }

    @Test func coverSizesKeepAspectCoverTheBoxAndCapPanoramas() {
        let fill = ThumbnailRequest(maxPixelSize: 100, crop: .fill)
        #expect(fill.outputSize(width: 4000, height: 3000) == (133, 100))
        #expect(fill.outputSize(width: 3000, height: 4000) == (100, 133))
        #expect(fill.outputSize(width: 50, height: 40) == (50, 40))  // never enlarged by the decoder
        #expect(fill.outputSize(width: 100_000, height: 1000) == (400, 4))  // at most 4 boxes long
        #expect(ThumbnailRequest(maxPixelSize: 100).outputSize(width: 4000, height: 3000) == (100, 75))
    }

    @Test func fillCutsExactlyTheBoxFromTheMiddle() {
        let wide = picture(width: 300, height: 100, busyColumns: 0..<0)
        let out = ThumbnailCropper.crop(wide, box: 100, mode: .fill)
        #expect(out.width == 100 && out.height == 100)
        // A picture smaller than the box is enlarged to cover it.
        let small = ThumbnailCropper.crop(picture(width: 30, height: 20, busyColumns: 0..<0), box: 64, mode: .fill)
        #expect(small.width == 64 && small.height == 64)
        #expect(ThumbnailCropper.crop(wide, box: 100, mode: .fit) == wide)
    }

    @Test func smartFollowsTheBusyPart() {
        for (busy, expected) in [(0..<60, 0), (240..<300, 200), (110..<190, 100)] {
            let p = picture(width: 300, height: 100, busyColumns: busy)
            #expect(ThumbnailCropper.attentionWindow(p, box: 100).x == expected, "busy columns \(busy)")
        }
        // Along the other axis too.
        let tall = picture(width: 100, height: 300, busyColumns: 0..<0)
        #expect(ThumbnailCropper.attentionWindow(tall, box: 100) == (0, 100))  // nothing interesting: the centre
        let out = ThumbnailCropper.crop(picture(width: 300, height: 100, busyColumns: 240..<300), box: 100, mode: .smart)
        #expect(out.width == 100 && out.height == 100)
        #expect(out.pixels[(50 * 100 + 99) * 4 + 1] != 128 || out.pixels[(51 * 100 + 99) * 4 + 1] != 128)
    }

    @Test func rectanglesAreCutExactlyAfterTheCoverIsShrunkOrEnlarged() {
        // A rendering that covers the square of the longer side (what the decoder makes for a
        // 120 × 40 box: 360 × 120) is shrunk to just cover the box, then cut.
        let wide = picture(width: 360, height: 120, busyColumns: 0..<0)
        #expect(ThumbnailCropper.cover(wide, width: 120, height: 40).width == 120)
        #expect(ThumbnailCropper.cover(wide, width: 120, height: 40).height == 40)
        let fill = ThumbnailCropper.crop(wide, width: 120, height: 40, mode: .fill)
        #expect(fill.width == 120 && fill.height == 40)
        let tall = ThumbnailCropper.crop(wide, width: 30, height: 90, mode: .fill)
        #expect(tall.width == 30 && tall.height == 90)
        // Too small: enlarged.
        let small = ThumbnailCropper.crop(picture(width: 30, height: 20, busyColumns: 0..<0), width: 80, height: 10, mode: .smart)
        #expect(small.width == 80 && small.height == 10)
        // Smart slides a rectangle along the free axis: 300 × 100 just covers 150 × 100.
        for (busy, expected) in [(0..<60, 0), (240..<300, 150)] {
            let p = picture(width: 300, height: 100, busyColumns: busy)
            #expect(ThumbnailCropper.attentionWindow(p, width: 150, height: 100).x == expected, "busy columns \(busy)")
        }
        #expect(ThumbnailCropper.attentionWindow(picture(width: 100, height: 300, busyColumns: 0..<0), width: 100, height: 50) == (0, 125))
        // A just-covering picture is left alone.
        #expect(ThumbnailCropper.cover(wide, width: 100, height: 120) == wide)
    }
}

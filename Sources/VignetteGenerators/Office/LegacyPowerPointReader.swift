import VignetteCore

/// The slides of a PowerPoint 97–2003 presentation: the text atoms of each slide in the
/// `PowerPoint Document` stream, the title told by its text header.
///
/// Slide text is listed in the document's `SlideListWithText` (instance 0); files that keep it
/// only in the slides' shapes are read from the `Slide` containers instead.
enum LegacyPowerPointReader {
    /// One slide's title and other text.
    struct Slide {
        /// The title placeholder's text.
        var title: [String] = []
        /// The rest.
        var body: [String] = []
    }

    /// Deepest record nesting followed.
    static let maxDepth = 16
    /// Most slides read.
    static let maxSlides = 1000

    /// The slides found in `stream`, in order.
    static func slides(_ stream: [UInt8]) -> [Slide] {
        var listed: [Slide] = []
        walk(stream[...], depth: 0, inList: false, slideContainers: false, into: &listed)
        if listed.contains(where: { !$0.title.isEmpty || !$0.body.isEmpty }) { return listed }
        var shapes: [Slide] = []
        walk(stream[...], depth: 0, inList: false, slideContainers: true, into: &shapes)
        return shapes
    }

    /// Follows the records of `b`, containers recursively, adding slides and their text.
    private static func walk(_ b: ArraySlice<UInt8>, depth: Int, inList: Bool, slideContainers: Bool, into slides: inout [Slide]) {
        var p = b.startIndex
        var textType: UInt32 = 4
        while p + 8 <= b.endIndex, slides.count <= maxSlides {
            let header = b[p..<(p + 8)]
            let verInstance = CompoundFile.u16(header, 0)
            let type = CompoundFile.u16(header, 2)
            let length = Int(CompoundFile.u32(header, 4))
            let end = min(b.endIndex, p + 8 + length)
            let body = b[(p + 8)..<max(p + 8, end)]
            if verInstance & 0xF == 0xF, depth < maxDepth {
                // A container: a slide list of instance 0 lists the slides' text; a Slide holds one.
                let list = inList || (!slideContainers && type == 0x0FF0 && verInstance >> 4 == 0)
                if slideContainers && type == 0x03EE { slides.append(Slide()) }
                walk(body, depth: depth + 1, inList: list, slideContainers: slideContainers, into: &slides)
            } else if inList && type == 0x03F3 {
                slides.append(Slide())
            } else if type == 0x0F9F, body.count >= 4 {
                textType = CompoundFile.u32(body, 0)
            } else if (type == 0x0FA0 || type == 0x0FA8), inList || slideContainers, !slides.isEmpty {
                let text = type == 0x0FA0 ? utf16(body) : String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
                let lines = text.split(whereSeparator: { $0 == "\r" || $0 == "\u{0B}" }).map { OfficeDocument.flattened(String($0)) }
                    .filter { !$0.isEmpty }
                // Text types 0 and 6 are the title and the centred title.
                if textType == 0 || textType == 6 {
                    slides[slides.count - 1].title += lines
                } else {
                    slides[slides.count - 1].body += lines
                }
            }
            p = end
        }
    }

    /// The UTF-16LE text of `b`.
    private static func utf16(_ b: ArraySlice<UInt8>) -> String {
        String(decoding: (0..<(b.count / 2)).map { CompoundFile.u16(b, 2 * $0) }, as: UTF16.self)
    }
}

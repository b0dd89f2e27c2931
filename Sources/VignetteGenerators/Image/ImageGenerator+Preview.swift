import Foundation
public import VignetteCore
import VignetteImaging

extension ImageGenerator {
    /// Longest side of the picture shown in the HTML preview.
    static let previewSide = 512

    /// The picture (inline in the HTML, at most 512 pixels) and its facts: pixel size, format
    /// details, colour profile, camera, lens, exposure, date taken, GPS position, XMP title
    /// and description, a DICOM file's modality and study. A picture that cannot be drawn (a pixel bomb, damaged data) still gets
    /// its facts, with the reason.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        try preview(of: input, undrawable: nil)
    }

    /// The preview; `undrawable`, when set, is why the picture is not even tried.
    func preview(of input: GeneratorInput, undrawable: String?) throws -> TextPreview {
        let bytes = try input.contents(limit: imageLimits.maxFileBytes)
        let metadata = ImageMetadata(bytes)
        var picture: DecodedImage?
        var problem = undrawable
        if problem == nil {
            do {
                picture = try thumbnailer.thumbnail(
                    bytes: bytes, type: input.type, request: ThumbnailRequest(maxPixelSize: Self.previewSide))
            } catch let error as VignetteError {
                problem = error.reason
            }
        }
        let size: (Int, Int)? =
            picture.map { ($0.sourceWidth, $0.sourceHeight) }
            ?? ImageDimensions(Array(bytes.prefix(ImageDimensions.headerBytes))).map { ($0.width, $0.height) }
        let facts = ImageFacts(type: input.type.localizedDescription, size: size, metadata: metadata)
        var text = facts.rows.map { "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
        var html = ""
        if let picture {
            let bitmap = picture.bitmap
            let png = bitmap.hasTransparency
            let encoded = png ? try ImageEncoder.png(bitmap) : try ImageEncoder.jpeg(bitmap, quality: 85)
            html +=
                "<figure class=\"picture\"><img src=\"data:image/\(png ? "png" : "jpeg");base64,\(Data(encoded).base64EncodedString())\" "
                + "width=\"\(bitmap.width)\" height=\"\(bitmap.height)\" alt=\"\"></figure>\n"
        }
        if let problem {
            text += "Picture: not drawn (\(problem))\n"
            html += "<p class=\"note\">Picture not drawn: \(HTML.escape(problem))</p>\n"
        }
        html += "<dl class=\"facts\">"
        for (label, value) in facts.rows { html += "<dt>\(HTML.escape(label))</dt><dd>\(HTML.escape(value))</dd>" }
        html += "</dl>\n"
        return TextPreview(title: facts.title, text: text, html: html)
    }
}

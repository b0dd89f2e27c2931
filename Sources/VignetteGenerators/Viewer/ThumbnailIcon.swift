import Foundation
public import VignetteCore
import VignetteImaging

/// Icon mode for thumbnails: the extension badge and the page frame around a picture.
public enum ThumbnailIcon {
    /// The badge text: the file's extension in capitals (at most 4 characters), else the
    /// type's preferred one, `EMPTY` for an empty file, `?` when there is nothing to say.
    public static func badge(for input: GeneratorInput) -> String {
        var ext = ((input.filename ?? "") as NSString).pathExtension
        if ext.isEmpty { ext = input.type.preferredFilenameExtension ?? "" }
        if ext.isEmpty { return input.size == 0 ? "EMPTY" : "?" }
        return String(ext.uppercased().prefix(4))
    }

    /// `thumbnail` framed as an icon with the badge, when `request.iconMode` asks for it and
    /// it is not an icon already; otherwise unchanged.
    public static func apply(_ thumbnail: GeneratedThumbnail, input: GeneratorInput, catalog: TypeCatalog, request: ThumbnailRequest)
        -> GeneratedThumbnail
    {
        guard request.iconMode, !thumbnail.isIcon else { return thumbnail }
        let family = FileFamily(input.type, catalog: catalog)
        var result = thumbnail
        result.bitmap = IconDecorator.decorate(thumbnail.bitmap, badge: badge(for: input), color: family.color, size: request.targetPixels)
        result.isIcon = true
        return result
    }
}

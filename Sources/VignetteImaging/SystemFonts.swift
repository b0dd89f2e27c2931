import Foundation
import VignetteCore

/// The fonts Vignette draws its own text with: DejaVu Sans, Sans Mono and Sans Bold
/// (Debian package `fonts-dejavu-core`), found in the usual folders or in `VIGNETTE_FONT_DIR`;
/// characters they lack come from whatever fonts fontconfig finds (`fonts-droid-fallback` for
/// Chinese, Japanese and Korean in the container).
///
/// Faces are opened once and shared (a `FontFace` serialises its own calls).
public enum SystemFonts {
    /// A font Vignette uses.
    public enum Kind: String, Sendable, CaseIterable {
        /// DejaVu Sans, for prose and labels.
        case sans = "DejaVuSans.ttf"
        /// DejaVu Sans Mono, for code and structured text.
        case mono = "DejaVuSansMono.ttf"
        /// DejaVu Sans Bold, for badges.
        case bold = "DejaVuSans-Bold.ttf"
    }

    /// Folders searched, in order, after `VIGNETTE_FONT_DIR`.
    public static let searchFolders = [
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/dejavu",
        "/usr/share/fonts/TTF",
        "/usr/share/fonts/dejavu-sans-fonts",
        "/usr/share/fonts/dejavu-sans-mono-fonts",
        "/usr/local/share/fonts",
    ]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var faces: [Kind: FontFace] = [:]

    /// The folders searched for `kind`: `VIGNETTE_FONT_DIR` alone when set, else `searchFolders`.
    static func folders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let dir = environment["VIGNETTE_FONT_DIR"], !dir.isEmpty { return [dir] }
        return searchFolders
    }

    /// The path of `kind`'s file, or an error naming the package to install (`environment`: the process's by default).
    public static func path(of kind: Kind, environment: [String: String]? = nil) throws -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let folders = folders(environment: environment)
        for folder in folders {
            let candidate = folder + "/" + kind.rawValue
            if FileManager.default.isReadableFile(atPath: candidate) { return candidate }
        }
        let where_ = environment["VIGNETTE_FONT_DIR"].map { "in VIGNETTE_FONT_DIR (\($0))" } ?? "in \(folders[0]) or the other font folders"
        throw VignetteError(
            .notFound, "font \(kind.rawValue) not found \(where_): install the fonts-dejavu-core package or set VIGNETTE_FONT_DIR")
    }

    /// The shared face for `kind` (opened with hinting: these fonts are trusted), drawing the
    /// characters DejaVu lacks in the system's other fonts (`FontFallback.system`).
    public static func face(_ kind: Kind) throws -> FontFace {
        lock.lock()
        defer { lock.unlock() }
        if let face = faces[kind] { return face }
        let face = try FontFace(path: try path(of: kind), hinting: true, fallback: .system)
        faces[kind] = face
        return face
    }
}

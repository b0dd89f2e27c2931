/// The program's version: `--version`, thumbnails' `Software` key, fail-entry folders and service cache keys.
public enum VignetteVersion {
    /// The release number, `MAJOR.MINOR.PATCH`.
    public static let string = "0.1.0"
}

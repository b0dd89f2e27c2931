import Foundation
public import VignetteCore

/// What happened to one file in a batch.
public struct BatchOutcome: Sendable {
    /// The kinds of result, with their names in JSON and the summary.
    public enum Result: String, Sendable {
        /// A thumbnail of the content was written.
        case generated
        /// A valid thumbnail was already there.
        case upToDate = "up-to-date"
        /// No generator pictures this type: the generic icon was drawn (or, in the cache, noted).
        case icon
        /// Nothing usable was made; the reason is in `error`.
        case failed
        /// A recorded failure for the unchanged file: skipped (see --retry-failed).
        case knownFailure = "known-failure"
        /// --dry-run: would be generated.
        case wouldGenerate = "would-generate"
    }

    /// The file as the user names it.
    public let path: String
    /// The result.
    public let result: Result
    /// The generator that answered, if one ran.
    public var generator: String? = nil
    /// Where the thumbnail is (written now or earlier), if there is one.
    public var thumbnail: String? = nil
    /// The error or problem, for failures and icons drawn after a generator failed.
    public var error: String? = nil
    /// The category of `error`, when known (the D-Bus thumbnailer maps it to the spec's error codes).
    public var errorCode: VignetteError.Code? = nil
    /// Time spent on the file.
    public var seconds: Double = 0

    /// An outcome for `path`.
    public init(path: String, result: Result, generator: String? = nil, thumbnail: String? = nil, error: String? = nil) {
        self.path = path
        self.result = result
        self.generator = generator
        self.thumbnail = thumbnail
        self.error = error
    }

    /// The JSON object of the outcome (`--json-lines` events and `--report` entries).
    public var jsonObject: [String: Any] {
        var o: [String: Any] = ["path": path, "result": result.rawValue, "milliseconds": (seconds * 10000).rounded() / 10]
        if let generator { o["generator"] = generator }
        if let thumbnail { o["thumbnail"] = thumbnail }
        if let error { o["error"] = error }
        return o
    }
}

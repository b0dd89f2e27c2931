import VignetteGenerators

extension PipelinePlan {
    /// The plan of `operations` for a request with this `Accept` header: its box capped at the
    /// service's largest side, and `type: auto` answered with AVIF or WebP when the client lists them.
    init(operations text: String, accept: String?) throws {
        try self.init(operations: text, maxSide: ThumbnailOptions.maxOutputSize)
        let listed = ThumbnailOptions.acceptedTypes(accept ?? "")
        accepted = listed.contains("image/avif") ? .avif : listed.contains("image/webp") ? .webp : nil
    }
}

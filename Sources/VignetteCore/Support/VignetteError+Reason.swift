extension VignetteError {
    /// The same error with `prefix` and a colon before its reason ("cannot list the directory: permission denied").
    public func withReason(_ prefix: String) -> VignetteError {
        VignetteError(code, path: path, "\(prefix): \(reason)")
    }
}

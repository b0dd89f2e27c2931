import VignetteCore

extension GeneratorInput {
    /// The input as a random-access byte source: the file read in bounded chunks on demand, or
    /// the upload's bytes (already in memory).
    func randomAccess() throws -> FileSample {
        if let path { return try FileSample(path: path, headSize: 0) }
        return FileSample(bytes: try contents(limit: .max), filename: filename, headSize: 0)
    }
}

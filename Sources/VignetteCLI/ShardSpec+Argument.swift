public import ArgumentParser
public import VignetteBatch

/// `--shard I/N` on the command line.
extension ShardSpec: ExpressibleByArgument {}

extension ShardSpec {
    /// A transform for `@Option(transform:)` that says what a shard looks like:
    /// "--shard must be I/N with 0 <= I < N, like 3/8, not 3/2".
    static func argument(_ text: String) throws -> ShardSpec {
        guard let spec = ShardSpec(argument: text) else {
            throw ValidationError("--shard must be I/N with 0 <= I < N, like 3/8, not \(text)")
        }
        return spec
    }
}

public import ArgumentParser
public import VignetteBatch

/// `--shard I/N` on the command line.
extension ShardSpec: ExpressibleByArgument {}

import VignetteCore

/// The bytes of a file or upload in order, decompressed on the way when a format is given.
///
/// Reads the source in 64 KiB chunks (never the whole file) and decodes into a 64 KiB buffer,
/// so memory stays small whatever the archive's size. Work is bounded: past `budget` decoded
/// bytes or after `deadline`, reads throw `.limitExceeded` (callers report a partial result).
/// Without a decompressor, skipping seeks instead of reading.
final class ByteStream {
    /// Bytes read from the source per chunk.
    static let chunkSize = 64 << 10

    private let source: FileSample
    private let decompressor: Decompressor?
    private let budget: Int
    private let deadline: ContinuousClock.Instant?
    private var sourceOffset: Int
    private let sourceEnd: Int
    private var pending: ArraySlice<UInt8> = []
    private var buffer: ArraySlice<UInt8> = []
    private var finished = false
    /// Decoded bytes produced (or skipped by seeking) so far.
    private(set) var position = 0
    /// Decoded bytes produced by the decompressor or read from the source so far (the budgeted work).
    private(set) var workDone = 0

    /// A stream over `source` (or the bytes of it in `range`: an archive member), decoded by
    /// `decompressor` when given, doing at most `budget` bytes of work.
    init(
        source: FileSample, range: Range<Int>? = nil, decompressor: Decompressor?, budget: Int = .max,
        deadline: ContinuousClock.Instant? = nil
    ) {
        self.source = source
        let whole = 0..<source.size
        let range = range?.clamped(to: whole) ?? whole
        self.sourceOffset = range.lowerBound
        self.sourceEnd = range.upperBound
        self.decompressor = decompressor
        self.budget = budget
        self.deadline = deadline
    }

    /// Bytes of the source consumed so far (from the start of the file, not of the range).
    var sourceBytesRead: Int { sourceOffset - pending.count }

    /// Up to `count` bytes; fewer only at the end of the stream.
    func read(_ count: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(count, 1 << 20))
        while out.count < count {
            if buffer.isEmpty, try !fill() { break }
            let n = min(count - out.count, buffer.count)
            out += buffer.prefix(n)
            buffer = buffer.dropFirst(n)
            position += n
        }
        return out
    }

    /// Skips up to `count` bytes; returns how many were skipped (fewer only at the end).
    func skip(_ count: Int) throws -> Int {
        var skipped = 0
        while skipped < count {
            if buffer.isEmpty {
                if decompressor == nil {
                    // Uncompressed: seek over the rest without reading it.
                    let n = min(count - skipped, sourceEnd - sourceOffset)
                    sourceOffset += n
                    position += n
                    return skipped + n
                }
                if try !fill() { break }
            }
            let n = min(count - skipped, buffer.count)
            buffer = buffer.dropFirst(n)
            skipped += n
            position += n
        }
        return skipped
    }

    /// Refills `buffer`; false at the end of the stream.
    private func fill() throws -> Bool {
        if workDone >= budget {
            throw VignetteError(.limitExceeded, "stopped after \(ByteCount.text(workDone)) of data")
        }
        if let deadline, ContinuousClock.now > deadline {
            throw VignetteError(.limitExceeded, "stopped after the time limit")
        }
        guard let decompressor else {
            let n = min(ByteStream.chunkSize, sourceEnd - sourceOffset)
            guard n > 0, let chunk = source.bytes(at: sourceOffset, count: n) else { return false }
            sourceOffset += n
            workDone += n
            buffer = chunk
            return true
        }
        var output = [UInt8](repeating: 0, count: ByteStream.chunkSize)
        while !finished {
            if pending.isEmpty { pending = nextChunk() }
            let last = sourceOffset >= sourceEnd
            let step = try pending.withUnsafeBytes { input in
                try output.withUnsafeMutableBytes { try decompressor.feed(input, finish: last, into: $0) }
            }
            pending = pending.dropFirst(step.consumed)
            if step.ended { finished = true }
            if step.produced > 0 {
                workDone += step.produced
                buffer = output.prefix(step.produced)
                return true
            }
            if step.consumed == 0, !step.ended {
                // The decoder needs more input than is pending (a header split across chunks).
                guard !last else {
                    throw VignetteError(.corrupt, "unexpected end of \(decompressor.kind.name) data")
                }
                pending = ArraySlice(Array(pending) + nextChunk())
            }
        }
        return false
    }

    private func nextChunk() -> ArraySlice<UInt8> {
        let n = min(ByteStream.chunkSize, sourceEnd - sourceOffset)
        guard n > 0, let chunk = source.bytes(at: sourceOffset, count: n) else {
            // A read error or a file that shrank: treat as the end, so the decoder reports truncation.
            sourceOffset = sourceEnd
            return []
        }
        sourceOffset += n
        return chunk
    }
}

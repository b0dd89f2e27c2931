/// Caps applied before any pixel memory is allocated.
public struct ImageLimits: Sendable, Equatable {
    /// Most pixels (width × height from the header) an image may have; 100 MP by default.
    public var maxPixels: Int
    /// Largest input file in bytes; 512 MiB by default.
    public var maxFileBytes: Int
    /// Decode memory shared with every other image made at once; none (unlimited) by default.
    public var memoryBudget: MemoryBudget?

    /// Creates limits.
    public init(maxPixels: Int = 100_000_000, maxFileBytes: Int = 512 << 20, memoryBudget: MemoryBudget? = nil) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.memoryBudget = memoryBudget
    }

    /// The default limits.
    public static let standard = ImageLimits()

    /// Runs `body` holding `bytes` of the memory budget, if there is one.
    func holding<T>(_ bytes: Int, for what: String, _ body: () throws -> T) throws -> T {
        guard let memoryBudget else { return try body() }
        return try memoryBudget.holding(bytes, for: what, body)
    }

    /// Equal caps, and the very same memory budget.
    public static func == (a: ImageLimits, b: ImageLimits) -> Bool {
        a.maxPixels == b.maxPixels && a.maxFileBytes == b.maxFileBytes && a.memoryBudget === b.memoryBudget
    }
}

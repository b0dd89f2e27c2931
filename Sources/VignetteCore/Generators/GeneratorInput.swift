import Foundation

/// The file a generator works on: its resolved type, size, name, and its bytes on demand.
public final class GeneratorInput: @unchecked Sendable {
    /// The path on disk, when the input is a file (nil for uploaded bytes).
    public let path: String?
    /// The file's name, as given (used by generators to name things).
    public let filename: String?
    /// The path to show people: `path` unless the caller gave another (the service shows
    /// paths relative to its root, never where the root is).
    public let displayPath: String?
    /// The resolved content type and how it was decided.
    public let resolution: TypeResolution
    /// Size in bytes.
    public let size: Int
    /// Modification time and permissions, when the input is a file.
    public let status: FileStatus?
    /// The opened file this input reads through, when it was made from one: `path` then names
    /// a descriptor of this process and must not be given to another program.
    public let opened: OpenedFile?
    private let memory: [UInt8]?
    private let lock = NSLock()
    private var cache: [UInt8]?

    /// An input over a file on disk (its type resolved here); errors name `path`.
    public convenience init(path: String, displayPath: String? = nil, resolver: TypeResolver) throws {
        try self.init(path: path, filename: nil, displayPath: displayPath ?? path, opened: nil, resolver: resolver)
    }

    /// An input over a file already opened (the service's): every read goes through its
    /// descriptor, and messages show `displayPath`; nil means an upload kept in a temporary
    /// file (no path to show, and its date and permissions are not the sender's).
    public convenience init(opened: OpenedFile, displayPath: String?, resolver: TypeResolver) throws {
        try self.init(path: opened.path, filename: opened.name, displayPath: displayPath, opened: opened, resolver: resolver)
    }

    private init(path: String, filename: String?, displayPath: String?, opened: OpenedFile?, resolver: TypeResolver) throws {
        let sample: FileSample
        do {
            sample = try FileSample(path: path, filename: filename)
        } catch let error as VignetteError where opened != nil {
            throw error.about(displayPath ?? filename ?? "(upload)")
        }
        self.path = path
        self.displayPath = displayPath
        self.filename = sample.filename
        self.resolution = resolver.resolve(sample)
        self.size = sample.size
        self.status = opened != nil && displayPath == nil ? nil : sample.status
        self.opened = opened
        self.memory = nil
    }

    /// An input over bytes in memory (an upload), with the name the sender gave.
    public init(bytes: [UInt8], filename: String?, resolver: TypeResolver) {
        self.path = nil
        self.displayPath = nil
        self.filename = filename
        self.resolution = resolver.resolve(bytes: bytes, filename: filename)
        self.size = bytes.count
        self.status = nil
        self.opened = nil
        self.memory = bytes
    }

    /// The content type.
    public var type: UniformType { resolution.type }

    /// The whole content, read once and shared; refused when over `limit` bytes.
    public func contents(limit: Int) throws -> [UInt8] {
        if let memory {
            guard memory.count <= limit else {
                throw VignetteError(
                    .limitExceeded, path: filename, "file is \(ByteCount.text(memory.count)), over the limit of \(ByteCount.text(limit))")
            }
            return memory
        }
        lock.lock()
        defer { lock.unlock() }
        if let cache { return cache }
        let bytes = try named { try FileSample.readContents(ofFile: path!, limit: limit) }
        cache = bytes
        return bytes
    }

    /// Runs `read` with a read-only descriptor of the file and its size, for a decoder that reads
    /// only what it needs instead of the whole content; nil for bytes in memory (an upload).
    ///
    /// The descriptor is the opened file's, else `path` opened for the call (closed after it); a
    /// file over `limit` bytes is refused as `contents(limit:)` refuses it.
    public func withDescriptor<T>(limit: Int, _ read: (_ descriptor: Int32, _ size: Int) throws -> T) throws -> T? {
        guard memory == nil, let path else { return nil }
        let fd = try named { try opened?.descriptor ?? FileSample.openRegularFile(path) }
        defer { if opened == nil { close(fd) } }
        var st = stat()
        let size = try named { () throws -> Int in
            guard fstat(fd, &st) == 0 else { throw VignetteError.fromErrno(errno, path: path) }
            guard Int(st.st_size) <= limit else {
                throw VignetteError(
                    .limitExceeded, path: path,
                    "file is \(ByteCount.text(Int(st.st_size))), over the limit of \(ByteCount.text(limit))")
            }
            return Int(st.st_size)
        }
        return try read(fd, size)
    }

    /// At most the first `count` bytes, without reading the rest of a large file.
    public func prefix(_ count: Int) throws -> [UInt8] {
        if let memory { return Array(memory.prefix(count)) }
        lock.lock()
        let cached = cache
        lock.unlock()
        if let cached { return Array(cached.prefix(count)) }
        return try named { try FileSample.readPrefix(ofFile: path!, count: count) }
    }

    /// Runs `read`, its errors naming the display path rather than a descriptor's.
    private func named<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as VignetteError where opened != nil {
            throw error.about(displayName)
        }
    }

    /// The name used in messages: the display path, else the given file name, else "(upload)".
    public var displayName: String { displayPath ?? filename ?? "(upload)" }
}

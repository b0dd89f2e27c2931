public import VignetteCore

/// What an external generator is: the command it runs, for which types, under which limits.
///
/// Comes from a Vignette manifest (`Generators/*.json`) or a freedesktop `.thumbnailer` file;
/// `ExternalThumbnailGenerator` and `ExternalPreviewGenerator` run it.
public struct ExternalGeneratorSpec: Sendable, Equatable {
    /// What the command produces.
    public enum Kind: String, Sendable, CaseIterable {
        /// A PNG or JPEG image (written to `%o`).
        case thumbnail
        /// Plain text (on stdout, or in `%o` when the command names it).
        case text
        /// An HTML fragment (on stdout, or in `%o`).
        case html
    }

    /// The generator's unique name (a manifest's `identifier`, else its file name).
    public var identifier: String
    /// What the command produces.
    public var kind: Kind
    /// Content types handled (identifiers; MIME types already mapped).
    public var types: [String]
    /// The command line; relative `./` and `../` arguments are already resolved against the manifest's folder.
    public var exec: ExecTemplate
    /// A program that must exist for the generator to load (name in PATH or path); nil: the command's program.
    public var tryExec: String?
    /// Preference among generators for equally specific types.
    public var priority: GeneratorPriority
    /// Longest a run may take, in seconds.
    public var timeoutSeconds: Double
    /// Largest input file in bytes; nil for no cap beyond the default.
    public var maxFileBytes: Int?
    /// Most heap memory a run may use, in bytes (the command's RLIMIT_DATA).
    public var maxMemoryBytes: Int
    /// The file the generator was declared in.
    public var origin: String
    /// Most CPU seconds a run may use (RLIMIT_CPU); nil: twice the timeout.
    public var maxCPUSeconds: Int?
    /// Largest file a run may write, in bytes (RLIMIT_FSIZE).
    public var maxWriteBytes: Int = ExternalGeneratorSpec.defaultMaxWriteBytes
    /// Most processes a run may start beyond those its user already has (RLIMIT_NPROC; not enforced for root).
    public var maxProcesses: Int = ExternalGeneratorSpec.defaultMaxProcesses
    /// Environment variables passed through from Vignette's environment, by name.
    public var environment: [String] = []
    /// Whether the command runs in the bubblewrap sandbox when `bwrap` is installed.
    public var sandbox = true

    /// Creates a spec.
    public init(
        identifier: String, kind: Kind, types: [String], exec: ExecTemplate, tryExec: String? = nil,
        priority: GeneratorPriority = .standard, timeoutSeconds: Double = ExternalGeneratorSpec.defaultTimeout,
        maxFileBytes: Int? = nil, maxMemoryBytes: Int = ExternalGeneratorSpec.defaultMaxMemoryBytes, origin: String
    ) {
        self.identifier = identifier
        self.kind = kind
        self.types = types
        self.exec = exec
        self.tryExec = tryExec
        self.priority = priority
        self.timeoutSeconds = timeoutSeconds
        self.maxFileBytes = maxFileBytes
        self.maxMemoryBytes = maxMemoryBytes
        self.origin = origin
    }

    /// Thirty seconds: generous for a thumbnailer, short enough that a hung one is noticed.
    public static let defaultTimeout = 30.0
    /// Ten minutes: the most a manifest may ask for.
    public static let maxTimeout = 600.0
    /// The file-size cap when a manifest sets none (the input is copied for uploads).
    public static let defaultMaxFileBytes = 512 << 20
    /// The memory cap when a manifest sets none: 2 GiB, five times what a 100 MP RGBA image
    /// needs, far below what a pixel bomb would take (gdk-pixbuf asked for 12 GB on one).
    public static let defaultMaxMemoryBytes = 2 << 30
    /// The smallest memory cap a manifest may set (below it even an interpreter cannot start).
    public static let minMaxMemoryBytes = 16 << 20

    /// 256 MiB: far more than any thumbnail or preview, far less than a full disk.
    public static let defaultMaxWriteBytes = 256 << 20
    /// 256 processes: plenty for a pipeline of tools, a wall for a fork bomb.
    public static let defaultMaxProcesses = 256

    /// The CPU seconds a run may use: `maxCPUSeconds`, else twice the timeout (two cores busy all along).
    public var cpuSeconds: Int { maxCPUSeconds ?? Int((timeoutSeconds * 2).rounded(.up)) }

    /// The limits the registry applies before trying the generator.
    public var limits: GeneratorLimits {
        GeneratorLimits(maxFileBytes: maxFileBytes, timeoutSeconds: timeoutSeconds)
    }
}

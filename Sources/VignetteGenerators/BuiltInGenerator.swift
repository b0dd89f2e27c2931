public import VignetteCore

/// A generator compiled into Vignette: origin `built-in`, standard priority and no caps,
/// unless the generator says otherwise.
public protocol BuiltInGenerator: Generator {}

extension BuiltInGenerator {
    /// Compiled into Vignette.
    public var origin: String { "built-in" }
    /// The ordinary built-in generator for its types.
    public var priority: GeneratorPriority { .standard }
    /// None: the generator bounds what it reads itself.
    public var limits: GeneratorLimits { .none }
}

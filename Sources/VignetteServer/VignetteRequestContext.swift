public import Hummingbird
public import NIOCore

/// The per-request context: Hummingbird's core storage plus the connection's channel.
///
/// The channel lets a refused upload (413) close the connection's input instead of the
/// server draining a body it will never use.
public struct VignetteRequestContext: RequestContext {
    /// Hummingbird's storage (logger, route, parameters).
    public var coreContext: CoreRequestContextStorage
    /// The connection.
    public let channel: any Channel

    /// Creates the context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

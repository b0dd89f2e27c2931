import Foundation
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Closes the connections a slow or absent client would hold forever: a request head not
/// complete within `headerTimeout` (slowloris, an idle socket), a body arriving slower than
/// `minimumBodyRate` once `bodyTimeout` has passed (a trickled upload), and any connection past
/// `maxConnections`. One handler per connection, sharing one `ConnectionCount`.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The limits (all from `ServerConfiguration`).
    struct Limits: Sendable {
        var headerTimeout: TimeAmount
        var bodyTimeout: TimeAmount
        var minimumBodyRate: Int
        var maxConnections: Int
    }

    private let limits: Limits
    private let count: ConnectionCount
    private var counted = false
    private var timer: Scheduled<Void>?
    private var bodyStart: NIODeadline?
    private var bodyBytes = 0
    private var reading = false

    init(limits: Limits, count: ConnectionCount) {
        self.limits = limits
        self.count = count
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        if counted { count.leave() }
        counted = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            reading = true
            bodyStart = .now()
            bodyBytes = 0
            arm(context, after: limits.bodyTimeout, then: .checkBody)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            reading = false
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // After a response, the next request's head must come in time like the first one's.
        if case .end = unwrapOutboundIn(data), !reading {
            arm(context, after: limits.headerTimeout, then: .close)
        }
        context.write(data, promise: promise)
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        if count.enter() > limits.maxConnections {
            context.close(promise: nil)
            return
        }
        arm(context, after: limits.headerTimeout, then: .close)
    }

    /// What a timer does when it fires.
    private enum Due {
        case close, checkBody
    }

    private func checkBody(_ context: ChannelHandlerContext) {
        guard reading, let start = bodyStart else { return }
        let seconds = Double((NIODeadline.now() - start).nanoseconds) / 1e9
        if Double(bodyBytes) < Double(limits.minimumBodyRate) * seconds {
            context.close(promise: nil)
        } else {
            arm(context, after: limits.bodyTimeout, then: .checkBody)
        }
    }

    private func arm(_ context: ChannelHandlerContext, after delay: TimeAmount, then due: Due) {
        timer?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = bound.value
            handler.timer = nil
            switch due {
            case .close: context.close(promise: nil)
            case .checkBody: handler.checkBody(context)
            }
        }
    }
}

/// Connections open now, across the server.
final class ConnectionCount: Sendable {
    private let value = Atomic<Int>(0)

    /// Counts one more; returns the new count.
    func enter() -> Int { value.add(1, ordering: .relaxed).newValue }

    /// Counts one less.
    func leave() { value.subtract(1, ordering: .relaxed) }
}

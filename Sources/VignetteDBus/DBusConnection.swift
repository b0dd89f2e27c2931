import CVignetteDBus
import Foundation
import VignetteCore

/// A connection to a D-Bus bus through the libdbus shim: owns names, receives method calls,
/// sends replies and signals.
///
/// One thread calls `nextCall`; any thread may `emitSignal` or `wake` (libdbus is initialised
/// for threads by the shim).
public final class DBusConnection: @unchecked Sendable {
    private let handle: OpaquePointer

    /// Connects to the bus at `address`, or the session bus (`DBUS_SESSION_BUS_ADDRESS`) when nil.
    ///
    /// - Throws: a `VignetteError` (`io`) naming what failed.
    public init(address: String? = nil) throws {
        var message = [CChar](repeating: 0, count: 512)
        guard let bus = vgn_dbus_open(address, &message, message.count) else {
            var reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // libdbus then tries X11 autolaunch and says only that it needs a $DISPLAY.
            if address == nil, (ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty {
                reason += " ($DBUS_SESSION_BUS_ADDRESS is not set: no desktop session here)"
            }
            throw VignetteError(.io, reason)
        }
        handle = bus
    }

    deinit { vgn_dbus_close(handle) }

    /// Asks for the well-known `name`; false when another connection owns it.
    ///
    /// - Throws: a `VignetteError` when the bus refuses.
    public func requestName(_ name: String) throws -> Bool {
        var message = [CChar](repeating: 0, count: 512)
        let result = vgn_dbus_request_name(handle, name, &message, message.count)
        if result < 0 {
            throw VignetteError(.io, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return result == 1
    }

    /// Gives up the well-known `name`.
    public func releaseName(_ name: String) { vgn_dbus_release_name(handle, name) }

    /// What `nextCall` found.
    public enum Next {
        /// A method call to answer.
        case call(DBusMethodCall)
        /// The time passed, or `wake()` was called.
        case timeout
        /// The bus went away.
        case disconnected
    }

    /// Waits at most `timeout` seconds (nil: for ever) for a method call, writing queued messages meanwhile.
    public func nextCall(timeout: Double?) -> Next {
        var call: OpaquePointer?
        let milliseconds = timeout.map { Int32(max(0, min(Double(Int32.max), ($0 * 1000).rounded(.up)))) } ?? -1
        switch vgn_dbus_next_call(handle, milliseconds, &call) {
        case 1:
            guard let call else { return .timeout }
            return .call(DBusMethodCall(call, connection: self))
        case 0: return .timeout
        default: return .disconnected
        }
    }

    /// Makes a waiting `nextCall` return soon (any thread).
    public func wake() { vgn_dbus_wake(handle) }

    /// Broadcasts the signal `member` of `interface` from `path` with `arguments`; false when it could not be queued.
    @discardableResult
    public func emitSignal(path: String, interface: String, member: String, _ arguments: [DBusValue]) -> Bool {
        guard let message = vgn_dbus_signal_new(path, interface, member) else { return false }
        return send(message, arguments)
    }

    /// Appends `arguments` to `message` and sends it (the message is freed either way).
    func send(_ message: OpaquePointer, _ arguments: [DBusValue]) -> Bool {
        for argument in arguments where !argument.append(to: message) {
            vgn_dbus_msg_free(message)
            return false
        }
        return vgn_dbus_send(handle, message) == 1
    }

    /// Answers `call` with the D-Bus error `name`.
    func replyError(_ call: OpaquePointer, name: String, message: String) {
        _ = vgn_dbus_reply_error(handle, call, name, message)
    }
}

/// One argument of an outgoing message.
public enum DBusValue: Sendable {
    /// `u`
    case uint32(UInt32)
    /// `i`
    case int32(Int32)
    /// `s`
    case string(String)
    /// `as`
    case strings([String])

    /// Appends the value to `message`; false when out of memory or a string is not valid UTF-8.
    func append(to message: OpaquePointer) -> Bool {
        switch self {
        case .uint32(let value): return vgn_dbus_msg_append_uint32(message, value) == 1
        case .int32(let value): return vgn_dbus_msg_append_int32(message, value) == 1
        case .string(let value): return vgn_dbus_msg_append_string(message, value) == 1
        case .strings(let values):
            let copies = values.map { strdup($0) }
            defer { for copy in copies { free(copy) } }
            let pointers = copies.map { $0.map { UnsafePointer($0) } }
            return vgn_dbus_msg_append_strings(message, pointers, pointers.count) == 1
        }
    }
}

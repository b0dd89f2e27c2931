import CVignetteDBus
import Foundation

/// A method call received on the bus: its address, its arguments read in order, and its answer.
public final class DBusMethodCall: @unchecked Sendable {
    private let handle: OpaquePointer
    private let connection: DBusConnection
    private var answered = false

    init(_ handle: OpaquePointer, connection: DBusConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        // Every call gets an answer: a caller waiting for a reply would otherwise time out.
        if !answered { replyError(DBusMethodCall.failed, "the call was not answered") }
        vgn_dbus_call_free(handle)
    }

    /// The interface named (empty when the caller named none).
    public var interface: String { String(cString: vgn_dbus_call_interface(handle)) }
    /// The method.
    public var member: String { String(cString: vgn_dbus_call_member(handle)) }
    /// The object path.
    public var path: String { String(cString: vgn_dbus_call_path(handle)) }
    /// The caller's unique name.
    public var sender: String { String(cString: vgn_dbus_call_sender(handle)) }
    /// The arguments' type signature (`asasssu`).
    public var signature: String { String(cString: vgn_dbus_call_signature(handle)) }

    /// The next argument as a string array, or nil when it is not one.
    public func readStrings() -> [String]? {
        var items: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        var count = 0
        guard vgn_dbus_call_read_strings(handle, &items, &count) == 1, let items else { return nil }
        defer { free(items) }
        return (0..<count).map { items[$0].map { String(cString: $0) } ?? "" }
    }

    /// The next argument as a string, or nil when it is not one.
    public func readString() -> String? {
        var value: UnsafePointer<CChar>?
        guard vgn_dbus_call_read_string(handle, &value) == 1, let value else { return nil }
        return String(cString: value)
    }

    /// The next argument as a `u`, or nil when it is not one.
    public func readUInt32() -> UInt32? {
        var value: UInt32 = 0
        return vgn_dbus_call_read_uint32(handle, &value) == 1 ? value : nil
    }

    /// Answers with `values`.
    public func reply(_ values: [DBusValue] = []) {
        guard !answered else { return }
        answered = true
        guard let message = vgn_dbus_reply_new(handle) else { return }
        if !connection.send(message, values) {
            answered = false
            replyError(Self.failed, "the reply could not be built (a string is not UTF-8)")
        }
    }

    /// Answers with the D-Bus error `name` and `message`.
    public func replyError(_ name: String, _ message: String) {
        answered = true
        connection.replyError(handle, name: name, message: message)
    }

    /// `org.freedesktop.DBus.Error.Failed`
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    /// `org.freedesktop.DBus.Error.InvalidArgs`
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// `org.freedesktop.DBus.Error.UnknownMethod`
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
}

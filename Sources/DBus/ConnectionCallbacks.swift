internal import CDBus

/// The C functions libdbus calls on a connection's watches, timeouts and
/// incoming messages. They capture nothing: the connection travels as user
/// data, unretained (the connection removes them before it goes).
enum ConnectionCallbacks {
    private static func connection(_ data: UnsafeMutableRawPointer?) -> Connection? {
        data.map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() }
    }

    static let watchAdded: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> dbus_bool_t = { watch, data in
        guard let watch, let connection = connection(data) else { return 0 }
        connection.addWatch(watch)
        return 1
    }
    static let watchRemoved: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { watch, data in
        guard let watch else { return }
        connection(data)?.removeWatch(watch)
    }
    static let watchToggled: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { watch, data in
        guard let watch else { return }
        connection(data)?.toggleWatch(watch)
    }
    static let timeoutAdded: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> dbus_bool_t = { timeout, data in
        guard let timeout, let connection = connection(data) else { return 0 }
        connection.addTimeout(timeout)
        return 1
    }
    static let timeoutRemoved: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { timeout, data in
        guard let timeout else { return }
        connection(data)?.removeTimeout(timeout)
    }
    static let timeoutToggled: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { timeout, data in
        guard let timeout else { return }
        connection(data)?.toggleTimeout(timeout)
    }
    static let filterMessage: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> DBusHandlerResult = {
        _, message, data in
        guard let message, let connection = connection(data) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        return connection.filter(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

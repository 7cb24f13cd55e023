import CShim

/// Who listens on a Unix socket: how undod tells the process serving the
/// Wayland display (the compositor) from a process that merely took the
/// compositor's bus name.
package enum UnixListener {
    /// The process id of the process listening at `path`, asked without
    /// blocking (a connection made and closed at once); nil where nobody
    /// listens there.
    package static func processID(at path: String) -> UInt32? {
        let pid = cshim_unix_listener_pid(path)
        return pid > 0 ? UInt32(pid) : nil
    }
}

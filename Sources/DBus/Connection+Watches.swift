internal import CDBus
import Loop
#if canImport(Glibc)
internal import Glibc
#endif

/// libdbus's watches and timeouts, run by the connection's loop.
extension Connection {
    func addWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        let flags = dbus_watch_get_flags(watch)
        var events: EventLoop.FDEvents = []
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { events.insert(.readable) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events.insert(.writable) }
        let token = loop.watch(fd: fd, events: events, enabled: dbus_watch_get_enabled(watch) != 0) {
            [unowned self] ready in
            guard !self.closed else { return }
            var handled: UInt32 = 0
            if ready.contains(.readable) { handled |= DBUS_WATCH_READABLE.rawValue }
            if ready.contains(.writable) { handled |= DBUS_WATCH_WRITABLE.rawValue }
            if ready.contains(.error) { handled |= DBUS_WATCH_ERROR.rawValue }
            if ready.contains(.hangUp) { handled |= DBUS_WATCH_HANGUP.rawValue }
            let reading = handled & DBUS_WATCH_READABLE.rawValue != 0
            if reading { self.readThisTurn = true }
            _ = dbus_watch_handle(watch, handled)
            // Stamped once all reading below is done: the quiet starts then.
            defer { if reading { self.lastReadAt = SystemTime.monotonicNanoseconds } }
            // libdbus reads about 4 KiB per call: while more waits on the
            // socket, read on (up to 8 MiB: reading ahead is how a small call behind
            // large ones is found, see `IncomingLanes`) rather than poll again for it.
            guard handled == DBUS_WATCH_READABLE.rawValue else { return }
            for _ in 0..<2048 {
                // Handling may have removed (and freed) the watch, or disabled it.
                guard !self.closed, self.watchTokens[watch] != nil, dbus_watch_get_enabled(watch) != 0 else { break }
                var waiting: Int32 = 0
                guard ioctl(fd, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { break }
                _ = dbus_watch_handle(watch, handled)
            }
        }
        watchTokens[watch] = token
    }

    func removeWatch(_ watch: OpaquePointer) {
        if let token = watchTokens.removeValue(forKey: watch) { loop.remove(token) }
    }

    func toggleWatch(_ watch: OpaquePointer) {
        if let token = watchTokens[watch] { loop.setEnabled(token, dbus_watch_get_enabled(watch) != 0) }
    }

    func addTimeout(_ timeout: OpaquePointer) {
        knownTimeouts.insert(timeout)
        armTimeout(timeout)
    }

    func removeTimeout(_ timeout: OpaquePointer) {
        knownTimeouts.remove(timeout)
        if let token = timeoutTokens.removeValue(forKey: timeout) { loop.remove(token) }
    }

    func toggleTimeout(_ timeout: OpaquePointer) {
        if let token = timeoutTokens.removeValue(forKey: timeout) { loop.remove(token) }
        armTimeout(timeout)
    }

    /// Schedules `timeout` if it is enabled; libdbus timeouts repeat until
    /// removed or disabled.
    private func armTimeout(_ timeout: OpaquePointer) {
        guard knownTimeouts.contains(timeout), dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = Int(dbus_timeout_get_interval(timeout))
        timeoutTokens[timeout] = loop.schedule(afterMilliseconds: interval) { [unowned self] in
            self.timeoutTokens[timeout] = nil
            guard !self.closed, self.knownTimeouts.contains(timeout) else { return }
            _ = dbus_timeout_handle(timeout)
            // Handling may have removed or re-armed it already.
            if self.timeoutTokens[timeout] == nil { self.armTimeout(timeout) }
        }
    }
}

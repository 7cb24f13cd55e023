public import Foundation
public import Loop

/// What reaches the notification server, seen on the test's bus by a
/// monitor (`busctl monitor`, the bus's own eavesdropping): each `Notify`
/// call, with its summary, the notification it replaces and the id the
/// server answered with, and undod's manager's `PropertiesChanged` — so a
/// test can tell that a notification that would have come before a change
/// of a property did not (undod's messages arrive in the order it sent them).
public final class NotificationMonitor {
    /// A notification asked for: its summary, the id of the one it
    /// replaces (0: none), and the id the server showed it under (nil:
    /// not answered yet, or refused).
    public struct Notification: Equatable {
        /// Its summary, as the server shows it.
        public let summary: String
        /// The id of the notification it replaces (0: none).
        public let replaces: UInt32
        /// The id the server showed it under; nil while unanswered, or refused.
        public let id: UInt32?
    }

    private let monitor: ScriptedProcess

    /// Starts monitoring the bus at `address` and waits until the monitor is in place.
    public init(address: String, loop: EventLoop) throws {
        monitor = try ScriptedProcess([
            "/usr/bin/busctl", "--address=\(address)", "monitor", "--json=short",
            "--match", "type='method_call',interface='org.freedesktop.Notifications',member='Notify'",
            "--match", "type='signal',path='/org/undod/Undo1',member='PropertiesChanged'",
            "--match", "type='signal',member='UndodMonitorReady'",
            // Every reply: those to a Notify call carry the server's id.
            "--match", "type='method_return'",
        ], loop: loop)
        // A signal of our own, sent until the monitor shows it: then it sees everything after.
        for attempt in 1...10 {
            _ = try runTool(["busctl", "--address=\(address)", "emit", "/", "org.undod.Test", "UndodMonitorReady"])
            do {
                try monitor.next(timeout: TestTime.milliseconds(1_000), "the monitor's own signal") {
                    ($0["member"] as? String) == "UndodMonitorReady"
                }
                return
            } catch where attempt < 10 {
                continue
            }
        }
    }

    deinit { monitor.stop() }

    /// The summaries of the notifications asked for so far, in order: the
    /// calls to the server's well-known name (GNOME's service passes each
    /// on to the Shell by another name, which is not counted again).
    public var summaries: [String] {
        monitor.lines.compactMap { line in
            guard line["member"] as? String == "Notify", line["destination"] as? String == "org.freedesktop.Notifications",
                  let data = (line["payload"] as? [String: Any])?["data"] as? [Any], data.count > 3 else { return nil }
            return data[3] as? String
        }
    }

    /// The notifications asked for so far, in order, each with the id the
    /// server answered its `Notify` with (its reply's serial and
    /// destination name the call).
    public var notifications: [Notification] {
        let lines = monitor.lines
        var answers: [String: UInt32] = [:]
        for line in lines where line["type"] as? String == "method_return" {
            guard let caller = line["destination"] as? String, let serial = line["reply_cookie"] as? Int,
                  let id = ((line["payload"] as? [String: Any])?["data"] as? [Any])?.first as? Int else { continue }
            answers["\(caller) \(serial)"] = UInt32(truncatingIfNeeded: id)
        }
        return lines.compactMap { line in
            guard line["member"] as? String == "Notify", line["destination"] as? String == "org.freedesktop.Notifications",
                  let data = (line["payload"] as? [String: Any])?["data"] as? [Any], data.count > 3,
                  let summary = data[3] as? String, let replaces = data[1] as? Int else { return nil }
            let call = "\(line["sender"] as? String ?? "") \(line["cookie"] as? Int ?? 0)"
            return Notification(summary: summary, replaces: UInt32(truncatingIfNeeded: replaces), id: answers[call])
        }
    }

    /// The summaries of the notifications the server showed (answered with an id), in order.
    public var shown: [String] {
        notifications.filter { $0.id != nil }.map(\.summary)
    }

    /// The bodies of the notifications asked for so far, in order.
    public var bodies: [String] {
        monitor.lines.compactMap { line in
            guard line["member"] as? String == "Notify", line["destination"] as? String == "org.freedesktop.Notifications",
                  let data = (line["payload"] as? [String: Any])?["data"] as? [Any], data.count > 4 else { return nil }
            return data[4] as? String
        }
    }

    /// The values undod's manager announced for property `name`, in order.
    public func announced(_ name: String) -> [String] {
        monitor.lines.compactMap { line in
            guard line["member"] as? String == "PropertiesChanged",
                  let data = (line["payload"] as? [String: Any])?["data"] as? [Any], data.count > 1,
                  let changed = data[1] as? [String: Any], let value = changed[name] as? [String: Any] else { return nil }
            return value["data"] as? String
        }
    }

    /// Runs `loop` until `condition` holds over what was seen (at most `timeout` ms).
    public func wait(loop: EventLoop, timeout: Int = 30_000, until condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeoutMilliseconds: TestTime.milliseconds(timeout))
    }
}

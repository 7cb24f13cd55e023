import BusHarness
import DBus
import Foundation
import Testing

/// undod never starts a notification server by D-Bus activation: headless,
/// a server the bus would start has no display to show on (a new user's
/// `undoctl redo` started one that then crashed). Notifications go only to
/// a server that already owns `org.freedesktop.Notifications`.
@Suite struct NoActivatedNotifierTests {
    @Test func aTriggeredUndoStartsNoNotificationServer() throws {
        let services = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-services-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let started = services.appendingPathComponent("started")
        // A notification server the bus could start: it would leave a mark.
        try """
            [D-BUS Service]
            Name=org.freedesktop.Notifications
            Exec=/bin/sh -c 'echo started > \(started.path)'
            """.write(to: services.appendingPathComponent("notifier.service"), atomically: false, encoding: .utf8)
        let f = try DaemonFixture(config: "[notify]\nenabled = true\n", services: services)
        let app = try f.app("org.example.Notes", pushing: ["Typing", "More"])
        // The trigger (UndoFocused notifies), then redo too, as in the report.
        #expect(try f.manager("UndoFocused").last?.string == "More")
        #expect(try f.manager("RedoFocused").last?.string == "More")
        #expect(app.applied.count == 2)
        // Had undod asked for the server, the bus would have started it at once.
        #expect(!f.wait(timeout: 1_000) { FileManager.default.fileExists(atPath: started.path) },
                "the bus started the notification server")
    }
}

import BusHarness
import DBus
import Foundation
import Loop
import Testing

/// A private bus with a real undod on it, applications that register and
/// push, and the built `undoctl` run against them like a user would.
final class CtlFixture {
    let bus: TestBus
    let loop = EventLoop()
    let watcher: Connection
    var daemon: DaemonProcess?
    private var apps: [TestApp] = []

    /// A bus, and undod on it unless `daemon` is false.
    init(daemon startDaemon: Bool = true, config: String = "") throws {
        bus = try TestBus()
        watcher = try Connection(address: bus.address, loop: loop)
        if startDaemon {
            daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher, config: config)
        }
    }

    deinit {
        for app in apps { app.quit() }
        watcher.close()
        daemon?.stop()
        bus.stop()
    }

    /// The built undoctl.
    static var binary: String { DaemonProcess.undoctl.path }

    /// An app that registered `appId` (with `title` and `document` when
    /// given) and pushed `names` in order.
    @discardableResult
    func app(_ appId: String, title: String? = nil, document: String? = nil, pushing names: [String] = [],
             options: [String: DBusValue] = [:]) throws -> TestApp {
        let app = try TestApp(address: bus.address, loop: loop)
        apps.append(app)
        var options = options
        if let title { options["title"] = .string(title) }
        if let document { options["document"] = .string(document) }
        try app.register(appId, options)
        for (index, name) in names.enumerated() {
            try app.push(name, undo: [UInt8(index), 0xAA], redo: [UInt8(index), 0xBB])
        }
        return app
    }

    /// Runs `undoctl --address BUS arguments…` while the loop serves the apps.
    /// `COLUMNS` is emptied unless `environment` sets it, so that text is
    /// never cut to the width of the terminal the tests run in.
    func undoctl(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
        try undoctlBare(["--address", bus.address] + arguments, environment: environment)
    }

    /// Runs undoctl with exactly `arguments` (no `--address` added).
    func undoctlBare(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
        try runTool([Self.binary] + arguments, loop: loop,
                    environment: ["COLUMNS": ""].merging(environment) { $1 })
    }

    /// Runs `undoctl --address BUS --json arguments…`, expects exit 0 and one
    /// JSON object on one line, and returns it.
    func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try undoctl(["--json"] + arguments)
        #expect(result.status == 0, "undoctl --json \(arguments) failed: \(result.errors)")
        return try Self.object(result.output)
    }

    /// The one JSON object of `text`, which must be one line.
    static func object(_ text: String) throws -> [String: Any] {
        #expect(text.hasSuffix("\n") && text.dropLast().split(separator: "\n").count == 1,
                "JSON output is one line: \(text)")
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let object = value as? [String: Any] else { throw HarnessError("not a JSON object: \(text)") }
        return object
    }

    /// A Manager property, read by the test's own connection.
    func managerProperty(_ name: String) throws -> DBusValue? {
        try watcher.callAndWait(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                interface: "org.freedesktop.DBus.Properties", member: "Get",
                                arguments: [.string("org.undod.Undo1.Manager"), .string(name)]).first?.variantValue
    }

    /// A Stack property at `path`.
    func stackProperty(_ path: String, _ name: String) throws -> DBusValue? {
        try watcher.callAndWait(destination: "org.undod.Undo1", path: path,
                                interface: "org.freedesktop.DBus.Properties", member: "Get",
                                arguments: [.string("org.undod.Undo1.Stack"), .string(name)]).first?.variantValue
    }

    /// Runs the loop until `condition` holds (at most `timeout` ms).
    @discardableResult
    func wait(timeout: Int = 10_000, until condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeoutMilliseconds: TestTime.milliseconds(timeout))
    }

    /// Makes `app` leave the bus and waits (at most 10 s) for undod to
    /// announce its stacks detached.
    func quit(_ app: TestApp) throws {
        var detached = false
        let path = app.stack
        let subscription = watcher.subscribe(SignalMatch(path: path, interface: "org.freedesktop.DBus.Properties",
                                                         member: "PropertiesChanged")) { message in
            if message.arguments.dropFirst().first?.stringDictionary?["Owner"] == .string("") { detached = true }
        }
        defer { watcher.unsubscribe(subscription) }
        _ = try watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus.Peer", member: "Ping")
        // undod announces a stack's changes only to subscribers.
        _ = try watcher.callAndWait(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                    interface: "org.undod.Undo1.Manager", member: "Subscribe")
        app.quit()
        #expect(wait { detached }, "undod announced \(path) detached")
    }
}

/// The number at the end of a stack path.
func number(of path: String) -> String {
    String(path.split(separator: "/").last ?? "")
}

public import Foundation
public import Loop
import Rig

/// A GNOME Shell of its own for one test: `gnome-shell --headless
/// --virtual-monitor 1024x768 --wayland --no-x11` on the test's private
/// bus, with a stand-in system bus, its own home, runtime directory and
/// settings (the keyfile backend), and two extensions installed and
/// enabled there: undod's, put together by `scripts/gnome-extension.sh` as
/// `make install` does, and the tests' hand (`Tests/Clients/gnome-shell`),
/// which activates a window as a click would. Keys are real: mutter's
/// remote-desktop interface presses them. Never the user's session; `stop`
/// kills it.
public final class TestGnomeShell {
    /// Whether a GNOME Shell of `release` can run here: on the host,
    /// GNOME Shell 43 or 44 with gdbus and glib-compile-schemas installed;
    /// a newer Debian's from its root (`DesktopRelease`).
    public static func isAvailable(on release: DesktopRelease) -> Bool {
        guard ["/usr/bin/gdbus", "/usr/bin/glib-compile-schemas"].allSatisfy(FileManager.default.isExecutableFile(atPath:))
        else { return false }
        guard release.isHost else { return release.canRun }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-shell"),
              let version = try? runTool(["gnome-shell", "--version"]).output else { return false }
        return version.hasPrefix("GNOME Shell 43") || version.hasPrefix("GNOME Shell 44")
    }

    /// The releases whose GNOME Shell the suites run here.
    public static var releases: [DesktopRelease] { DesktopRelease.tested.filter(isAvailable(on:)) }

    /// The folder holding the Shell's runtime directory and home.
    public let directory: URL
    /// The Wayland display's name (a socket in the runtime directory).
    public let socketName = "gnome-test"
    /// What applications and undod need to be on this GNOME session: its
    /// Wayland display and the desktop's name, and no X display.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": socketName, "XDG_RUNTIME_DIR": runtime.path, "DISPLAY": "", "XDG_CURRENT_DESKTOP": "GNOME"]
    }

    private var runtime: URL { directory.appendingPathComponent("runtime") }
    private var home: URL { directory.appendingPathComponent("home") }
    private var server: ExitWatch?
    private var notifications: ExitWatch?
    private var portalServices: [ExitWatch] = []
    private let systemBus: TestBus
    private var busAddress = ""
    /// Whose GNOME Shell this is.
    public let release: DesktopRelease

    /// How undod's extension is put down for a test.
    public enum UndodExtension: Sendable {
        /// Installed and enabled, as a user who followed README has it.
        case enabled
        /// Installed, not enabled.
        case disabled
        /// Not installed.
        case missing
        /// Installed and enabled, declaring only a GNOME Shell long gone
        /// (the Shell marks it OUT OF DATE and never loads it).
        case outOfDate
    }

    /// Makes the Shell's folder with the tests' hand and undod's extension
    /// (as `undodExtension` says), in the format `release`'s Shell loads
    /// (43: GNOME Shell 43 and 44; 45: ES modules, 45 and later); `start`
    /// runs it.
    public init(release: DesktopRelease = .host, undodExtension: UndodExtension = .enabled) throws {
        self.release = release
        let format = release.isHost ? "43" : "45"
        directory = URL(fileURLWithPath: "/tmp/undod-gnome-\(UUID().uuidString.prefix(8))")
        let extensions = directory.appendingPathComponent("home/.local/share/gnome-shell/extensions")
        let settings = directory.appendingPathComponent("home/.config/glib-2.0/settings")
        for folder in [directory.appendingPathComponent("runtime"), extensions, settings] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        if undodExtension != .missing {
            let made = try runTool(["bash", Repository.file("scripts/gnome-extension.sh").path, extensions.path, format])
            guard made.status == 0 else { throw HarnessError("cannot put undod's extension together: \(made.errors)") }
        }
        if undodExtension == .outOfDate {
            let metadata = extensions.appendingPathComponent("undod@undod.org/metadata.json")
            let text = try String(contentsOf: metadata, encoding: .utf8)
            guard let versions = text.range(of: #""shell-version": \[[^\]]*\]"#, options: .regularExpression) else {
                throw HarnessError("undod's metadata.json has no shell-version")
            }
            try text.replacingCharacters(in: versions, with: #""shell-version": ["3.38"]"#)
                .write(to: metadata, atomically: false, encoding: .utf8)
        }
        let enabled = [hand] + (undodExtension == .enabled || undodExtension == .outOfDate ? ["undod@undod.org"] : [])
        try FileManager.default.copyItem(at: Repository.file("Tests/Clients/gnome-shell/\(format)/\(hand)"),
                                         to: extensions.appendingPathComponent(hand))
        // No key repeat: a Shell slow to see a key's release would repeat
        // the press (one press must be one undo).
        try ("[org/gnome/shell]\nenabled-extensions=[\(enabled.map { "'\($0)'" }.joined(separator: ", "))]\n\n"
            + "[org/gnome/desktop/peripherals/keyboard]\nrepeat=false\n")
            .write(to: settings.appendingPathComponent("keyfile"), atomically: false, encoding: .utf8)
        systemBus = try TestBus()
        try release.giveToUser(directory.path)
    }

    deinit {
        stop()
        systemBus.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the Shell on the bus at `busAddress` and waits (at most 30 s)
    /// until it owns `org.gnome.Shell`.
    public func start(busAddress: String, loop: EventLoop) throws {
        self.busAddress = busAddress
        server = try CompositorLaunch.start(
            "GNOME Shell", command: try release.command(["/usr/bin/gnome-shell", "--headless", "--virtual-monitor", "1024x768", "--wayland",
                                     "--no-x11", "--wayland-display", socketName]),
            environment: ["XDG_RUNTIME_DIR=\(runtime.path)", "HOME=\(home.path)",
                          "DBUS_SYSTEM_BUS_ADDRESS=\(systemBus.address)", "GSETTINGS_BACKEND=keyfile",
                          "XDG_CURRENT_DESKTOP=GNOME"],
            busName: "org.gnome.Shell", busAddress: busAddress, logVariable: "UNDOD_GNOME_LOG", loop: loop)
    }

    /// Starts GNOME's notification service, as a session's D-Bus activation
    /// would (`org.gnome.Shell.Notifications`: it owns
    /// `org.freedesktop.Notifications` and hands each notification to the
    /// Shell), and waits (at most 30 s) until it owns that name.
    /// Its command is the release's own, from its D-Bus service file.
    public func startNotifications(loop: EventLoop) throws {
        let service = (release.isHost ? "" : try release.root())
            + "/usr/share/dbus-1/services/org.gnome.Shell.Notifications.service"
        guard let exec = try String(contentsOfFile: service, encoding: .utf8).split(separator: "\n")
            .first(where: { $0.hasPrefix("Exec=") }) else { throw HarnessError("\(service) has no Exec line") }
        notifications = try CompositorLaunch.start(
            "GNOME's notification service",
            command: try release.command(exec.dropFirst(5).split(separator: " ").map(String.init)),
            environment: ["XDG_RUNTIME_DIR=\(runtime.path)", "HOME=\(home.path)", "XDG_CURRENT_DESKTOP=GNOME",
                          "WAYLAND_DISPLAY=\(socketName)"],
            busName: "org.freedesktop.Notifications", busAddress: busAddress, logVariable: "UNDOD_GNOME_LOG_NOTIFICATIONS",
            loop: loop)
    }

    /// Starts the GlobalShortcuts portal as a GNOME session has it, from
    /// the release's root (GNOME Shell 48 and later; `DesktopPortal`): the
    /// permission store, GNOME Settings' shortcuts provider (its dialog asks
    /// the user the first time an application binds keys), GNOME's portal
    /// backend, and `xdg-desktop-portal`. With `consented`, the settings
    /// hold undod's two keys as the dialog stores them once accepted: the
    /// state of a user who said yes before; without `desktopEntry`, undod
    /// is installed without its desktop entry. Call after `waitUntilStarted`.
    public func startPortal(consented: Bool, desktopEntry: Bool = true, loop: EventLoop) throws {
        if consented {
            let keyfile = home.appendingPathComponent(".config/glib-2.0/settings/keyfile")
            let handle = try FileHandle(forWritingTo: keyfile)
            handle.seekToEndOfFile()
            handle.write(Data(("\n[org/gnome/settings-daemon/global-shortcuts]\napplications=['org.undod.undod']\n\n"
                + "[org/gnome/settings-daemon/global-shortcuts/org.undod.undod]\n"
                + "shortcuts=[('undo', {'description': <'Undo'>, 'shortcuts': <['<Control><Alt>z']>}), "
                + "('redo', {'description': <'Redo'>, 'shortcuts': <['<Shift><Control><Alt>z']>})]\n").utf8))
            try handle.close()
        }
        let session = ["XDG_RUNTIME_DIR=\(runtime.path)", "HOME=\(home.path)", "XDG_CURRENT_DESKTOP=GNOME",
                       "XDG_SESSION_TYPE=wayland", "WAYLAND_DISPLAY=\(socketName)", "GSETTINGS_BACKEND=keyfile",
                       "DBUS_SYSTEM_BUS_ADDRESS=\(systemBus.address)"]
        portalServices += try DesktopPortal.start(
            release: release, desktop: "GNOME", directory: directory, session: session,
            backends: [DesktopPortal.permissionStore,
                       .init(what: "GNOME Settings' shortcuts provider",
                             program: "/usr/libexec/gnome-control-center-global-shortcuts-provider",
                             busName: "org.gnome.Settings.GlobalShortcutsProvider", logVariable: "UNDOD_GNOME_LOG_SHORTCUTS"),
                       .init(what: "GNOME's portal backend", program: "/usr/libexec/xdg-desktop-portal-gnome",
                             busName: "org.freedesktop.impl.portal.desktop.gnome", logVariable: "UNDOD_GNOME_LOG_PORTAL")],
            desktopEntry: desktopEntry, busAddress: busAddress, loop: loop)
    }

    /// Waits (at most 90 s, as for the Shell's start: a Shell starting beside
    /// the rest of the suite on two cores was seen not to answer for more
    /// than 25 s) until the Shell has finished starting: keys pressed before
    /// then are dropped (its extensions are enabled, and
    /// report, earlier). GNOME Shell 45 and later load extensions one by
    /// one, asynchronously: the hand may come after undod's has reported.
    public func waitUntilStarted(loop: EventLoop) throws {
        let active = try waitForExtension(hand, state: 1, loop: loop, seconds: 90)
        guard active else { throw HarnessError("the tests' hand never became active: \(try extensionInfo(hand))") }
        let seconds = TestTime.milliseconds(30_000) / 1_000
        let result = try runTool(["busctl", "--address=\(busAddress)", "--timeout=\(seconds)", "call", "org.gnome.Shell",
                                  "/org/undod/Test/Shell", "org.undod.Test.Shell", "Started"],
                                 loop: loop, timeout: Double(seconds + 30))
        guard result.status == 0 else { throw HarnessError("GNOME Shell did not finish starting: \(result.errors)") }
    }

    /// Extension `uuid`'s state as the Shell gives it (`GetExtensionInfo`:
    /// 1 active, 2 inactive, 3 error or still loading, 4 out of date, …),
    /// nil when the Shell does not answer or knows no such extension.
    public func extensionState(_ uuid: String) throws -> Int? {
        let result = try runTool(["busctl", "--address=\(busAddress)", "--json=short", "call", "org.gnome.Shell",
                                  "/org/gnome/Shell", "org.gnome.Shell.Extensions", "GetExtensionInfo", "s", uuid])
        guard result.status == 0,
              let reply = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let info = (reply["data"] as? [Any])?.first as? [String: Any],
              let state = (info["state"] as? [String: Any])?["data"] as? Double else { return nil }
        return Int(state)
    }

    /// Waits (at most `seconds`) until extension `uuid` is in `state`,
    /// asking the Shell every 100 ms (its state changes have no signal the
    /// harness follows); whether it came to be.
    public func waitForExtension(_ uuid: String, state: Int, loop: EventLoop, seconds: Int = 30) throws -> Bool {
        let deadline = Date().addingTimeInterval(Double(TestTime.milliseconds(seconds * 1_000)) / 1_000)
        while Date() < deadline {
            if try extensionState(uuid) == state { return true }
            _ = loop.run(until: { false }, timeoutMilliseconds: 100)
        }
        return false
    }

    /// What the Shell says of extension `uuid` (`GetExtensionInfo`), as busctl prints it.
    public func extensionInfo(_ uuid: String) throws -> String {
        let result = try runTool(["busctl", "--address=\(busAddress)", "call", "org.gnome.Shell", "/org/gnome/Shell",
                                  "org.gnome.Shell.Extensions", "GetExtensionInfo", "s", uuid])
        return result.output + result.errors
    }

    /// The tests' hand, an extension of the Shell.
    private let hand = "undod-test@undod.test"

    /// Kills the Shell (SIGKILL, as a crash would), and the input method
    /// daemon it started, which outlives it and ignores SIGTERM.
    public func stop() {
        guard let server else { return }
        notifications.map(CompositorLaunch.stop)
        notifications = nil
        portalServices.reversed().forEach(CompositorLaunch.stop)
        portalServices = []
        CompositorLaunch.stop(server)
        CompositorLaunch.killLeftovers(home: home.path)
        self.server = nil
        // The Shell's crash guard: a file that, left by a Shell killed in
        // its first minute, makes the next one start without extensions.
        for name in [socketName, socketName + ".lock", "gnome-shell-disable-extensions"] {
            try? FileManager.default.removeItem(at: runtime.appendingPathComponent(name))
        }
    }

    /// Activates the window of process `pid` through the tests' hand;
    /// false when the Shell has no such window (yet), or the hand is not
    /// enabled yet.
    public func focus(pid: Int32, loop: EventLoop) throws -> Bool {
        let result = try runTool(["busctl", "--address=\(busAddress)", "call", "org.gnome.Shell", "/org/undod/Test/Shell",
                                  "org.undod.Test.Shell", "Focus", "u", "\(pid)"], loop: loop)
        return result.status == 0 && result.output.hasPrefix("b true")
    }

    /// Presses `keys` (X keysyms, pressed in order and let go in reverse)
    /// through mutter's remote-desktop interface, as a keyboard would.
    public func press(_ keys: [UInt32], loop: EventLoop) throws {
        let script = """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            name = 'org.gnome.Mutter.RemoteDesktop'
            path = bus.get_object(name, '/org/gnome/Mutter/RemoteDesktop').CreateSession(dbus_interface=name)
            session = dbus.Interface(bus.get_object(name, path), name + '.Session')
            session.Start()
            keys = [int(key) for key in sys.argv[2:]]
            for key in keys: session.NotifyKeyboardKeysym(dbus.UInt32(key), True)
            for key in reversed(keys): session.NotifyKeyboardKeysym(dbus.UInt32(key), False)
            session.Stop()
            """
        let result = try runTool(["/usr/bin/python3", "-c", script, busAddress] + keys.map(String.init), loop: loop)
        guard result.status == 0 else { throw HarnessError("mutter did not press the keys: \(result.errors)") }
    }

    /// Ctrl+Alt+z, the extension's default undo key.
    public static let undoKeys: [UInt32] = [0xffe3, 0xffe9, 0x7a]
    /// Ctrl+Alt+Shift+z, its default redo key.
    public static let redoKeys: [UInt32] = [0xffe3, 0xffe9, 0xffe1, 0x7a]
}

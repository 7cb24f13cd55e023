public import Foundation
public import Loop
import Rig

/// A KWin of its own for one test: `kwin_wayland --virtual` (headless, no
/// lock screen, no global shortcut daemon of its own) on the test's private
/// bus, with its runtime directory, home and config in a fresh temporary
/// folder, and undod's KWin script (`Service/kwin/undod`) installed in a data
/// directory of that folder. KWin's binary carries a file capability
/// (`cap_sys_resource`) that a container may not grant, so the harness runs
/// a copy without it, under the same name. KWin offers no way to inject keys
/// (it has no virtual-keyboard protocol for wtype), so the user's hand is a
/// KWin script that activates a window (`focus`) and KDE's own
/// `invokeShortcut` (`press`). Never the user's session; `stop` kills it.
public final class TestKWin {
    /// Whether a KWin of `release` can run here: gdbus and busctl, and on
    /// the host KWin installed, or a newer Debian's root (`DesktopRelease`).
    public static func isAvailable(on release: DesktopRelease) -> Bool {
        ["/usr/bin/gdbus", "/usr/bin/busctl"].allSatisfy(FileManager.default.isExecutableFile(atPath:))
            && (release.isHost ? FileManager.default.isExecutableFile(atPath: "/usr/bin/kwin_wayland") : release.canRun)
    }

    /// The releases whose KWin the suites run here.
    public static var releases: [DesktopRelease] { DesktopRelease.tested.filter(isAvailable(on:)) }

    /// The folder holding KWin's runtime directory, home and data directory.
    public let directory: URL
    /// The Wayland display's name (a socket in the runtime directory).
    public let socketName = "kwin-test"
    /// What applications need to be on this KDE session: its Wayland
    /// display and the desktop's name, and no X display.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": socketName, "XDG_RUNTIME_DIR": runtime.path, "DISPLAY": "", "XDG_CURRENT_DESKTOP": "KDE"]
    }

    /// What undod needs: the session's, and the data directory where it
    /// finds its KWin script.
    public var undodEnvironment: [String: String] {
        environment.merging(["XDG_DATA_HOME": data.path, "XDG_DATA_DIRS": data.path]) { $1 }
    }

    private var runtime: URL { directory.appendingPathComponent("runtime") }
    private var data: URL { directory.appendingPathComponent("share") }
    private var server: ExitWatch?
    private var portalServices: [ExitWatch] = []
    private var busAddress = ""
    private var scripts = 0
    /// Whose KWin this is.
    public let release: DesktopRelease
    /// Held while the binary is copied (tests run side by side in one process).
    private static let copying = NSLock()

    /// Makes KWin's folder; `start` runs it.
    public init(release: DesktopRelease = .host) throws {
        self.release = release
        directory = URL(fileURLWithPath: "/tmp/undod-kwin-\(UUID().uuidString.prefix(8))")
        let scriptDirectory = data.appendingPathComponent("kwin/scripts")
        for folder in [runtime, directory.appendingPathComponent("home"), scriptDirectory] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        // A copy, not a link: a root's KWin sees /tmp, not the repository.
        try FileManager.default.copyItem(at: Repository.file("Service/kwin/undod"),
                                         to: scriptDirectory.appendingPathComponent("undod"))
        try release.giveToUser(directory.path)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts KWin on the bus at `busAddress` and waits (at most 30 s)
    /// until it owns `org.kde.KWin`.
    public func start(busAddress: String, loop: EventLoop) throws {
        self.busAddress = busAddress
        server = try CompositorLaunch.start(
            "KWin", command: try release.command([release.isHost ? try Self.binary() : "/usr/bin/kwin_wayland", "--virtual", "--socket", socketName, "--no-lockscreen",
                              "--no-global-shortcuts"]),
            environment: ["XDG_RUNTIME_DIR=\(runtime.path)", "HOME=\(directory.appendingPathComponent("home").path)",
                          "QT_QPA_PLATFORM=wayland"],
            busName: "org.kde.KWin", busAddress: busAddress, logVariable: "UNDOD_KWIN_LOG", loop: loop)
    }

    /// Kills KWin (SIGKILL, as a crash would), and its portal.
    public func stop() {
        portalServices.reversed().forEach(CompositorLaunch.stop)
        portalServices = []
        guard let server else { return }
        CompositorLaunch.stop(server)
        self.server = nil
        try? FileManager.default.removeItem(at: runtime.appendingPathComponent(socketName))
        try? FileManager.default.removeItem(at: runtime.appendingPathComponent(socketName + ".lock"))
    }

    /// Puts undod's two keys in KWin's shortcut settings as KDE's portal
    /// stores them once the user accepted its dialog (component
    /// `org.undod.undod`, undod's name to the portal): the state of a user
    /// who said yes before. Call before `start`, which reads them.
    public func consentToPortalKeys() throws {
        let config = directory.appendingPathComponent("home/.config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try ("[org.undod.undod]\n_k_friendly_name=undod\n"
            + "redo=Ctrl+Alt+Shift+Z,Ctrl+Alt+Shift+Z,Redo the last undone change in the focused application\n"
            + "undo=Ctrl+Alt+Z,Ctrl+Alt+Z,Undo the last change in the focused application\n")
            .write(to: config.appendingPathComponent("kglobalshortcutsrc"), atomically: false, encoding: .utf8)
        try release.giveToUser(directory.path)
    }

    /// Starts the GlobalShortcuts portal as a Plasma session has it, from
    /// the release's root (`DesktopPortal`): the permission store, KDE's
    /// portal backend (whose dialog asks the user the first time an
    /// application binds keys) and `xdg-desktop-portal`. Call after `start`.
    public func startPortal(loop: EventLoop) throws {
        // Offscreen: the root has no Qt shell integration for a client
        // window, and a user who consented before sees no dialog.
        let session = ["XDG_RUNTIME_DIR=\(runtime.path)", "HOME=\(directory.appendingPathComponent("home").path)",
                       "XDG_CURRENT_DESKTOP=KDE", "XDG_SESSION_TYPE=wayland", "WAYLAND_DISPLAY=\(socketName)",
                       "QT_QPA_PLATFORM=offscreen"]
        portalServices += try DesktopPortal.start(
            release: release, desktop: "KDE", directory: directory, session: session,
            backends: [DesktopPortal.permissionStore,
                       .init(what: "KDE's portal backend",
                             program: try DesktopPortal.program(of: "org.freedesktop.impl.portal.desktop.kde", in: release),
                             busName: "org.freedesktop.impl.portal.desktop.kde", logVariable: "UNDOD_KWIN_LOG_PORTAL")],
            desktopEntry: true, busAddress: busAddress, loop: loop)
    }

    /// Runs shortcut `name` of kglobalaccel's `component` as its key would.
    public func press(_ name: String, of component: String, loop: EventLoop) throws {
        try busctl(["call", "org.kde.kglobalaccel", "/component/\(component.replacingOccurrences(of: ".", with: "_"))",
                    "org.kde.kglobalaccel.Component", "invokeShortcut", "s", name], loop: loop)
    }

    /// Activates the window of process `pid`, as a click on it would, through
    /// a one-off KWin script.
    public func focus(pid: Int32, loop: EventLoop) throws {
        scripts += 1
        let name = "undodtest-focus-\(scripts)"
        let file = directory.appendingPathComponent("\(name).js")
        try """
            var windows = workspace.windowList ? workspace.windowList() : workspace.clientList();
            for (var i = 0; i < windows.length; i++) {
                if (windows[i].pid == \(pid)) {
                    if (workspace.activeWindow !== undefined) { workspace.activeWindow = windows[i]; }
                    else { workspace.activeClient = windows[i]; }
                }
            }
            """.write(to: file, atomically: false, encoding: .utf8)
        try scripting(["loadScript", "ss", file.path, name], loop: loop)
        try scripting(["start"], loop: loop)
        try scripting(["unloadScript", "s", name], loop: loop)
    }

    /// Runs the KWin shortcut `name` (`undod-undo`, `undod-redo`) as its key would.
    public func press(_ name: String, loop: EventLoop) throws {
        try press(name, of: "kwin", loop: loop)
    }

    /// Whether a script named `name` is loaded in KWin.
    public func isScriptLoaded(_ name: String, loop: EventLoop) throws -> Bool {
        try scripting(["isScriptLoaded", "s", name], loop: loop).hasPrefix("b true")
    }

    @discardableResult
    private func scripting(_ call: [String], loop: EventLoop) throws -> String {
        try busctl(["call", "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting"] + call, loop: loop)
    }

    @discardableResult
    private func busctl(_ arguments: [String], loop: EventLoop) throws -> String {
        let result = try runTool(["busctl", "--address=\(busAddress)"] + arguments, loop: loop)
        guard result.status == 0 else {
            throw HarnessError("busctl \(arguments.joined(separator: " ")) failed: \(result.errors)")
        }
        return result.output
    }

    /// A copy of `kwin_wayland` without the file capability (`cp` copies
    /// no extended attributes), shared by every test process while the
    /// installed binary stays the same (its size and change time name the
    /// folder); each process copies under a name of its own and renames, so
    /// two never see half a file.
    private static func binary() throws -> String {
        copying.lock()
        defer { copying.unlock() }
        var installed = stat()
        guard stat("/usr/bin/kwin_wayland", &installed) == 0 else { throw HarnessError("cannot read /usr/bin/kwin_wayland") }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("undod-kwin-bin-\(installed.st_size)-\(installed.st_ctim.tv_sec)")
        let copy = folder.appendingPathComponent("kwin_wayland")   // KWin reads its name from argv[0]
        if FileManager.default.isExecutableFile(atPath: copy.path) { return copy.path }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = copy.path + ".\(getpid())"
        let copied = try runTool(["cp", "/usr/bin/kwin_wayland", partial])
        guard copied.status == 0, rename(partial, copy.path) == 0 else {
            throw HarnessError("cannot copy kwin_wayland: \(copied.errors)")
        }
        return copy.path
    }
}

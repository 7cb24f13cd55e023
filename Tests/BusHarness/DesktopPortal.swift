import Foundation
import Loop

/// The GlobalShortcuts portal as a newer Debian's desktop session has it,
/// for one test: the desktop's backends (each a D-Bus service of the
/// root's, started as the compositor's user with the session's variables,
/// and waited for until it owns its name), then `xdg-desktop-portal`
/// itself, as root, so that it may read undod's `/proc/PID/root` as a
/// user's portal reads its user's programs'. The portal finds undod's
/// desktop entry (`Service/org.undod.undod.desktop`, its `Exec` pointing at
/// a stand-in `undod`) as `make install` puts it, unless `desktopEntry` is
/// false. The harnesses of GNOME Shell and KWin start it after their
/// compositor; they stop what it returns.
enum DesktopPortal {
    /// One backend service: what to call it, its program in the root, the
    /// bus name it takes, and the variable naming a file for its stderr.
    struct Backend {
        let what: String
        let program: String
        let busName: String
        let logVariable: String
    }

    /// Starts `backends` with `session` (as `KEY=value`), then the portal
    /// for `desktop` (`XDG_CURRENT_DESKTOP`), with their files under
    /// `directory`; the watches of all, in the order started.
    static func start(release: DesktopRelease, desktop: String, directory: URL, session: [String],
                      backends: [Backend], desktopEntry: Bool, busAddress: String,
                      loop: EventLoop) throws -> [ExitWatch] {
        guard !release.isHost else { throw HarnessError("Debian 12's xdg-desktop-portal has no GlobalShortcuts") }
        let share = directory.appendingPathComponent("share/applications")
        let bin = directory.appendingPathComponent("bin")
        for folder in [share, bin] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let standIn = bin.appendingPathComponent("undod")
        try "#!/bin/sh\n".write(to: standIn, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn.path)
        if desktopEntry {
            try String(contentsOf: Repository.file("Service/org.undod.undod.desktop"), encoding: .utf8)
                .replacingOccurrences(of: "@BINDIR@", with: bin.path)
                .write(to: share.appendingPathComponent("org.undod.undod.desktop"), atomically: false, encoding: .utf8)
        }
        var started: [ExitWatch] = []
        do {
            for backend in backends {
                started.append(try CompositorLaunch.start(
                    backend.what, command: try release.command([backend.program]), environment: session,
                    busName: backend.busName, busAddress: busAddress, logVariable: backend.logVariable, loop: loop))
            }
            started.append(try CompositorLaunch.start(
                "xdg-desktop-portal", command: try release.command(["/usr/libexec/xdg-desktop-portal"], asUser: false),
                environment: ["XDG_CURRENT_DESKTOP=\(desktop)", "HOME=\(directory.path)/portal-home",
                              "XDG_DATA_DIRS=\(directory.path)/share:/usr/share", "PATH=\(bin.path):/usr/bin:/bin"],
                busName: "org.freedesktop.portal.Desktop", busAddress: busAddress, logVariable: "UNDOD_LOG_PORTAL",
                loop: loop))
        } catch {
            started.reversed().forEach(CompositorLaunch.stop)
            throw error
        }
        return started
    }

    /// The program `release`'s D-Bus service file for `busName` starts (its
    /// `Exec` line): where a backend lives differs between packages.
    static func program(of busName: String, in release: DesktopRelease) throws -> String {
        let file = try release.root() + "/usr/share/dbus-1/services/\(busName).service"
        guard let exec = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            .first(where: { $0.hasPrefix("Exec=") }) else { throw HarnessError("\(file) has no Exec line") }
        return String(exec.dropFirst(5).split(separator: " ").first ?? "")
    }

    /// The permission store, which every portal backend asks.
    static let permissionStore = Backend(what: "the permission store", program: "/usr/libexec/xdg-permission-store",
                                         busName: "org.freedesktop.impl.portal.PermissionStore",
                                         logVariable: "UNDOD_LOG_PERMISSIONS")
}

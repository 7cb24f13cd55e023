public import Foundation
import Locking

/// Which Debian's desktops a compositor suite runs: the host's own
/// (`bookworm`, Debian 12: GNOME Shell 43, KWin 5.27, sway 1.7), or a newer
/// Debian's (`trixie`, `forky`, `sid`) from a root that
/// `scripts/desktop-root.sh` builds once and caches. A newer compositor runs
/// in that root under `bwrap`, as the unprivileged test user (compositors
/// refuse root, and a user namespace needs no privilege), with the host's
/// `/tmp` (the test's bus, runtime directory and home), `/dev`, `/sys` and the
/// users bound in; no PID namespace, so the pids it
/// reports are the host's. Applications, undod and the tests' hands stay on
/// the host and reach it through its sockets, as they would on that desktop.
public struct DesktopRelease: Sendable, CustomStringConvertible, Hashable {
    /// Debian's code name of the release.
    public let suite: String

    /// The host's own desktops.
    public static let host = DesktopRelease(suite: "bookworm")

    /// The releases a compositor suite runs on: `UNDOD_DESKTOP_SUITES`
    /// (space separated, e.g. `sid`), else the host's, Debian 13's and
    /// Debian testing's — what `make test` runs.
    public static var tested: [DesktopRelease] {
        let named = ProcessInfo.processInfo.environment["UNDOD_DESKTOP_SUITES"] ?? "bookworm trixie forky"
        return named.split(separator: " ").map { DesktopRelease(suite: String($0)) }
    }

    /// Of `releases`, those the real-portal tests run on: every root's (Debian
    /// 12's portal has no GlobalShortcuts), and only under `make
    /// test-desktops` (`UNDOD_PORTAL_TESTS=1`), not `make test`: in full
    /// runs, compositors started by those suites beside the others were seen
    /// to stall every later compositor start (cause not found).
    public static func portalTested(_ releases: [DesktopRelease]) -> [DesktopRelease] {
        ProcessInfo.processInfo.environment["UNDOD_PORTAL_TESTS"] == nil ? [] : releases.filter { !$0.isHost }
    }

    /// The unprivileged user the compositors of a root run as (and sway on the host).
    public static let user = "undodtest"

    public var description: String { suite }

    /// Whether this is the host's own release (nothing to enter).
    public var isHost: Bool { self == Self.host }

    /// Whether compositors of this release can run here: the host's always
    /// (each suite checks its binaries), a root's as root (to make the user)
    /// with bwrap and setpriv.
    public var canRun: Bool {
        isHost || (getuid() == 0 && ["/usr/bin/bwrap", "/usr/bin/setpriv"].allSatisfy(FileManager.default.isExecutableFile(atPath:)))
    }

    /// The root's directory, built or unpacked on first use (a root not yet
    /// cached takes minutes: `make test` builds them before the tests).
    public func root() throws -> String {
        precondition(!isHost, "the host's release has no root")
        if let root = Self.roots.withLock({ $0[suite] }) { return root }
        let made = try runTool(["bash", Repository.file("scripts/desktop-root.sh").path, suite], timeout: 1_200)
        let path = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard made.status == 0, FileManager.default.fileExists(atPath: path + "/.complete") else {
            throw HarnessError("cannot make Debian \(suite)'s desktop root: \(made.errors)")
        }
        Self.roots.withLock { $0[suite] = path }
        return path
    }

    /// `command` (with absolute paths, as the root has them) run in the root
    /// as `user` (with `asUser` false: as root, for a service that must read
    /// what root's processes hold, as xdg-desktop-portal reads its callers'
    /// `/proc/PID/root`); on the host, `command` as it is.
    /// With `ownPIDNamespace`, in a pid namespace of its own (in the root
    /// only): as a containerised service sees the host's processes, with no
    /// pid for them.
    public func command(_ command: [String], asUser: Bool = true, ownPIDNamespace: Bool = false) throws -> [String] {
        guard !isHost else { return command }
        let (uid, gid) = try Self.makeUser()
        let user = asUser ? ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"] : []
        return user + ["/usr/bin/bwrap"] + (ownPIDNamespace ? ["--unshare-pid"] : [])
            + ["--bind", try root(), "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
                       "--ro-bind", "/sys", "/sys", "--bind", "/tmp", "/tmp", "--ro-bind", "/etc/passwd", "/etc/passwd",
                       "--ro-bind", "/etc/group", "/etc/group",
                       "--tmpfs", "/run", "--die-with-parent", "--"] + command
    }

    /// Gives `path` (and what is in it) to the user a root's compositor runs
    /// as; nothing on the host, where GNOME Shell and KWin run as root.
    public func giveToUser(_ path: String) throws {
        guard !isHost else { return }
        _ = try Self.makeUser()
        let given = try runTool(["chown", "-R", "\(Self.user):\(Self.user)", path])
        guard given.status == 0 else { throw HarnessError("cannot give \(path) to \(Self.user): \(given.errors)") }
    }

    /// Makes `user` where it is missing; its uid and gid.
    @discardableResult
    public static func makeUser() throws -> (uid: String, gid: String) {
        let made = try runTool(["sh", "-c", "id -u \(user) >/dev/null 2>&1 || useradd --system --no-create-home "
                                   + "--shell /usr/sbin/nologin \(user); echo $(id -u \(user)) $(id -g \(user))"])
        let ids = made.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard made.status == 0, ids.count == 2 else { throw HarnessError("cannot make the user \(user): \(made.errors)") }
        return (ids[0], ids[1])
    }

    /// The roots this process has found, by suite.
    private static let roots = Lock<[String: String]>([:])
}

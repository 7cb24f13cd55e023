#if canImport(Glibc)
import Glibc
#endif
import DBus
import Loop
import Logging
import ProcessEnvironment

/// undod's KWin script (`Service/kwin/undod`), kept loaded in KWin while
/// undod runs under KDE: whenever a KWin takes the name `org.kde.KWin`
/// (at start, or a KWin that restarted), undod unloads any script of its
/// name (one a killed undod left behind) and loads its own through
/// `org.kde.kwin.Scripting`, so the script and its shortcuts are never
/// there twice; `stop` unloads it. The script reports the window in front
/// through `ReportFocus` and binds the global keys. Confined to the loop.
final class KWinScript {
    /// The name the script is loaded under (its KPackage id).
    static let pluginName = "undod"
    /// Where the script lies under a data directory (`/usr/share`, …).
    static let relativePath = "kwin/scripts/undod/contents/code/main.js"
    /// How often, and how many times, a load KWin did not answer is tried again.
    static let retryMilliseconds = 500
    static let attempts = 20

    private let connection: Connection
    private let log: Log
    /// The script's file, when installed.
    let scriptPath: String?
    /// The KWin (its unique name) undod loaded the script into, or is loading it into.
    private var loadedInto: String?
    private var retry: EventLoop.Token?
    private let loop: EventLoop
    private var started = false
    /// Called with why the script is not running in KWin (a clause: "is
    /// not installed …"), and with nil once it is.
    var onProblem: ((String?) -> Void)?

    /// Looks for the script in the data directories of `environment`.
    init(environment: Environment, connection: Connection, loop: EventLoop, log: Log) {
        self.connection = connection
        self.loop = loop
        self.log = log
        scriptPath = Self.dataDirectories(environment).lazy
            .map { $0 + "/" + Self.relativePath }
            .first { access($0, R_OK) == 0 }
    }

    /// Starts following KWin through `reports` (which follows the owners
    /// of the compositors' names): the script is loaded into each KWin that
    /// appears, the present one first.
    func start(following reports: CompositorReports) {
        guard !started else { return }
        started = true
        guard let scriptPath else {
            log.warning(.kwinScriptMissing, "undod's KWin script is not installed (no \(Self.relativePath) under XDG_DATA_HOME or "
                + "XDG_DATA_DIRS): KWin cannot tell undod which window is in front, and its keys are not bound.")
            onProblem?("is not installed (no \(Self.relativePath) under XDG_DATA_HOME or XDG_DATA_DIRS)")
            return
        }
        log.debug("undod's KWin script is \(scriptPath).")
        reports.followOwner(of: .kwin) { [weak self] owner in self?.kwinChanged(to: owner ?? "") }
    }

    /// Unloads the script from the KWin it is in (the message is written
    /// out before undod goes on to close the bus).
    func stop() {
        retry.map(loop.remove)
        retry = nil
        guard loadedInto != nil, let message = Self.scripting("unloadScript", [.string(Self.pluginName)]) else { return }
        loadedInto = nil
        connection.send(message)
        connection.flush()
    }

    private func kwinChanged(to owner: String) {
        guard owner != loadedInto else { return }
        retry.map(loop.remove)
        retry = nil
        loadedInto = owner.isEmpty ? nil : owner
        guard !owner.isEmpty else {
            log.notice(.kwinLeft, "KWin left the bus; undod loads its script into the next KWin that comes.")
            return
        }
        load(into: owner, attempt: 1)
    }

    /// Unloads any script of undod's name, loads undod's and runs it.
    private func load(into owner: String, attempt: Int) {
        guard let scriptPath,
              let unload = Self.scripting("unloadScript", [.string(Self.pluginName)]),
              let load = Self.scripting("loadScript", [.string(scriptPath), .string(Self.pluginName)]),
              let run = Self.scripting("start", []) else { return }
        connection.call(unload, timeoutMilliseconds: 5_000) { [weak self] _ in
            guard let self, self.loadedInto == owner else { return }
            self.connection.call(load, timeoutMilliseconds: 5_000) { [weak self] answer in
                guard let self, self.loadedInto == owner else { return }
                switch answer {
                case .success(let reply) where Self.isLoaded(reply.arguments.first):
                    self.connection.call(run, timeoutMilliseconds: 5_000) { [weak self] _ in
                        self?.onProblem?(nil)
                        self?.log.notice(.kwinScriptLoaded, "loaded undod's KWin script into KWin (\(owner)): "
                            + "focus follows its reports, and its shortcuts call undo and redo.")
                    }
                case .success:
                    self.log.warning(.kwinScriptRefused, "KWin refused to load undod's KWin script \(scriptPath).")
                    self.onProblem?("was refused by KWin (\(scriptPath))")
                case .failure(let error):
                    self.tryAgain(into: owner, attempt: attempt, after: error)
                }
            }
        }
    }

    /// KWin may own its name before its scripting answers: tries again,
    /// a bounded number of times.
    private func tryAgain(into owner: String, attempt: Int, after error: DBusError) {
        guard attempt < Self.attempts else {
            log.warning(.kwinScriptFailed, "KWin did not load undod's KWin script after \(attempt) tries: \(error.message)")
            onProblem?("did not load after \(attempt) tries (\(error.message))")
            return
        }
        retry = loop.schedule(afterMilliseconds: Self.retryMilliseconds) { [weak self] in
            guard let self, self.loadedInto == owner else { return }
            self.retry = nil
            self.load(into: owner, attempt: attempt + 1)
        }
    }

    /// Whether `loadScript`'s answer is a script's id (-1: refused).
    private static func isLoaded(_ answer: DBusValue?) -> Bool {
        if case .int32(let id) = answer { id >= 0 } else { false }
    }

    /// A call to KWin's `org.kde.kwin.Scripting` on `/Scripting`.
    private static func scripting(_ member: String, _ arguments: [DBusValue]) -> Message? {
        try? Message.methodCall(destination: Compositor.kwin.busName, path: "/Scripting",
                                interface: "org.kde.kwin.Scripting", member: member, arguments: arguments)
    }

    /// `XDG_DATA_HOME` (default `~/.local/share`), then `XDG_DATA_DIRS`
    /// (default `/usr/local/share:/usr/share`), as the XDG base directory
    /// rules say.
    static func dataDirectories(_ environment: Environment) -> [String] {
        var directories: [String] = []
        if let home = environment.nonEmpty("XDG_DATA_HOME") {
            directories.append(home)
        } else if let home = environment.nonEmpty("HOME") {
            directories.append(home + "/.local/share")
        }
        let shared = environment.nonEmpty("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share"
        directories += shared.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return directories
    }
}

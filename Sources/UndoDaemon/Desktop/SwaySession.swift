#if canImport(Glibc)
import Glibc
#endif
import Caretaker
import JSONText
import Loop
import Logging
import SwayIPC

/// sway (or any compositor speaking i3's IPC) as undod follows it: the view
/// in front and its process, from the layout tree, read again on every
/// window and workspace event; and the global keys as runtime bindings
/// (`bindsym --no-repeat KEY nop undod undo`) acted on from `binding`
/// events, bound again after sway loads or reloads its config (binding a
/// key again replaces the binding, so none is ever there twice) and
/// unbound when undod stops. When sway goes away, undod looks for it again every half second
/// (at the same socket, or a new one of the same user beside it), so a
/// restarted sway brings focus and keys back by themselves. Confined to the
/// loop.
final class SwaySession: FrontWindowSource {
    /// `sway`.
    let name = "sway"
    /// The view in front as last read; nil while sway does not answer.
    private(set) var front: WindowReport?
    /// Called when `front` changes.
    var onChange: (() -> Void)?
    /// Called with `undo` or `redo` when one of undod's bindings runs.
    var onBinding: ((String) -> Void)?

    private let loop: EventLoop
    private let log: Log
    private var socketPath: String
    private var connection: SwayConnection?
    private var retry: EventLoop.Token?
    /// The bindings undod keeps in sway: the key in sway's syntax, and the
    /// command it runs.
    private var bindings: [(key: String, command: String)] = []
    private var refreshing: [() -> Void] = []

    /// The command prefix of undod's bindings.
    static let commandPrefix = "nop undod "
    /// How often a lost sway is looked for again.
    static let retryMilliseconds = 500

    /// Follows the sway listening at `socketPath`.
    init(socketPath: String, loop: EventLoop, log: Log) {
        self.socketPath = socketPath
        self.loop = loop
        self.log = log
        connect()
    }

    /// Why there is no view in front.
    var silence: NoFocus {
        .unknown("sway does not answer at \(socketPath)")
    }

    /// Reads the layout tree again, then calls `done`.
    func refresh(then done: @escaping () -> Void) {
        guard let connection, connection.isOpen else { return done() }
        refreshing.append(done)
        guard refreshing.count == 1 else { return }
        readTree(on: connection)
    }

    /// Keeps `keys` bound in sway to `nop undod WORD` (`undo` or `redo`).
    func bind(_ keys: [(key: String, word: String)]) {
        bindings = keys.map { ($0.key, Self.commandPrefix + $0.word) }
        guard let connection, connection.isOpen else { return }
        addBindings(on: connection)
    }

    /// Removes undod's bindings from sway and closes the connection.
    func stop() {
        if let retry { loop.remove(retry) }
        retry = nil
        guard let connection, connection.isOpen, !bindings.isEmpty else { return }
        let commands = bindings.map { "unbindsym \($0.key)" }.joined(separator: "; ")
        var done = false
        connection.send(.runCommand, commands) { _ in done = true }
        _ = loop.run(until: { done }, timeoutMilliseconds: 1_000)
        connection.close()
    }

    // MARK: The connection

    private func connect() {
        retry = nil
        for path in candidates() {
            guard let connection = try? SwayConnection(path: path, loop: loop) else { continue }
            socketPath = path
            self.connection = connection
            connection.onEvent = { [weak self] event, value in self?.handle(event, value) }
            connection.onClose = { [weak self] in self?.lost() }
            connection.send(.subscribe, #"["window","workspace","binding","shutdown"]"#)
            addBindings(on: connection)
            readTree(on: connection)
            log.notice(.swayAnswers, "sway answers at \(path): focus follows its focused view\(bindings.isEmpty ? "" : ", and the global keys are sway bindings").")
            return
        }
        retry = loop.schedule(afterMilliseconds: Self.retryMilliseconds) { [weak self] in self?.connect() }
    }

    /// The socket last used, then other sockets of the same user's sways
    /// beside it (a restarted sway's socket names its new pid).
    private func candidates() -> [String] {
        var paths = [socketPath]
        let slash = socketPath.lastIndex(of: "/").map { socketPath[..<$0] } ?? "."
        let file = socketPath.split(separator: "/").last.map(String.init) ?? ""
        let parts = file.split(separator: ".")
        guard parts.count == 4, parts[0] == "sway-ipc", parts[3] == "sock", let directory = opendir(String(slash)) else {
            return paths
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("sway-ipc.\(parts[1]).") && name.hasSuffix(".sock") && name != file {
                paths.append("\(slash)/\(name)")
            }
        }
        return paths
    }

    private func lost() {
        connection = nil
        log.warning(.swayLost, "sway stopped answering at \(socketPath): no stack is focused by it until it comes back.")
        update(nil)
        let waiting = refreshing
        refreshing.removeAll()
        for done in waiting { done() }
        retry = loop.schedule(afterMilliseconds: Self.retryMilliseconds) { [weak self] in self?.connect() }
    }

    private func addBindings(on connection: SwayConnection) {
        guard !bindings.isEmpty else { return }
        let commands = bindings.map { "bindsym --no-repeat \($0.key) \($0.command)" }.joined(separator: "; ")
        connection.send(.runCommand, commands) { [weak self] reply in
            guard let self, let results = reply?.elements else { return }
            self.log.debug("sway bound \(self.bindings.map(\.key).joined(separator: " and ")).")
            for (index, result) in results.enumerated() where result["success"]?.boolValue != true {
                let key = index < self.bindings.count ? self.bindings[index].key : "?"
                self.log.warning(.swayBindingRefused,
                                 "sway refused the binding \(key): \(result["error"]?.stringValue ?? "no reason given").")
            }
        }
    }

    // MARK: Events and the tree

    private func handle(_ event: SwayConnection.Event, _ value: JSONValue) {
        switch event {
        case .window, .workspace:
            // A reload drops runtime bindings; so does the first config a
            // starting sway loads, which may come after undod connected (its
            // first workspace is made once that config is in force).
            if event == .workspace, ["reload", "init"].contains(value["change"]?.stringValue ?? ""), let connection {
                addBindings(on: connection)
            }
            if let connection { readTree(on: connection) }
        case .binding:
            log.debug("sway ran a binding: \(value["binding"]?["command"]?.stringValue ?? "?").")
            guard value["change"]?.stringValue == "run",
                  let command = value["binding"]?["command"]?.stringValue, command.hasPrefix(Self.commandPrefix)
            else { return }
            onBinding?(String(command.dropFirst(Self.commandPrefix.count)))
        case .shutdown:
            break
        }
    }

    private func readTree(on connection: SwayConnection) {
        connection.send(.getTree) { [weak self] tree in
            guard let self else { return }
            if let tree { self.update(Self.focusedView(in: tree)) }
            let waiting = self.refreshing
            self.refreshing.removeAll()
            for done in waiting { done() }
        }
    }

    private func update(_ report: WindowReport?) {
        guard report != front else { return }
        front = report
        onChange?()
    }

    /// The focused node's process: a view's `pid` (0 when the focused node
    /// is a workspace or output, no view).
    static func focusedView(in tree: JSONValue) -> WindowReport {
        var stack = [tree]
        while let node = stack.popLast() {
            if node["focused"]?.boolValue == true {
                let pid = node["pid"]?.intValue.flatMap { UInt32(exactly: $0) } ?? 0
                let appID = node["app_id"]?.stringValue ?? node["window_properties"]?["class"]?.stringValue ?? ""
                return WindowReport(processID: pid, appID: appID, sandboxAppID: "")
            }
            stack += (node["nodes"]?.elements ?? []) + (node["floating_nodes"]?.elements ?? [])
        }
        return WindowReport(processID: 0, appID: "", sandboxAppID: "")
    }
}

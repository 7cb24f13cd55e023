#if canImport(Glibc)
import Glibc
#endif
import DBus
import JSONText
import Loop
import SystemClock
import Undo1
import Undo1Wire
import UndoCore

/// `watch`'s state: the stacks and focus as last seen, kept current from
/// undod's signals (subscribed with sender = undod's unique name), and one
/// printed line per event. Follows undod across restarts. Confined to the
/// loop's thread.
final class WatchSession {
    private let client: DaemonClient
    private let json: Bool
    private var stacks: [String: StackInfo] = [:]
    private var focused: String?
    private var daemon: String?
    private var subscriptions: [Int] = []
    /// Signals that came before the snapshot they follow was taken.
    private var early: [Message]? = []
    private var stopped = false
    private var failure: CommandError?

    /// A session on `client`'s connection, printing JSON lines when `json`.
    init(client: DaemonClient, json: Bool) {
        self.client = client
        self.json = json
    }

    /// Runs until SIGINT or SIGTERM (or until nobody reads the output).
    func run() throws(CommandError) {
        let loop = client.loop
        loop.onSignal(SIGINT) { [unowned self] in self.stopped = true }
        loop.onSignal(SIGTERM) { [unowned self] in self.stopped = true }
        client.connection.onDisconnect = { [unowned self] in
            self.failure = .unreachable("lost the bus while watching")
        }
        client.connection.subscribe(.nameOwnerChanged(name: Undo1.busName)) { [unowned self] message in
            let names = message.arguments.compactMap(\.string)
            guard names.count == 3 else { return }
            self.daemonMoved(to: names[2])
        }
        if try startsUndod() {
            let owner = try client.daemonOwner()
            attach(owner)
            // Every match above is in force once the daemon has answered this.
            let snapshot = try client.stacks()
            let state = try client.managerState()
            take(snapshot, focus: state.focusedPath)
            emit(.focus, at: focused)
            drainEarly()
        } else {
            // Not running and the bus cannot start it: wait, as for a restart.
            early = nil
            emit(.focus, at: nil)
            // Said on standard error (tty or not): a silent watch looks hung.
            Output.error("undoctl: undod is not running on this bus; waiting for it to start (Ctrl-C to stop)")
        }
        while !stopped, failure == nil, !Output.readerGone {
            loop.runTurn(maxWaitMilliseconds: -1)
        }
        flushFolded()
        if let failure { throw failure }
    }

    /// Pings undod (which starts it where the bus can); false when nothing
    /// owns its name and the bus cannot start it.
    private func startsUndod() throws(CommandError) -> Bool {
        do {
            try client.ping()
            return true
        } catch where error.errorName.map(DaemonClient.notRunning.contains) == true {
            return false
        }
    }

    // MARK: Subscriptions

    /// Subscribes to the signals of the daemon at unique name `owner`.
    private func attach(_ owner: String) {
        for id in subscriptions { client.connection.unsubscribe(id) }
        daemon = owner
        let connection = client.connection
        let properties = Undo1.propertiesInterface
        let matches = [
            SignalMatch(sender: owner, interface: Undo1.stackInterface, member: PushedSignal.member),
            SignalMatch(sender: owner, interface: Undo1.stackInterface, member: AppliedSignal.member),
            SignalMatch(sender: owner, path: Undo1.managerPath, interface: properties,
                        member: "PropertiesChanged", arg0: Undo1.managerInterface),
            SignalMatch(sender: owner, interface: properties, member: "PropertiesChanged",
                        arg0: Undo1.stackInterface),
            SignalMatch(sender: owner, path: Undo1.managerPath,
                        interface: Undo1.objectManagerInterface, member: "InterfacesAdded"),
            SignalMatch(sender: owner, path: Undo1.managerPath,
                        interface: Undo1.objectManagerInterface, member: "InterfacesRemoved"),
        ]
        subscriptions = matches.map { match in
            connection.subscribe(match) { [unowned self] message in self.received(message) }
        }
        // undod sends the stacks' signals only while someone subscribes.
        if let subscribe = try? Undo1Call.subscribe(owner: owner) {
            connection.call(subscribe, timeoutMilliseconds: DaemonClient.callTimeoutMilliseconds) { _ in }
        }
    }

    /// undod's name changed owner: it stopped, or (re)started.
    private func daemonMoved(to newOwner: String) {
        guard newOwner != daemon else { return }
        if newOwner.isEmpty {
            for id in subscriptions { client.connection.unsubscribe(id) }
            subscriptions = []
            daemon = nil
            stacks = [:]
            let hadFocus = focused != nil
            focused = nil
            print(WatchEvent(kind: .daemon(version: nil), stack: nil, path: nil, focused: false,
                             time: SystemTime.wallMicroseconds))
            if hadFocus { emit(.focus, at: nil) }
            return
        }
        attach(newOwner)
        early = []
        resynchronise()
    }

    /// After a restart: takes a new snapshot without blocking the loop, then
    /// reports the daemon, every stack it has (`added`) and its focus.
    private func resynchronise() {
        let connection = client.connection
        guard let objects = try? Undo1Call.managedObjects(), let manager = try? Undo1Call.properties(of: nil) else {
            return
        }
        var snapshot: [StackInfo]?
        connection.call(objects, timeoutMilliseconds: DaemonClient.callTimeoutMilliseconds) { result in
            snapshot = DaemonClient.stacks(inManagedObjects: (try? result.get())?.arguments.first)
        }
        connection.call(manager, timeoutMilliseconds: DaemonClient.callTimeoutMilliseconds) {
            [unowned self] result in
            let state = ManagerProperties((try? result.get())?.arguments.first?.stringDictionary ?? [:])
            let restored = snapshot ?? []
            self.take(restored, focus: state.focusedPath)
            self.print(WatchEvent(kind: .daemon(version: state.version), stack: nil, path: nil, focused: false,
                                  time: SystemTime.wallMicroseconds))
            for stack in restored { self.emit(.added, at: stack.path) }
            self.emit(.focus, at: self.focused)
            self.drainEarly()
        }
    }

    private func take(_ snapshot: [StackInfo], focus: String?) {
        stacks = Dictionary(snapshot.map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        focused = focus
    }

    private func drainEarly() {
        let waiting = early ?? []
        early = nil
        for message in waiting { handle(message) }
    }

    // MARK: Signals

    private func received(_ message: Message) {
        guard message.sender == daemon else { return }
        if early != nil {
            early?.append(message)
        } else {
            handle(message)
        }
    }

    private func handle(_ message: Message) {
        let arguments = message.arguments
        let path = message.path ?? ""
        switch (message.interface, message.member) {
        case (Undo1.stackInterface, PushedSignal.member):
            guard let signal = PushedSignal(arguments) else { return }
            emit(.pushed(group: signal.group, name: signal.name, merged: signal.merged), at: path)
        case (Undo1.stackInterface, AppliedSignal.member):
            guard let signal = AppliedSignal(arguments) else { return }
            emit(.applied(direction: signal.direction.rawValue, group: signal.group, name: signal.name), at: path)
        case (Undo1.propertiesInterface, "PropertiesChanged"):
            let changed = arguments.dropFirst().first?.stringDictionary ?? [:]
            if path == Undo1.managerPath {
                guard let value = changed[ManagerProperties.focusedStackName]?.string else { return }
                let focus = value == ManagerProperties.noStack ? nil : value
                guard focus != focused else { return }
                focused = focus
                emit(.focus, at: focus)
            } else {
                stacks[path]?.update(changed)
            }
        case (Undo1.objectManagerInterface, "InterfacesAdded"):
            guard let added = arguments.first?.string,
                  let properties = arguments.dropFirst().first?.stringDictionary?[Undo1.stackInterface]?
                      .stringDictionary,
                  let stack = StackInfo(path: added, properties: properties) else { return }
            let known = stacks[added] != nil
            stacks[added] = stack
            if !known { emit(.added, at: added) }
        case (Undo1.objectManagerInterface, "InterfacesRemoved"):
            guard let removed = arguments.first?.string, StackPath(removed)?.number != nil else { return }
            let stack = stacks.removeValue(forKey: removed)
            print(WatchEvent(kind: .removed, stack: stack, path: removed, focused: false,
                             time: SystemTime.wallMicroseconds))
        default:
            break
        }
    }

    // MARK: Output

    private func emit(_ kind: WatchEvent.Kind, at path: String?) {
        let stack = path.flatMap { stacks[$0] }
        print(WatchEvent(kind: kind, stack: stack, path: path, focused: path != nil && path == focused,
                         time: SystemTime.wallMicroseconds))
    }

    /// The group a run of merges goes into (typing, say), the changes seen
    /// in it, and, piped, the line that sums the run up, not yet written.
    private var folding: (path: String?, group: UInt64, changes: Int, pending: String?)?
    private var flushTimer: EventLoop.Token?
    /// How long a piped run of merges may be quiet before its line is written.
    static let foldQuietMilliseconds = 1_000

    /// Text lines fold a run of merges into one group into one line with
    /// its count: on a terminal rewritten in place at each merge; piped,
    /// written once the run ends (another event, or a second of quiet).
    /// The push that began the group is written at once. JSON lines: every
    /// event, as it happens.
    private func print(_ event: WatchEvent) {
        if json { return Output.line(event.json.text) }
        let text = event.text
        guard case .pushed(let group, _, let merged) = event.kind else {
            flushFolded()
            folding = nil
            return Output.line(text)
        }
        guard merged, let last = folding, last.path == event.path, last.group == group else {
            flushFolded()
            folding = (event.path, group, 1, nil)
            return Output.line(text)
        }
        let line = text + ", \(last.changes + 1) changes"
        // A line wider than the terminal wraps and could not be rewritten.
        if Output.isTerminal, let width = Output.width(columns: nil), line.count < width {
            folding = (event.path, group, last.changes + 1, nil)
            return Output.rewriteLastLine(line)
        }
        folding = (event.path, group, last.changes + 1, line)
        flushTimer.map(client.loop.remove)
        flushTimer = client.loop.schedule(afterMilliseconds: Self.foldQuietMilliseconds) { [weak self] in
            self?.flushTimer = nil
            self?.flushFolded()
        }
    }

    /// Writes the line of a piped run of merges, if one waits.
    private func flushFolded() {
        flushTimer.map(client.loop.remove)
        flushTimer = nil
        guard let pending = folding?.pending else { return }
        folding?.pending = nil
        Output.line(pending)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Caretaker
import DBus
package import Loop
package import Logging
package import ProcessEnvironment
import Undo1
import UndoCore
import UndoStore

/// The whole daemon: config, bus, store, service, triggers and signals,
/// run on one loop until SIGTERM or SIGINT.
package final class Daemon {
    /// The daemon's version.
    package static let version = "0.1.0"

    /// What the command line chose.
    package struct Options: Sendable {
        /// `--address`: the bus to use instead of the session bus.
        package var address: String?
        /// `--config`: the config file.
        package var configPath: String?
        /// `--state-dir`: where history is stored.
        package var stateDirectory: String?
        /// `--verbose`: log routine detail.
        package var verbose = false

        /// Options with nothing chosen.
        package init() {}
    }

    private let options: Options
    private let environment: Environment
    private let log: Log
    private var exitCode: Int32 = 0

    /// A daemon that will run with `options` in `environment`.
    package init(options: Options, environment: Environment) {
        self.options = options
        self.environment = environment
        self.log = Log(verbose: options.verbose, environment: environment)
    }

    /// Runs until stopped; returns the process's exit status.
    package func run() -> Int32 {
        // A reader of our stderr or a client socket going away must not kill us.
        signal(SIGPIPE, SIG_IGN)
        let loader = ConfigLoader(explicitPath: options.configPath, environment: environment)
        let outcome: ConfigParser.Outcome
        do {
            outcome = try loader.load()
        } catch {
            log.error(.configInvalid, "invalid config: \(error)")
            return 1
        }
        for warning in outcome.warnings { log.warning(.configWarning, warning) }

        let loop = EventLoop()
        let connection: Connection
        do {
            if let address = options.address {
                connection = try Connection(address: address, loop: loop)
            } else {
                connection = try Connection.session(loop: loop, environment: environment)
            }
        } catch {
            log.error(.busUnreachable, "cannot connect to the bus: \(error.message)")
            return 1
        }

        let clock = SystemClock()
        let directory = options.stateDirectory ?? Self.defaultStateDirectory(in: environment)
        let store: any HistoryStore
        var database: SQLiteHistoryStore?
        do {
            let opened = SQLiteHistoryStore(database: try HistoryDatabase(directory: directory, now: clock.now))
            database = opened
            store = opened
        } catch where error.isReadOnly {
            store = Self.readOnlyStore(directory, error: error, log: log)
        } catch where error.isLeftAlone {
            log.error(.storeMemoryOnly, "\(error); history is kept in memory only, and nothing is written there, until the store "
                + "can be used again.")
            store = MemoryHistoryStore()
        } catch {
            log.error(.storeUnusable, "cannot use the history store: \(error)")
            return 1
        }
        if let database {
            database.whenFoldingBackFails { [log] problem in
                if let problem {
                    log.error(.foldBackFailed, "the history store's log cannot be folded back into the database "
                        + "(\(problem)): it keeps every change and grows until it can.")
                } else {
                    log.notice(.foldBackResumed, "the history store's log is folded back into the database again.")
                }
            }
        }
        connection.refusalWhenFull = { _ in
            DBusError(name: Undo1ErrorName.busy.rawValue, message: "undod holds as many large calls as it can "
                + "handle at once, so this call was not taken and nothing changed: send it again in a moment.")
        }
        let registry = StackRegistry()
        let desktop = Desktop(config: outcome.config, environment: environment, loop: loop, connection: connection, registry: registry, log: log)
        let focus = desktop.focus
        let objects = ObjectServer(connection: connection)
        let origins = CallerOrigins(connection: connection)
        let readers = SandboxedReaders(connection: connection, origins: origins, registry: registry)
        objects.readGate = readers
        // Large pushes wait while the store's WAL is made to start over, and
        // their payloads are written to files while their calls wait.
        let pushes = PushPreparation(loop: loop, store: database)
        let publisher = BusPublisher(objects: objects, readers: readers, pushes: pushes)
        let service = UndoService(settings: outcome.config.service, log: log, store: store, focus: focus, clock: clock,
                                  version: Self.version, canPersist: database != nil, registry: registry,
                                  publisher: publisher, transport: BusApplyTransport(connection: connection),
                                  scheduler: loop)
        let triggers = TriggerHandler(service: service, departed: publisher.departedOwners(of: service),
                                      config: outcome.config, connection: connection, scheduler: loop)
        triggers.focusIsAGuess = { [unowned desktop, unowned service] in
            desktop.hasDisplay && service.focus.name == "recent" || service.focus.isGuessing(in: service.registry)
        }
        let keyProblems = KeyProblemReporter(connection: connection, log: log) { [unowned triggers] in
            triggers.config.notifyEnabled
        }
        keyProblems.onChange = { [unowned objects] problem in
            objects.propertiesChanged(path: Undo1.managerPath, interface: Undo1.managerInterface,
                                      values: [ManagerProperties.keyProblemName: .string(problem)])
        }
        objects.export(path: Undo1.managerPath, interfaces: [ManagerObject.interface(
            for: service, triggers: triggers, reports: desktop.reports, keyProblems: keyProblems,
            origins: origins, departed: publisher.departedOwners(of: service))])
        objects.enableObjectManager(at: Undo1.managerPath)
        connection.onNameOwnerChanged { name, _, newOwner in
            guard newOwner.isEmpty, name.hasPrefix(":") else { return }
            service.peerLeft(name)
        }
        _ = loop.addTurnEndHook { service.endTurn() }
        do {
            try service.start()
        } catch {
            log.error(.storeUnusable, "cannot read the history store: \(error)")
            return 1
        }
        if let recovery = database?.recovery {
            log.error(.storeMovedAside, "the history store was corrupt (\(recovery.reason)); it was moved aside to "
                + "\(recovery.movedTo) and a fresh one is used.")
        }
        for note in database?.journalNotes ?? [] {
            if note.lost {
                log.error(.storeJournalLost, "the history store: \(note.text).")
            } else {
                log.notice(.storeJournal, "the history store: \(note.text).")
            }
        }
        // Before the name is ours: a SIGTERM from whoever started us as soon as
        // the name appears must find its handler.
        let session = SessionEnvironment(connection: connection, base: environment, log: log)
        session.onChange = { [unowned desktop] in desktop.takeUp($0) }
        installSignals(loop: loop, service: service, triggers: triggers, loader: loader, desktop: desktop,
                       session: session)
        do {
            guard try connection.requestName(Undo1.busName) else {
                log.error(.nameTaken, "another undod is already running on this bus")
                return 1
            }
        } catch {
            log.error(.nameRefused, "cannot take the name \(Undo1.busName): \(error.message)")
            return 1
        }

        desktop.reportStartup()
        session.refresh()
        let fire: (Direction, String) -> Void = { direction, source in triggers.fire(direction, source: source) }
        SignalTrigger().start(on: loop, fire: fire)
        desktop.startKeys(fire: fire, problems: keyProblems)
        connection.onDisconnect = { [unowned self, log] in
            log.error(.busLost, "lost the connection to the bus; stopping.")
            self.exitCode = 1
            loop.stop()
        }
        log.notice(.started, "undod \(Self.version) serves \(Undo1.busName) as \(connection.uniqueName) "
            + "(focus: \(focus.name)).")
        loop.run()
        desktop.stop()
        do {
            try service.save()
        } catch {
            log.error(.finalSaveFailed, "could not save the history on the way out: \(error)")
            exitCode = 1
        }
        store.close()
        connection.close()
        log.notice(.stopped, "stopped.")
        return exitCode
    }

    private func installSignals(loop: EventLoop, service: UndoService, triggers: TriggerHandler, loader: ConfigLoader,
                                desktop: Desktop, session: SessionEnvironment) {
        let stop: () -> Void = { [log] in
            log.notice(.stopping, "stopping.")
            loop.stop()
        }
        loop.onSignal(SIGTERM, handler: stop)
        loop.onSignal(SIGINT, handler: stop)
        loop.onSignal(SIGHUP) { [log] in
            do {
                let outcome = try loader.load()
                for warning in outcome.warnings { log.warning(.configWarning, warning) }
                desktop.reload(from: triggers.config, to: outcome.config)
                service.reload(outcome.config.service)
                triggers.config = outcome.config
                log.notice(.configReloaded, "reloaded the config from \(loader.resolvedPath() ?? "the built-in defaults").")
            } catch {
                log.error(.configNotReloaded, "the config was not reloaded, the old one stays: \(error)")
            }
            // And the desktop: one that came after undod is taken up now.
            session.refresh(always: true)
        }
    }

    /// The store for a state directory that cannot be written, or whose
    /// journal may not be written around: what is stored there is read
    /// once, and changes live in memory.
    private static func readOnlyStore(_ directory: String, error: StoreError, log: Log) -> any HistoryStore {
        let kept = "changes are kept in memory only until undod restarts and can write there."
        do {
            guard let stored = try HistoryDatabase(readingOnly: directory) else {
                log.error(.storeReadOnly, "the history store in \(directory) can only be read (\(error)): \(kept)")
                return MemoryHistoryStore()
            }
            log.error(.storeReadOnly, "the history store in \(directory) can only be read (\(error)): its stored history is read, "
                + kept)
            for note in stored.journalNotes {
                log.error(note.lost ? .storeJournalLost : .storeJournal, "the history store: \(note.text).")
            }
            return MemoryHistoryStore(startingFrom: stored)
        } catch {
            log.error(.storeReadOnly, "the history store in \(directory) can only be read, and cannot be read either (\(error)); "
                + kept)
            return MemoryHistoryStore()
        }
    }

    /// `$XDG_STATE_HOME/undod`, else `~/.local/state/undod`.
    static func defaultStateDirectory(in environment: Environment) -> String {
        if let state = environment.value("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/undod" }
        let home = environment.value("HOME") ?? "/tmp"
        return home + "/.local/state/undod"
    }

}

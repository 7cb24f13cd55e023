import Logging

/// The keys of the daemon's own lines in undod's log: its start and stop,
/// the config, the bus and the store as undod opens it (Docs/USING.md,
/// "The log").
extension LogKey {
    /// undod serves its bus name (its version, unique name and focus strategy given).
    static let started = LogKey("daemon.started")
    /// SIGTERM or SIGINT: undod is stopping.
    static let stopping = LogKey("daemon.stopping")
    /// undod stopped, its history saved.
    static let stopped = LogKey("daemon.stopped")
    /// The config is invalid at start: undod exits 1.
    static let configInvalid = LogKey("config.invalid")
    /// A problem in the config undod ignores (an unknown key, with the nearest known one).
    static let configWarning = LogKey("config.warning")
    /// SIGHUP reloaded the config (its file named).
    static let configReloaded = LogKey("config.reloaded")
    /// SIGHUP found the config invalid (file, line and key named): the old one stays.
    static let configNotReloaded = LogKey("config.not-reloaded")
    /// undod cannot connect to the bus: it exits 1.
    static let busUnreachable = LogKey("bus.unreachable")
    /// Another undod already runs on this bus: this one exits 1.
    static let nameTaken = LogKey("bus.name-taken")
    /// undod cannot take its bus name: it exits 1.
    static let nameRefused = LogKey("bus.name-refused")
    /// undod lost its connection to the bus: it stops, exit status 1.
    static let busLost = LogKey("bus.lost")
    /// The store cannot be used at start (the reason given): undod exits 1.
    static let storeUnusable = LogKey("store.unusable")
    /// The store is left as it is (a newer undod's, a link, …): history is kept in memory only.
    static let storeMemoryOnly = LogKey("store.memory-only")
    /// The state directory can only be read: the stored history is read where it can be, changes kept in memory.
    static let storeReadOnly = LogKey("store.read-only")
    /// The store was corrupt (the reason given): it was moved aside (where named) and a fresh one is used.
    static let storeMovedAside = LogKey("store.moved-aside")
    /// What the journal a stopped undod left held, as the store took it up at start.
    static let storeJournal = LogKey("store.journal")
    /// Part of the journal could not be read or used: what it held is not in view.
    static let storeJournalLost = LogKey("store.journal-lost")
    /// The store's log cannot be folded back into the database: it keeps every change and grows.
    static let foldBackFailed = LogKey("store.fold-back-failed")
    /// The store's log is folded back into the database again.
    static let foldBackResumed = LogKey("store.fold-back-resumed")
    /// The history could not be saved as undod stopped: it exits 1.
    static let finalSaveFailed = LogKey("store.final-save-failed")
}

import Undo1
import UndoCore

/// Decides what the service announces, and to whom: the stacks' signals
/// only while someone subscribes (`Subscribe`; nothing is even built
/// otherwise), the manager's always. It compares each stack's properties
/// with what it announced last and queues the announcements on the turn's
/// journal, which sends them after the replies.
final class Announcer {
    private let journal: TurnJournal
    /// The connections subscribed to the stacks' signals.
    private var subscribers: Set<String> = []
    private var announcedFocus = ManagerProperties.noStack
    private var announcedStrategy: String

    /// An announcer queueing on `journal`, starting from the focus strategy's name.
    init(journal: TurnJournal, strategy: String) {
        self.journal = journal
        announcedStrategy = strategy
    }

    /// Whether anyone gets the stacks' signals.
    var announcesStacks: Bool { !subscribers.isEmpty }

    /// `Subscribe`: `caller` gets the stacks' signals from now on (once,
    /// however often it asks). The first subscriber makes every stack's
    /// present properties the baseline of its next PropertiesChanged.
    func subscribe(_ caller: String, stacks: [StackRecord]) {
        if subscribers.isEmpty {
            for record in stacks { record.announced = record.properties }
        }
        subscribers.insert(caller)
    }

    /// `Unsubscribe`, or the subscriber left the bus.
    func unsubscribe(_ caller: String) {
        subscribers.remove(caller)
    }

    /// A stack appeared.
    func added(_ record: StackRecord) {
        record.announced = record.properties
        journal.queue(.stackAdded(path: record.path))
    }

    /// A stack went away, with the interfaces it had.
    func removed(path: String, interfaces: [String]) {
        journal.queue(.stackRemoved(path: path, interfaces: interfaces))
    }

    /// What differs in `record`'s properties from the last announcement.
    func changed(_ record: StackRecord) {
        guard announcesStacks else { return }
        let now = record.properties
        let before = record.announced
        record.announced = now
        guard now != before else { return }
        journal.queue(.stackChanged(path: record.path, now: now, before: before), unlessTakenBack: record)
    }

    /// A push recorded `result` on `record`.
    func pushed(_ record: StackRecord, _ result: PushResult, name: String) {
        guard announcesStacks else { return }
        journal.queue(.pushed(path: record.path, PushedSignal(group: result.group, name: name, merged: result.merged)),
                      unlessTakenBack: record)
    }

    /// An undo or redo on `record` was applied.
    func applied(_ record: StackRecord, _ outcome: CompletedMove) {
        guard announcesStacks else { return }
        let signal = AppliedSignal(direction: outcome.direction == .undo ? .undo : .redo, group: outcome.group,
                                   name: outcome.name)
        journal.queue(.applied(path: record.path, signal))
    }

    /// The manager's `FocusedStack` (`focusedPath`) and `FocusStrategy`
    /// (`strategy`, which `auto` may change), where they moved.
    func focus(_ focusedPath: String, strategy: String) {
        let path = focusedPath != announcedFocus ? focusedPath : nil
        let name = strategy != announcedStrategy ? strategy : nil
        guard path != nil || name != nil else { return }
        announcedFocus = focusedPath
        announcedStrategy = strategy
        journal.queue(.managerChanged(focusedStack: path, focusStrategy: name))
    }
}

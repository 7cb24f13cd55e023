import Undo1
import UndoCore

/// Decides what the service announces, and to whom: the stacks' signals
/// only while someone subscribes (`Subscribe`; nothing is even built
/// otherwise), the manager's always. It compares each stack's properties
/// with what it announced last and queues the announcements on the
/// turn's transaction, which sends them after the replies.
final class Announcer {
    private let turn: TurnTransaction
    /// The connections subscribed to the stacks' signals.
    private var subscribers: Set<String> = []
    private var announcedFocus = ManagerProperties.noStack
    private var announcedStrategy: String

    /// An announcer queueing on `turn`, starting from the focus strategy's name.
    init(turn: TurnTransaction, strategy: String) {
        self.turn = turn
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
        turn.queue(.stackAdded(path: record.path))
    }

    /// A stack went away, with the interfaces it had.
    func removed(path: String, interfaces: [String]) {
        turn.queue(.stackRemoved(path: path, interfaces: interfaces))
    }

    /// What differs in `record`'s properties from the last announcement.
    func changed(_ record: StackRecord) {
        guard announcesStacks else { return }
        let now = record.properties
        let before = record.announced
        record.announced = now
        guard now != before else { return }
        turn.queue(.stackChanged(path: record.path, now: now, before: before), unlessTakenBack: record)
    }

    /// A push recorded `result` on `record`.
    func pushed(_ record: StackRecord, _ result: PushResult, name: String) {
        guard announcesStacks else { return }
        turn.queue(.pushed(path: record.path, PushedSignal(group: result.group, name: name, merged: result.merged)),
                      unlessTakenBack: record)
    }

    /// An undo or redo on `record` was applied.
    func applied(_ record: StackRecord, _ outcome: CompletedMove) {
        guard announcesStacks else { return }
        let signal = AppliedSignal(direction: outcome.direction == .undo ? .undo : .redo, group: outcome.group,
                                   name: outcome.name)
        turn.queue(.applied(path: record.path, signal))
    }

    /// The manager's `FocusedStack` (`focusedPath`) and `FocusStrategy`
    /// (`strategy`, which `auto` may change), where they moved.
    func focus(_ focusedPath: String, strategy: String) {
        let path = focusedPath != announcedFocus ? focusedPath : nil
        let name = strategy != announcedStrategy ? strategy : nil
        guard path != nil || name != nil else { return }
        announcedFocus = focusedPath
        announcedStrategy = strategy
        turn.queue(.managerChanged(focusedStack: path, focusStrategy: name))
    }
}

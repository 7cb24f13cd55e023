import UndoCore
import UndoStore

/// What the turn's transaction needs of the service to end a turn.
protocol TurnHost: AnyObject {
    /// The counters that must never repeat, as they are now.
    var counters: StoreCounters { get }
    /// The stack numbered `number`, if it still exists.
    func record(_ number: UInt64) -> StackRecord?
    /// The settings in force for `record`.
    func settings(of record: StackRecord) -> StackSettings
    /// Puts `history` back as `record`'s, with the settings in force.
    func restore(_ record: StackRecord, to history: UndoStack)
    /// Queues the announcement of what differs from `record.announced`.
    func announce(_ record: StackRecord)
    /// A failed commit took changes back: focus may have moved.
    func turnTakenBack()
    /// Sends an announcement.
    func send(_ announcement: Announcement)
}

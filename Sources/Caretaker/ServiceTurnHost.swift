import UndoCore
import UndoStore

/// The service as the turn's `TurnHost`: the stacks, settings and
/// announcements `TurnTransaction.end` needs to end a turn, and to put
/// back what a failed commit cannot keep.
final class ServiceTurnHost: TurnHost {
    /// The service, which owns this and outlives it.
    private unowned let service: UndoService

    /// The turn's host in `service`.
    init(of service: UndoService) {
        self.service = service
    }

    var counters: StoreCounters { service.counters }

    func record(_ number: UInt64) -> StackRecord? {
        service.registry.byNumber[number]
    }

    func settings(of record: StackRecord) -> StackSettings {
        record.stackSettings(under: service.settings)
    }

    func restore(_ record: StackRecord, to history: UndoStack) {
        record.stack = history
        service.applySettings(to: record)
        service.registry.countBytes(of: record)
    }

    func announce(_ record: StackRecord) {
        service.announcer.changed(record)
    }

    func turnTakenBack() {
        service.stackFocus.announceNow()
    }

    func send(_ announcement: Announcement) {
        service.publisher.send(announcement)
    }
}

import UndoCore
import UndoStore

/// What a call must meet before the service acts on it: ids reserved on
/// disk, ownership (the per-client cap: `Registrar`; a group that fits one
/// `Apply`: `HistoryEditor.checkSendable`).
extension UndoService {
    /// While the store cannot write, hands out no stack number or group id it
    /// has not reserved on disk.
    func requireReserved(stacks: UInt64, groups: UInt64) throws(ServiceError) {
        try turn.requireReserved(StoreCounters(nextStackNumber: registry.nextNumber &+ stacks,
                                                  nextGroupID: registry.groupIDs.next &+ groups))
    }

    /// Only the stack's live owner may change it.
    func requireOwner(_ record: StackRecord, _ caller: String) throws(ServiceError) {
        guard record.isAttached, caller == record.owner else { throw .notOwner(caller: caller) }
    }
}

import UndoCore
import UndoStore

/// What a call must meet before the service acts on it: ids reserved on
/// disk, the per-client cap, ownership, a group that fits one `Apply`.
extension UndoService {
    /// While the store cannot write, hands out no stack number or group id it
    /// has not reserved on disk.
    func requireReserved(stacks: UInt64, groups: UInt64) throws(ServiceError) {
        try turn.requireReserved(StoreCounters(nextStackNumber: registry.nextNumber &+ stacks,
                                                  nextGroupID: registry.groupIDs.next &+ groups))
    }

    /// `limits.stacks_per_client`: `caller` may own one stack more.
    func requireRoomForOneMore(_ caller: String) throws(ServiceError) {
        let cap = settings.stacksPerClient
        guard cap > 0, registry.count(ownedBy: caller) >= Int(cap) else { return }
        throw .tooManyStacks(limit: cap)
    }

    /// Only the stack's live owner may change it.
    func requireOwner(_ record: StackRecord, _ caller: String) throws(ServiceError) {
        guard record.isAttached, caller == record.owner else { throw .notOwner(caller: caller) }
    }

    /// The most a group's payloads of one direction may take on the wire:
    /// `Apply` carries them in one `aay`, and D-Bus refuses an array over
    /// 64 MiB (each payload costs up to 7 bytes of framing).
    static let sendableBytes = (64 << 20) - (64 << 10)

    /// Refuses a push whose group (with the top group, when it may merge)
    /// could not be sent back to its owner in one `Apply`.
    static func checkSendable(_ actions: EncodedActions, mergingInto top: ActionGroup?) throws(ServiceError) {
        let kept = top.map { ActionCoding.directionSizes($0.encodedActions, framing: 7) } ?? (0, 0)
        let undo = kept.0 + Int(actions.undoBytes) + 7 * actions.count
        let redo = kept.1 + Int(actions.redoBytes) + 7 * actions.count
        guard max(undo, redo) <= sendableBytes else { throw .tooLargeToSend(bytes: max(undo, redo)) }
    }
}

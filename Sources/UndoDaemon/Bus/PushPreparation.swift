import Caretaker
import DBus
import Loop
import UndoCore
import UndoStore

/// What a large `Push` or `PushGroup` does before it is served, while its
/// call waits in its connection's lane (`Interface.preparing`, from
/// `StackObject`), so that the loop never writes its payloads itself:
///
/// 1. It waits while the store's WAL catches up (`HistoryDatabase`
///    holds large writes back while its WAL is made to start over; small
///    calls never wait). The store wakes it (`whenCaughtUp`).
/// 2. A push from a stack's owner, to a persistent stack, within its
///    `MaxBytes`, of a MiB or more, has its actions written to a payload
///    file on the store's own thread (`UndoService.writeAhead`); the push
///    is then served with that file, which the group's row names.
///
/// Other clients are served meanwhile; the sender's later calls wait behind
/// the push, so its order holds. Confined to the loop.
final class PushPreparation {
    private let loop: EventLoop
    /// Whether the store holds large writes back now (never, for a store
    /// that keeps no WAL).
    private let storeIsCatchingUp: () -> Bool
    /// Pushes waiting for the store to catch up, in arrival order.
    private var waitingForStore: [() -> Void] = []
    /// What to call with each file being written, by number: kept here, on
    /// the loop, so that the writer's thread holds nothing of the call (a
    /// large call's bytes are lent memory that must go back on the loop).
    private var writing: [Int: (PayloadFile?) -> Void] = [:]
    private var lastNumber = 0
    /// This preparation, for the writer's thread and the store's callback
    /// to reach on the loop without keeping it alive.
    private var onLoop: LoopBound<WeakPreparation>?

    /// Preparations on `loop` for a service whose store is `store` (nil: a
    /// store that never holds writes back).
    init(loop: EventLoop, store: SQLiteHistoryStore?) {
        self.loop = loop
        storeIsCatchingUp = { [weak store] in store?.isCatchingUp ?? false }
        let me = LoopBound(WeakPreparation(self), loop: loop)
        onLoop = me
        guard let store else { return }
        let handle = loop.handle
        store.whenCaughtUp { handle.perform { me.value.preparation?.storeMayHaveCaughtUp() } }
    }

    /// Starts preparing `call`, a `method` for `record` of `service`:
    /// true when `done` will be called, once, on the loop, with the file its
    /// actions were written to (nil: none); false when there is nothing to
    /// do ahead.
    func prepare(_ method: PushMethod, _ call: MethodCall, for record: StackRecord, of service: UndoService,
                 done: @escaping (PayloadFile?) -> Void) -> Bool {
        guard !storeIsCatchingUp() else {
            waitingForStore.append { [unowned self] in
                if !self.write(method, call, for: record, of: service, done: done) { done(nil) }
            }
            return true
        }
        return write(method, call, for: record, of: service, done: done)
    }

    /// Starts writing the push's actions to a file, when it will keep them.
    private func write(_ method: PushMethod, _ call: MethodCall, for record: StackRecord, of service: UndoService,
                       done: @escaping (PayloadFile?) -> Void) -> Bool {
        // Too large for the stack: refused by the handler, uncopied.
        guard call.byteArrayBytes(at: method.payloads, beyond: service.maxBytes(of: record)) == nil,
              let actions = method.actions(of: call), let me = onLoop else { return false }
        lastNumber += 1
        let number = lastNumber
        let handle = loop.handle
        // The writer's thread gets a number and a weak way back, never `done`.
        let started = service.writeAhead(actions, for: record, caller: call.sender) { file in
            handle.perform { me.value.preparation?.written(number, file) }
        }
        if started { writing[number] = done }
        return started
    }

    /// The file of push `number` is written (nil: it could not be).
    private func written(_ number: Int, _ file: PayloadFile?) {
        writing.removeValue(forKey: number)?(file)
    }

    /// The store says it may have caught up: the pushes waiting go on, in
    /// order, if it has.
    private func storeMayHaveCaughtUp() {
        guard !storeIsCatchingUp(), !waitingForStore.isEmpty else { return }
        let waiting = waitingForStore
        waitingForStore.removeAll()
        for go in waiting { go() }
    }

    /// The preparation, not kept alive by the store's callback.
    private struct WeakPreparation {
        weak var preparation: PushPreparation?
        init(_ preparation: PushPreparation) { self.preparation = preparation }
    }
}

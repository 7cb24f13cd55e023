import Caretaker
import DBus
import Locking
import Loop
import Undo1
import Undo1Wire
import UndoCore
import UndoStore

/// Stores a large push's payloads while its call waits in the connection's
/// lane (`Connection.prepareLargeCall`), so that the loop never writes
/// them itself: a `Push` or `PushGroup` of a MiB or more, from a stack's
/// owner, to a persistent stack, within its `MaxBytes`. Its actions are
/// read out of the message here, written to a payload file on the store's
/// own thread (`UndoService.writeAhead`), and the call is handled once the
/// file is written, with it (`MethodCall.preparation`): the group's row
/// then names the file. Other clients are served meanwhile; the sender's
/// later calls wait behind the push, so its order holds.
///
/// Confined to the loop; the writer's thread hands each file back through
/// `finished`, which a work hook empties while a call waits (added with the
/// first, removed with the last: no cost to a turn otherwise).
final class LargePushPreparer {
    private let service: UndoService
    private let loop: EventLoop
    /// Calls waiting for their file, by number.
    private var waiting: [Int: (call: MethodCall, ready: () -> Void)] = [:]
    private var lastNumber = 0
    /// Files written (or nil: not written), by call number, for the loop.
    private let finished = Lock<[(number: Int, file: PayloadFile?)]>([])
    private var hook: EventLoop.Token?

    /// A preparer for `service`'s stacks, installed on `connection`.
    init(service: UndoService, connection: Connection) {
        self.service = service
        loop = connection.loop
        connection.prepareLargeCall = { [unowned self] call, ready in self.prepare(call, ready: ready) }
    }

    deinit {
        if let hook { loop.remove(hook) }
    }

    /// Starts writing `call`'s payloads to a file when it is a large push
    /// that will keep them; false when nothing is done ahead.
    private func prepare(_ call: MethodCall, ready: @escaping () -> Void) -> Bool {
        let message = call.message
        guard message.interface == nil || message.interface == Undo1.stackInterface,
              let member = message.member, let method = PushMethod(rawValue: member),
              Undo1Interfaces.stack.methods.first(where: { $0.name == member })?.accepts(message.signature) == true,
              let path = message.path, let record = service.registry.stack(atPath: path),
              // Too large for the stack: refused by the handler, uncopied.
              call.payloadBytes(at: method.payloads, beyond: service.maxBytes(of: record)) == nil,
              let actions = method.actions(of: call).flatMap(EncodedActions.init(encoded:)) else { return false }
        lastNumber += 1
        let number = lastNumber
        let finished = finished
        let wake = loop.handle
        let started = service.writeAhead(actions, for: record, caller: call.sender) { file in
            finished.withLock { $0.append((number, file)) }
            wake.perform {}
        }
        guard started else { return false }
        waiting[number] = (call, ready)
        if hook == nil { hook = loop.addWorkHook { [unowned self] in self.deliver() } }
        return true
    }

    /// Hands each file written to its call and lets the call go (a work
    /// hook: every turn, nothing to do unless a call waits); true when one
    /// went, so that the loop turns again to handle it.
    private func deliver() -> Bool {
        guard !waiting.isEmpty else {
            if let hook { loop.remove(hook) }
            hook = nil
            return false
        }
        let done = finished.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for (number, file) in done {
            guard let entry = waiting.removeValue(forKey: number) else { continue }
            entry.call.preparation = file
            entry.ready()
        }
        return !done.isEmpty
    }
}

import Caretaker
import Logging
import DBus
import Loop

/// Catches up with an owner whose leaving undod never heard of (the
/// Trust section of `Docs/PROTOCOL.md`): a `NameOwnerChanged` the bus
/// dropped would leave its stacks owned for ever — the app, back, refused
/// `AlreadyOwned`, a stack waiting for an `Apply` answer that cannot come.
/// Where a call meets such a stack, the bus is asked whether the owner is
/// still there; if not, the service hears that it left, as the signal
/// would have said. Confined to the loop; never blocks.
final class DepartedOwners {
    private let connection: Connection
    private unowned let service: UndoService

    /// Asks the bus on `connection`; tells `service`.
    init(connection: Connection, service: UndoService) {
        self.connection = connection
        self.service = service
    }

    /// Calls `then` with true, once the service has been told, when
    /// `owner` is no longer on the bus; with false when it is (or the
    /// bus does not say).
    func ifGone(_ owner: String, then: @escaping (Bool) -> Void) {
        guard !owner.isEmpty, let message = try? Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", arguments: [.string(owner)]) else { return then(false) }
        connection.call(message, timeoutMilliseconds: 5_000) { [weak self] answer in
            guard let self, case .success(let reply) = answer, reply.arguments.first?.bool == false else {
                return then(false)
            }
            self.service.log.notice(.ownerLeftUnheard, "\(owner) left the bus without undod hearing of it: its stacks are detached now.")
            self.service.peerLeft(owner)
            then(true)
        }
    }

    /// Runs `attempt` (an undo or redo); where it is refused because its
    /// stack still waits for an `Apply` answer its owner may never send,
    /// asks whether that owner is gone and, if so (the stack detached
    /// now), runs it once more. Every way an undo or redo is asked for
    /// comes through here: a stack touched is checked.
    func serve<Value>(_ attempt: @escaping (@escaping (StackRecord?, Result<Value, ServiceError>) -> Void) -> Void,
                      then completion: @escaping (StackRecord?, Result<Value, ServiceError>) -> Void) {
        attempt { [self] record, result in
            guard case .failure(.awaitingLateAnswer) = result, let record else { return completion(record, result) }
            ifGone(record.owner) { gone in
                guard gone else { return completion(record, result) }
                attempt(completion)
            }
        }
    }
}

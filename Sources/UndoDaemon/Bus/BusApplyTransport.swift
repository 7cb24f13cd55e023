import Caretaker
import DBus
import Loop
import Undo1
import Undo1Wire

/// `Client.Apply` over the bus, to the owner's unique name: a call that
/// never blocks, whose error names become `ApplyAnswer`s.
final class BusApplyTransport: ApplyTransport {
    private let connection: Connection

    /// A transport calling out on `connection`.
    init(connection: Connection) {
        self.connection = connection
    }

    func apply(_ arguments: ApplyArguments, at owner: String, answer: @escaping (ApplyAnswer) -> Void) {
        let message: Message
        do {
            message = try Undo1Call.applyInClient(owner, arguments)
        } catch {
            // On the loop, as every answer: the applier is still starting this one.
            connection.loop.soon { answer(.failed(name: error.name, message: error.message)) }
            return
        }
        connection.call(message, timeoutMilliseconds: Connection.untilAnswered) { result in
            switch result {
            case .success:
                answer(.applied)
            case .failure(let error) where error.name == Undo1ErrorName.obsolete.rawValue:
                answer(.obsolete)
            case .failure(let error) where Self.ownerGone.contains(error.name) && !Self.cameFromApp(error, owner):
                answer(.ownerGone)
            case .failure(let error):
                answer(.failed(name: error.name, message: error.message))
            }
        }
    }

    /// Whether the owner itself answered with `error`: then it is the app's
    /// word, whatever its name (an app may answer `…Error.NoReply`), never
    /// the bus's (the owner left, nobody answers).
    private static func cameFromApp(_ error: DBusError, _ owner: String) -> Bool {
        error.sender == owner
    }

    /// Errors that mean the owner is no longer there to answer, when the
    /// bus or this connection says them.
    private static let ownerGone: Set<String> = [
        DBusError.Names.noReply, DBusError.Names.serviceUnknown, DBusError.Names.disconnected,
        DBusError.Names.nameHasNoOwner,
    ]
}

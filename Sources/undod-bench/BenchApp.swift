import DBus
import Loop
import Undo1
import Undo1Wire

/// The application side of the bench: a connection that registers stacks,
/// pushes to them, and serves `org.undod.Undo1.Client.Apply` by succeeding
/// at once (what a fast app does), counting the applies.
final class BenchApp {
    /// The app's connection.
    let connection: Connection
    /// How many `Apply` calls it has answered.
    private(set) var applies = 0
    private let objects: ObjectServer

    /// Connects to the bus at `address` and exports the client object.
    init(address: String, loop: EventLoop) throws(BenchError) {
        do {
            connection = try Connection(address: address, loop: loop)
        } catch {
            throw BenchError("Cannot connect to the private bus: \(error.message)")
        }
        objects = ObjectServer(connection: connection)
        let client = Undo1Interfaces.client.binding(methods: [
            "Apply": { [unowned self] call in
                self.applies += 1
                call.reply()
            },
        ], properties: [:])
        objects.export(path: Undo1.clientPath, interfaces: [client])
    }

    /// Registers a stack with `service` (undod, or the floor service);
    /// returns its object path.
    func register(_ appId: String, _ options: RegistrationOptions, with service: String = Undo1.busName,
                  child: ChildProcess?) throws(BenchError) -> String {
        let reply = try CallRunner.once(connection, try Calls.register(appId: appId, options: options, to: service),
                                        what: "Register(\(appId))", child: child)
        guard let path = reply.first?.string else { throw BenchError("Register(\(appId)) answered without a path.") }
        return path
    }

    /// Leaves the bus.
    func close() { connection.close() }
}

import BusHarness
import DBus
import Loop

/// A private bus, one loop, and a server and a client connection on it.
final class Fixture {
    let bus: TestBus
    let loop = EventLoop()
    let server: Connection
    let client: Connection
    let objects: ObjectServer

    init() throws {
        bus = try TestBus()
        server = try Connection(address: bus.address, loop: loop)
        client = try Connection(address: bus.address, loop: loop)
        objects = ObjectServer(connection: server)
    }

    deinit {
        client.close()
        server.close()
        bus.stop()
    }

    /// Calls `member` on the server's object at `path` and waits for the answer.
    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
              timeout: Int = 5_000) throws(DBusError) -> [DBusValue] {
        try client.callAndWait(destination: server.uniqueName, path: path, interface: interface, member: member,
                               arguments: arguments, timeoutMilliseconds: timeout)
    }

    /// Runs the loop until `condition` holds, at most `timeout` ms.
    @discardableResult
    func wait(timeout: Int = 5_000, until condition: () -> Bool) -> Bool {
        loop.run(until: condition, timeoutMilliseconds: TestTime.milliseconds(timeout))
    }
}

/// The error a throwing call raised, or nil.
func errorOf(_ body: () throws(DBusError) -> [DBusValue]) -> DBusError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

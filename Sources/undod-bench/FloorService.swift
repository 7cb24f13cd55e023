import DBus
import Loop
import Undo1

/// `undod-bench --floor-service ADDRESS`: owns `org.undod.Undo1` and answers
/// `Register`, `Push` and `PushGroup` at once, reading none of their
/// arguments and keeping nothing. `scripts/flood.py` floods it exactly as it
/// floods undod, in the same run: what a healthy client waits for then is
/// the floor — the bus relaying, libdbus reading and validating each message,
/// the event loop and the flooding clients on the same CPUs — and undod's
/// figure is read against it.
enum FloorService {
    /// Serves on the bus at `address` until killed; 1 when it cannot start.
    static func run(address: String) -> Int32 {
        let loop = EventLoop()
        let connection: Connection
        do {
            connection = try Connection(address: address, loop: loop)
            guard try connection.requestName(Undo1.busName) else {
                BenchCommand.printError("undod-bench: \(Undo1.busName) is already owned on \(address).")
                return 1
            }
        } catch {
            BenchCommand.printError("undod-bench: cannot serve on \(address): \(error.message)")
            return 1
        }
        let objects = ObjectServer(connection: connection)
        let answerGroup: (MethodCall) -> Void = { $0.reply([.uint64(1)]) }
        let stack = Undo1Interfaces.stack.binding(methods: ["Push": answerGroup, "PushGroup": answerGroup],
                                                  properties: [:])
        var stacks: UInt64 = 0
        let manager = Undo1Interfaces.manager.binding(methods: [
            "Register": { call in
                stacks += 1
                let path = StackPath(number: stacks).description
                objects.export(path: path, interfaces: [stack], announce: false)
                call.reply([.objectPath(path)])
            },
        ], properties: [:])
        objects.export(path: Undo1.managerPath, interfaces: [manager])
        loop.run()
        return 0
    }
}

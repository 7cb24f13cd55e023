import DBus
import Loop
import Undo1
import Undo1Wire
import UndoCore

/// `undod-bench --floor-service ADDRESS`: owns `org.undod.Undo1` (or the
/// name `--floor-name` gives: the bench runs it beside undod) and answers
/// `Register`, `Push` and `PushGroup` at once, reading none of their
/// arguments and keeping nothing. `scripts/flood.py` floods it exactly as it
/// floods undod, in the same run: what a healthy client waits for then is
/// the floor — the bus relaying, libdbus reading and validating each message,
/// the event loop and the flooding clients on the same CPUs — and undod's
/// figure is read against it.
///
/// It also answers `UndoFocused` as undod does on the wire, and no more: an
/// `Apply` of one 64-byte payload (what the bench pushes) to whoever
/// registered last, and once that is answered, the `(o t s)` reply. The
/// bench measures rows 1, 2, 3 and 8 on it (`RepeatPass+Floor.swift`).
enum FloorService {
    /// The name the bench's floor service owns beside undod on one bus.
    static let benchName = "org.undod.BenchFloor"

    /// Serves on the bus at `address` as `name` until killed; 1 when it cannot start.
    static func run(address: String, name: String) -> Int32 {
        let loop = EventLoop()
        let connection: Connection
        do {
            connection = try Connection(address: address, loop: loop)
            guard try connection.requestName(name) else {
                BenchCommand.printError("undod-bench: \(name) is already owned on \(address).")
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
        var lastRegistered = (owner: "", stack: "")
        let payload = [UInt8](repeating: 1, count: 64)
        let manager = Undo1Interfaces.manager.binding(methods: [
            "Register": { call in
                stacks += 1
                let path = StackPath(number: stacks).description
                objects.export(path: path, interfaces: [stack], announce: false)
                lastRegistered = (call.sender, path)
                call.reply([.objectPath(path)])
            },
            "UndoFocused": { call in
                let (owner, path) = lastRegistered
                let apply: Message
                do throws(DBusError) {
                    apply = try Undo1Call.applyInClient(owner, ApplyArguments(stack: path, group: 1, direction: .undo,
                                                                              payloads: [payload]))
                } catch {
                    call.fail(error)
                    return
                }
                connection.call(apply, timeoutMilliseconds: 10_000) { result in
                    switch result {
                    case .success: call.reply([.objectPath(path), .uint64(1), .string("Floor")])
                    case .failure(let error): call.fail(error)
                    }
                }
            },
        ], properties: [:])
        objects.export(path: Undo1.managerPath, interfaces: [manager])
        loop.run()
        return 0
    }
}

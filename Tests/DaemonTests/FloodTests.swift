import BusHarness
import DBus
import Foundation
import Testing

/// A flood of large pushes from many connections (the Trust section):
/// undod reads on whatever its lane holds, refusing what it cannot hold
/// with its own `Busy`, and serves a healthy client; an app that quits
/// during the flood is detached — its `NameOwnerChanged` heard, or, where
/// the bus dropped it, caught up with when the app comes back — and never
/// refused `AlreadyOwned` by its own stale owner; an `Apply` answered
/// during the flood moves its group once, and the next undo is the next.
///
/// Not asserted: that the bus refuses nothing. A burst that arrives faster
/// than the bus forwards it to undod (here 160 MiB from one process at
/// memory speed, against a bus queue of 128 MiB) overflows the bus's
/// queue for undod however fast undod reads; `scripts/flood.py` measures
/// the many-connection flood at the pace of real clients.
@Suite struct FloodTests {
    @Test func aFloodOfLargePushesLeavesNoStaleOwnerAndRefusesInWords() throws {
        let f = try DaemonFixture(busOutgoingLimit: 128 << 20)
        let flooders = try (0..<40).map { try f.app("org.example.Flood\($0)") }
        let leaving = try f.app("org.example.Leaving", pushing: ["Kept"])
        let healthy = try f.app("org.example.Healthy")
        // An app asked to undo before the flood answers during it.
        let answering = try f.app("org.example.Answering", pushing: ["First", "Second"])
        var asked: [MethodCall] = []
        answering.behaviour = .custom { asked.append($0) }
        let undo = try f.send(from: f.watcher, answering.stack, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { asked.count == 1 })
        let big = [UInt8](repeating: 7, count: 4 << 20)
        let pushes = try flooders.map { app in
            try f.send(from: app.connection, app.stack, "org.undod.Undo1.Stack", "Push",
                       [.string("Big"), .bytes(big), .bytes([1]), .vardict([:])])
        }
        // An app quits during the flood, and a healthy client pushes.
        let leavingStack = leaving.stack
        leaving.quit()
        asked.first?.reply()
        let small = try f.send(from: healthy.connection, healthy.stack, "org.undod.Undo1.Stack", "Push",
                               [.string("Small"), .bytes([1]), .bytes([2]), .vardict([:])])
        #expect(f.wait(timeout: 120_000) { pushes.allSatisfy(\.isDone) && small.isDone && undo.isDone })
        #expect(small.error == nil, "\(String(describing: small.error))")
        let undodsOwn = pushes.compactMap(\.error).filter { $0.name.hasPrefix("org.undod.") }
        #expect(undodsOwn.allSatisfy { $0.name == undodError("Busy") && $0.message.contains("send it again") },
                "\(undodsOwn.map(\.name))")
        // What was refused changed nothing; what was stored is there.
        for (app, push) in zip(flooders, pushes) {
            #expect(try app.property("UndoDepth") == .uint32(push.error == nil ? 1 : 0))
        }
        // The group answered during the flood was handed out once. Its
        // answer reached undod (the next undo is the group below it), or
        // the bus dropped it (the caller heard Timeout, and the stack waits
        // for an answer that may yet come: never the same group again).
        let again = try f.send(from: f.watcher, answering.stack, "org.undod.Undo1.Stack", "Undo")
        if undo.error == nil {
            #expect(f.wait { asked.count == 2 })
            asked.last?.reply()
            #expect(f.wait { again.isDone })
            #expect(asked.map { $0.arguments[1].uint64 } == [undo.values?.first?.uint64, again.values?.first?.uint64])
            #expect(again.values?.last?.string == "First", "\(String(describing: again.result))")
            #expect(try answering.property("UndoDepth") == .uint32(0))
        } else {
            #expect(undo.error?.name == undodError("Timeout"), "\(String(describing: undo.error))")
            #expect(f.wait { again.isDone })
            #expect(again.error?.name == undodError("Busy"), "\(String(describing: again.error))")
            #expect(asked.count == 1)
        }
        // The app that quit comes back: its stack is its own again, with its history.
        let back = try f.app()
        #expect(try back.register("org.example.Leaving") == leavingStack)
        #expect(try back.property("UndoName") == .string("Kept"))
    }
}

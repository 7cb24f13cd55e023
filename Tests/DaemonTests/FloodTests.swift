import BusHarness
import DBus
import Foundation
import Testing

/// A flood of large pushes from many connections (the Trust section):
/// undod reads on whatever its lane holds, refusing what it cannot hold
/// with its own `Busy`, and serves a healthy client; an app that quits
/// during the flood is detached — its `NameOwnerChanged` heard, or, where
/// the bus dropped it, caught up with when the app comes back — and never
/// refused `AlreadyOwned` by its own stale owner.
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
        let big = [UInt8](repeating: 7, count: 4 << 20)
        let pushes = try flooders.map { app in
            try f.send(from: app.connection, app.stack, "org.undod.Undo1.Stack", "Push",
                       [.string("Big"), .bytes(big), .bytes([1]), .vardict([:])])
        }
        // An app quits during the flood, and a healthy client pushes.
        let leavingStack = leaving.stack
        leaving.quit()
        let small = try f.send(from: healthy.connection, healthy.stack, "org.undod.Undo1.Stack", "Push",
                               [.string("Small"), .bytes([1]), .bytes([2]), .vardict([:])])
        #expect(f.wait(timeout: 120_000) { pushes.allSatisfy(\.isDone) && small.isDone })
        #expect(small.error == nil, "\(String(describing: small.error))")
        let undodsOwn = pushes.compactMap(\.error).filter { $0.name.hasPrefix("org.undod.") }
        #expect(undodsOwn.allSatisfy { $0.name == undodError("Busy") && $0.message.contains("send it again") },
                "\(undodsOwn.map(\.name))")
        // What was refused changed nothing; what was stored is there.
        for (app, push) in zip(flooders, pushes) {
            #expect(try app.property("UndoDepth") == .uint32(push.error == nil ? 1 : 0))
        }
        // The app that quit comes back: its stack is its own again, with its history.
        let back = try f.app()
        #expect(try back.register("org.example.Leaving") == leavingStack)
        #expect(try back.property("UndoName") == .string("Kept"))
    }
}

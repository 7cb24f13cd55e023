import BusHarness
import DBus
import Foundation
import Glibc
import Testing

/// An owner whose `NameOwnerChanged` the bus dropped (the Trust section:
/// "checked at the latest when anyone touches the stack"). The bus drops
/// it for real: undod is stopped while a client fills the bus's queue to
/// it (1 MiB here) until the bus refuses with `LimitsExceeded`, and the
/// app quits then. Each test's stack waits for an `Apply` answer that
/// can no longer come.
@Suite struct LostOwnerSignalTests {
    /// undod with a 1.5 s apply timeout on a bus that queues 1 MiB for it,
    /// and an app whose one undo timed out: its stack waits for the late
    /// answer. The app then leaves while the bus drops the news.
    private static func appLeftUnheard() throws -> (DaemonFixture, stack: String, owner: String) {
        let f = try DaemonFixture(config: "[apply]\ntimeout_ms = 1500\n", busOutgoingLimit: 1 << 20)
        let hung = try f.app("org.example.Hung", pushing: ["h1", "h2"])
        hung.behaviour = .hang
        let slow = try f.send(from: f.watcher, hung.stack, "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { slow.isDone })
        #expect(slow.error?.name == undodError("Timeout"))

        f.daemon.signal(SIGSTOP)
        let filler = try f.app()
        var calls: [Answer] = []
        var refused = false
        for _ in 0..<64 where !refused {
            let call = try f.send(from: filler.connection, "/org/undod/Undo1", "org.freedesktop.DBus.Peer", "Ping",
                                  [.bytes([UInt8](repeating: 0, count: 128 << 10))])
            calls.append(call)
            // The bus answers at once when it refuses; else the call waits in undod's queue.
            _ = f.wait(timeout: 200) { call.isDone }
            refused = call.error?.name == "org.freedesktop.DBus.Error.LimitsExceeded"
        }
        #expect(refused, "the bus's queue to undod filled")
        let owner = hung.name
        hung.quit()
        #expect(f.wait {
            (try? f.watcher.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                        arguments: [.string(owner)]).first?.bool) == false
        })
        // undod goes on, and reads what the bus queued for it: every call the bus took is answered.
        f.daemon.signal(SIGCONT)
        #expect(f.wait { calls.allSatisfy(\.isDone) })
        return (f, hung.stack, owner)
    }

    @Test func theKeyOnAStackWhoseOwnerLeftUnheardDetachesIt() throws {
        let (f, stack, owner) = try Self.appLeftUnheard()
        try f.ping()
        #expect(try f.stackProperty(stack, "Owner") == .string(owner), "undod did not hear the app leave")
        let press = errorOf { () throws(DBusError) in try f.manager("UndoFocused") }
        #expect(press?.name != undodError("Busy"), "\(String(describing: press))")
        #expect(try f.stackProperty(stack, "Owner") == .string(""))
        #expect(f.daemon.logKeyCount("owner.left-unheard", holding: owner) == 1, "\(f.daemon.log)")
    }

    @Test func anUndoOnAStackWhoseOwnerLeftUnheardDetachesIt() throws {
        let (f, stack, owner) = try Self.appLeftUnheard()
        try f.ping()
        #expect(try f.stackProperty(stack, "Owner") == .string(owner), "undod did not hear the app leave")
        let undo = errorOf { () throws(DBusError) in try f.stack(stack, "Undo") }
        #expect(undo?.name == undodError("NoOwner"), "\(String(describing: undo))")
        #expect(try f.stackProperty(stack, "Owner") == .string(""))
    }
}

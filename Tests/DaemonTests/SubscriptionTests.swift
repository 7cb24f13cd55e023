import BusHarness
import DBus
import Foundation
import Testing

/// "Who gets signals": a stack's Pushed, Applied and PropertiesChanged go out
/// only while someone is subscribed; the manager's signals always do. A
/// listener's connection receives signals in the order undod sent them, so
/// the first one it sees after subscribing proves that none came before.
@Suite struct SubscriptionTests {
    /// A connection that records undod's signals, as any listener would.
    final class Listener {
        let connection: Connection
        var signals: [(path: String, member: String, arguments: [DBusValue])] = []

        init(_ f: DaemonFixture) throws {
            connection = try Connection(address: f.bus.address, loop: f.loop)
            connection.subscribe(SignalMatch(sender: f.daemon.uniqueOwner)) { [unowned self] message in
                self.signals.append((message.path ?? "", message.member ?? "", message.arguments))
            }
            _ = try connection.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                           interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }

        func manager(_ member: String) throws {
            _ = try connection.callAndWait(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                           interface: "org.undod.Undo1.Manager", member: member)
        }

        /// The names of the Pushed signals seen, in order.
        var pushed: [String] { signals.filter { $0.member == "Pushed" }.compactMap { $0.arguments[1].string } }

        /// The stack PropertiesChanged seen, in order.
        var stackChanges: [[String: DBusValue]] {
            signals.filter { $0.member == "PropertiesChanged" && $0.path.hasPrefix("/org/undod/Undo1/stack/") }
                .map { $0.arguments.dropFirst().first?.stringDictionary ?? [:] }
        }
    }

    @Test func theFirstSignalAListenerSeesIsMadeAfterItSubscribed() throws {
        let f = try DaemonFixture()
        let listener = try Listener(f)
        let app = try f.app("org.example.Sub", pushing: ["Before"])
        try listener.manager("Subscribe")
        try app.push("After")
        #expect(f.wait { listener.pushed == ["After"] })
        #expect(listener.pushed.first == "After", "no signal for the push made before the subscription")
        #expect(listener.stackChanges.first?["UndoDepth"] == .uint32(2), "the first change announced is the second push's")
        _ = try app.call("Undo")
        #expect(f.wait { listener.signals.contains { $0.member == "Applied" } })
    }

    @Test func subscribingTwiceCountsOnceAndUnsubscribeEndsIt() throws {
        let f = try DaemonFixture()
        let listener = try Listener(f)
        let app = try f.app("org.example.Unsub")
        try listener.manager("Subscribe")
        try listener.manager("Subscribe")
        try app.push("One")
        try listener.manager("Unsubscribe")
        try app.push("Two")
        try listener.manager("Unsubscribe")
        try listener.manager("Subscribe")
        try app.push("Three")
        #expect(f.wait { listener.pushed.count == 2 })
        #expect(listener.pushed == ["One", "Three"])
    }

    @Test func aSubscriberLeavingTheBusEndsItsSubscription() throws {
        let f = try DaemonFixture()
        let leaving = try Listener(f)
        try leaving.manager("Subscribe")
        let listener = try Listener(f)
        let app = try f.app("org.example.Left")
        var gone = false
        listener.connection.subscribe(.nameOwnerChanged(name: leaving.connection.uniqueName)) { message in
            if message.arguments.last?.string == "" { gone = true }
        }
        _ = try listener.connection.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                interface: "org.freedesktop.DBus.Peer", member: "Ping")
        leaving.connection.close()
        // Once the bus has said the subscriber left, it has said so to undod
        // before it carries the next push there.
        #expect(f.wait { gone })
        try app.push("Unseen")
        try listener.manager("Subscribe")
        try app.push("Seen")
        #expect(f.wait { listener.pushed == ["Seen"] })
        #expect(listener.pushed.first == "Seen")
    }

    @Test func theManagersSignalsNeedNoSubscription() throws {
        let f = try DaemonFixture()
        let listener = try Listener(f)
        let app = try f.app("org.example.Manager", pushing: ["One"])
        #expect(f.wait {
            listener.signals.contains { $0.member == "InterfacesAdded" }
                && listener.signals.contains { $0.path == "/org/undod/Undo1" && $0.member == "PropertiesChanged" }
        })
        app.quit()
        _ = try f.manager("Forget", [.objectPath(app.stack)])
        #expect(f.wait { listener.signals.contains { $0.member == "InterfacesRemoved" } })
        #expect(listener.pushed.isEmpty && listener.stackChanges.isEmpty, "no stack signal without a subscriber")
    }
}

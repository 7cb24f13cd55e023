import BusHarness
import DBus
import Foundation
import Testing

/// `org.undod.Undo1.Stack`, end to end.
@Suite struct StackTests {
    @Test func pushUndoRedoInTheRightOrderWithSignals() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        let app = try f.app("org.example.Editor")
        let group = try #require(try app.call("PushGroup", [
            .string("Paste"),
            .array(element: "(ayay)", [
                .structure([.bytes([1]), .bytes([11])]),
                .structure([.bytes([2]), .bytes([12])]),
                .structure([.bytes([3]), .bytes([13])]),
            ]),
            .vardict([:]),
        ]).first?.uint64)
        #expect(group != 0)
        #expect(try app.property("UndoName") == .string("Paste"))
        #expect(try app.property("CanUndo") == .bool(true))
        #expect(try app.property("Bytes") == .uint64(48), "three actions of 2 bytes count 16 each")
        let listed = try f.stack(app.stack, "History").first?.elements?.first?.fields?.last
        #expect(listed == .uint64(6), "History reports the payload bytes alone")

        // A third party asks for the undo; the owner applies it.
        #expect(try f.stack(app.stack, "Undo") == [.uint64(group), .string("Paste")])
        #expect(app.applied == [.init(stack: app.stack, group: group, direction: "undo", payloads: [[3], [2], [1]])],
                "undo payloads come last action first")
        #expect(try app.property("CanRedo") == .bool(true))
        #expect(try app.property("RedoName") == .string("Paste"))
        #expect(try f.stack(app.stack, "Redo") == [.uint64(group), .string("Paste")])
        #expect(app.applied.last?.payloads == [[11], [12], [13]], "redo payloads come first action first")

        #expect(f.wait {
            signals.arguments(of: "Applied").count == 2 && !signals.arguments(of: "Pushed").isEmpty
        })
        #expect(signals.arguments(of: "Pushed") == [[.uint64(group), .string("Paste"), .bool(false)]])
        #expect(signals.arguments(of: "Applied") == [
            [.string("undo"), .uint64(group), .string("Paste")], [.string("redo"), .uint64(group), .string("Paste")],
        ])
        let changes = signals.entries.filter { $0.member == "PropertiesChanged" && $0.path == app.stack }
        #expect(changes.contains { $0.arguments.dropFirst().first?.stringDictionary?["CanRedo"] == .bool(true) })
        #expect(changes.contains { $0.arguments.dropFirst().first?.stringDictionary?["UndoDepth"] == .uint32(1) })
    }

    @Test func everyPropertyIsReadableAndTrue() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", pushing: [],
                            options: ["document": .string("a.txt"), "title": .string("Editor"),
                                      "limit": .uint32(7), "max_bytes": .uint64(1_000), "persist": .bool(false),
                                      "global_trigger": .bool(true)])
        try app.push("Typing", undo: [1, 2, 3], redo: [4])
        let all = try app.connection.callAndWait(
            destination: "org.undod.Undo1", path: app.stack, interface: "org.freedesktop.DBus.Properties",
            member: "GetAll", arguments: [.string("org.undod.Undo1.Stack")]).first?.stringDictionary
        let expected: [String: DBusValue] = [
            "AppId": .string("org.example.Editor"), "Document": .string("a.txt"), "Title": .string("Editor"),
            "Owner": .string(app.name), "CanUndo": .bool(true), "CanRedo": .bool(false),
            "UndoName": .string("Typing"), "RedoName": .string(""), "UndoDepth": .uint32(1), "RedoDepth": .uint32(0),
            "Limit": .uint32(7), "Bytes": .uint64(16), "MaxBytes": .uint64(1_000), "Clean": .bool(false),
            "Persistent": .bool(false), "GlobalTrigger": .bool(true),
        ]
        #expect(all == expected)
    }

    @Test func historyIsTopFirstWithIdsTimesAndSizes() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor")
        let first = try app.push("One", undo: [1], redo: [1, 1])
        let second = try app.push("Two", undo: [2, 2, 2], redo: [])
        #expect(second > first, "group ids increase")
        _ = try app.call("Undo")
        let history = try f.stack(app.stack, "History")
        let undo = history.first?.elements?.compactMap(\.fields) ?? []
        let redo = history.last?.elements?.compactMap(\.fields) ?? []
        #expect(undo.map { $0[0] } == [.uint64(first)])
        #expect(undo.first?[1] == .string("One"))
        #expect(undo.first?[3] == .uint64(3))
        #expect(redo.map { $0[0] } == [.uint64(second)])
        #expect(redo.first?[3] == .uint64(3))
        let time = undo.first?[2].int64 ?? 0
        #expect(time > 1_700_000_000_000_000, "times are µs since the epoch")
        // Redo invalidation: a push empties the redo side.
        try app.push("Three")
        #expect(try app.property("RedoDepth") == .uint32(0))
        #expect(try f.stack(app.stack, "History").last?.elements?.isEmpty == true)
    }

    @Test func mergingCoalescesIntoTheTopGroup() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        let app = try f.app("org.example.Editor")
        let hints: [String: DBusValue] = ["merge_key": .string("typing"), "merge_window_ms": .uint32(60_000)]
        let first = try app.push("Type a", undo: [1], redo: [1], hints: hints)
        let second = try app.push("Type ab", undo: [2], redo: [2], hints: hints)
        #expect(second == first, "a merged push keeps the group id")
        #expect(try app.property("UndoDepth") == .uint32(1))
        #expect(try app.property("UndoName") == .string("Type ab"))
        _ = try app.call("Undo")
        #expect(app.applied.first?.payloads == [[2], [1]], "one undo reverts both")
        _ = try app.call("Redo")
        let third = try app.push("Type abc", undo: [3], redo: [3], hints: hints)
        #expect(third != first, "no merge after an undo or redo")
        #expect(f.wait { signals.arguments(of: "Pushed").count == 3 })
        #expect(signals.arguments(of: "Pushed").map { $0.last } == [.bool(false), .bool(true), .bool(false)])
    }

    @Test func limitsDropTheOldestAndRefuseTooLargeGroups() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", options: ["limit": .uint32(3), "max_bytes": .uint64(80)])
        var ids: [UInt64] = []
        for n in 1...5 { ids.append(try app.push("\(n)", undo: [1], redo: [1])) }
        #expect(try app.property("UndoDepth") == .uint32(3))
        let history = try f.stack(app.stack, "History").first?.elements?.compactMap { $0.fields?.first } ?? []
        #expect(history == ids.suffix(3).reversed().map(DBusValue.uint64))
        try app.push("big", undo: [UInt8](repeating: 0, count: 32), redo: [UInt8](repeating: 0, count: 32))
        #expect(try app.property("Bytes") == .uint64(80), "the byte limit dropped the oldest groups")
        #expect(try app.property("UndoDepth") == .uint32(2))
        let before = try f.stack(app.stack, "History")
        let tooLarge = errorOf { () throws(DBusError) in
            try app.push("huge", undo: [UInt8](repeating: 0, count: 41), redo: [UInt8](repeating: 0, count: 40))
        }
        #expect(tooLarge?.name == undodError("PayloadTooLarge"))
        #expect(tooLarge?.message.contains("stack") == true)
        #expect(try f.stack(app.stack, "History") == before, "a refused push changes nothing")
    }

    @Test func aGroupTooLargeForOneApplyIsRefused() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", options: ["max_bytes": .uint64(200 << 20)])
        let half = [UInt8](repeating: 7, count: 33 << 20)
        let hints: [String: DBusValue] = ["merge_key": .string("k"), "merge_window_ms": .uint32(600_000)]
        try app.push("first", undo: half, redo: [], hints: hints)
        let before = try f.stack(app.stack, "History")
        let error = errorOf { () throws(DBusError) in try app.push("second", undo: half, redo: [], hints: hints) }
        #expect(error?.name == undodError("PayloadTooLarge"))
        #expect(error?.message.contains("D-Bus message") == true)
        #expect(try f.stack(app.stack, "History") == before)
        _ = try app.call("Undo")
        #expect(app.applied.first?.payloads.first?.count == half.count, "what was kept can still be applied")
    }

    /// A push of more than a MiB is read in place from the bytes it arrived
    /// in (`Message(received:)`, `WireDecoder`): its name,
    /// hints and both payloads arrive byte for byte, and a second one
    /// merges by its key.
    @Test func aPushOverAMiBArrivesByteForByte() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Big", options: ["max_bytes": .uint64(64 << 20)])
        let undo = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let redo = (0..<((1 << 20) + 5)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        let hints: [String: DBusValue] = ["merge_key": .string("k"), "merge_window_ms": .uint32(600_000)]
        try app.push("Big one", undo: undo, redo: redo, hints: hints)
        try app.push("Big two", undo: redo, redo: undo, hints: hints)
        #expect(try f.stackProperty(app.stack, "UndoDepth")?.uint32 == 1, "merged by its key")
        _ = try app.call("Undo")
        #expect(app.applied.last?.payloads == [redo, undo], "the undo payloads, last first")
        _ = try app.call("Redo")
        #expect(app.applied.last?.payloads == [redo, undo], "the redo payloads, first first")
        #expect(try f.stackProperty(app.stack, "UndoName")?.string == "Big two")
    }

    @Test func badGroupsAreRefusedWithNamedErrors() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", pushing: ["ok"])
        let before = try f.stack(app.stack, "History")
        for name in ["", String(repeating: "n", count: 257), "tab\there", "line\nbreak"] {
            let error = errorOf { () throws(DBusError) in try app.push(name) }
            #expect(error?.name == undodError("InvalidName"), "name \(name.debugDescription)")
        }
        let empty = errorOf { () throws(DBusError) in
            try app.call("PushGroup", [.string("Nothing"), .array(element: "(ayay)", []), .vardict([:])])
        }
        #expect(empty?.name == undodError("EmptyGroup"))
        let badHint = errorOf { () throws(DBusError) in try app.push("x", hints: ["merge_key": .uint32(1)]) }
        #expect(badHint?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let longTag = errorOf { () throws(DBusError) in
            try app.push("x", hints: ["state_tag": .string(String(repeating: "t", count: 4_097))])
        }
        #expect(longTag?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try f.stack(app.stack, "History") == before)
        try app.push(String(repeating: "n", count: 256))
    }

    @Test func onlyTheOwnerChangesTheStack() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor", pushing: ["ok"])
        let calls: [(String, [DBusValue])] = [
            ("Push", [.string("x"), .bytes([1]), .bytes([1]), .vardict([:])]),
            ("PushGroup", [.string("x"), .array(element: "(ayay)", [.structure([.bytes([1]), .bytes([])])]), .vardict([:])]),
            ("SetClean", []), ("Activate", []), ("Clear", []), ("Close", [.bool(true)]),
        ]
        for (member, arguments) in calls {
            let error = errorOf { () throws(DBusError) in try f.stack(app.stack, member, arguments) }
            #expect(error?.name == undodError("NotOwner"), "\(member) by a stranger")
        }
        #expect(try app.property("UndoDepth") == .uint32(1))
        #expect(try app.property("Owner") == .string(app.name))
    }

    @Test func nothingToUndoOrRedo() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor")
        let undo = errorOf { () throws(DBusError) in try f.stack(app.stack, "Undo") }
        #expect(undo?.name == undodError("NothingToUndo"))
        #expect(undo?.message.contains("org.example.Editor") == true, "the sentence names the stack")
        let redo = errorOf { () throws(DBusError) in try f.stack(app.stack, "Redo") }
        #expect(redo?.name == undodError("NothingToRedo"))
        #expect(app.applied.isEmpty)
    }

    @Test func cleanFollowsTheSavedState() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Editor")
        #expect(try app.property("Clean") == .bool(true), "a new stack is clean")
        try app.push("1")
        #expect(try app.property("Clean") == .bool(false))
        _ = try app.call("SetClean")
        #expect(try app.property("Clean") == .bool(true))
        _ = try app.call("Undo")
        #expect(try app.property("Clean") == .bool(false))
        _ = try app.call("Redo")
        #expect(try app.property("Clean") == .bool(true), "clean again when the saved state is reached")
        _ = try app.call("Undo")
        try app.push("2")
        #expect(try app.property("Clean") == .bool(false))
        _ = try app.call("Undo")
        #expect(try app.property("Clean") == .bool(false), "the saved state was discarded with the redo side")
        _ = try app.call("Clear")
        #expect(try app.property("Clean") == .bool(true), "a cleared stack is clean")
        #expect(try app.property("UndoDepth") == .uint32(0))
        #expect(try app.property("RedoDepth") == .uint32(0))
    }

    @Test func closeKeepsOrDiscards() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        let app = try f.app("org.example.Editor", pushing: ["1"])
        let kept = app.stack
        _ = try app.call("Close", [.bool(false)])
        #expect(try app.property("Owner", on: kept) == .string(""))
        let noOwner = errorOf { () throws(DBusError) in try f.stack(kept, "Undo") }
        #expect(noOwner?.name == undodError("NoOwner"))
        let notOwner = errorOf { () throws(DBusError) in try app.push("again") }
        #expect(notOwner?.name == undodError("NotOwner"), "a closed stack is no longer the caller's")
        #expect(try app.register("org.example.Editor") == kept, "Register adopts it back")
        #expect(try app.property("UndoDepth") == .uint32(1))
        _ = try app.call("Close", [.bool(true)])
        #expect(f.wait { signals.arguments(of: "InterfacesRemoved").contains { $0.first == .objectPath(kept) } })
    }
}

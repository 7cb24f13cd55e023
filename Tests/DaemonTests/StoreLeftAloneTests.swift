import BusHarness
import DBus
import Foundation
import Testing

/// A store undod must not touch: one a newer undod wrote (going back one
/// version after an upgrade must not lose the history from view), and a
/// symbolic link in the store's place (never followed). undod runs with
/// history in memory only, and the file stays byte for byte as it was.
@Suite struct StoreLeftAloneTests {
    /// Every file of the state directory and its bytes, payload files
    /// included (a link: its target's path).
    static func snapshot(_ directory: URL, prefix: String = "") throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name != "lock" {
            let path = directory.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                files[prefix + name] = Data("link to \(target)".utf8)
            } else if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                files[prefix + name] = Data("a directory".utf8)
                files.merge(try snapshot(URL(fileURLWithPath: path), prefix: prefix + name + "/")) { $1 }
            } else {
                files[prefix + name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    /// Stops undod cleanly, runs `change` on the state directory, and
    /// starts undod again there.
    static func restart(_ f: DaemonFixture, after change: (URL) throws -> Void) throws {
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        try change(f.daemon.stateDirectory)
        f.daemon = try DaemonProcess(bus: f.bus, loop: f.loop, watcher: f.watcher, stateDirectory: f.daemon.stateDirectory)
    }

    @Test func aStoreFromANewerUndodIsLeftByteForByteUntouched() throws {
        let f = try DaemonFixture()
        let app = try f.app("org.example.Kept", pushing: ["Before the downgrade"])
        // A large push: its payload file is part of the store.
        try app.push("Large", undo: [UInt8](repeating: 5, count: 2 << 20), redo: [])
        app.quit()
        var before: [String: Data] = [:]
        try Self.restart(f) { directory in
            let store = directory.appendingPathComponent("history.sqlite3").path
            // What a newer undod's schema looks like to this one.
            let bumped = try runTool(["/usr/bin/python3", "-c", """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1]); db.execute("PRAGMA user_version = 99"); db.commit(); db.close()
                """, store])
            #expect(bumped.status == 0, "\(bumped.errors)")
            before = try Self.snapshot(directory)
        }
        #expect(f.waitForLogKey("store.memory-only", holding: "schema 99"), "\(f.daemon.log)")
        #expect(f.daemon.logKeyCount("store.moved-aside") == 0, "a newer store is not corrupt")
        // undod serves, in memory.
        let new = try f.app("org.example.New", pushing: ["In memory"])
        #expect(try f.stackProperty(new.stack, "Persistent") == .bool(false))
        try Self.restart(f) { _ in }
        #expect(try Self.snapshot(f.daemon.stateDirectory) == before, "nothing written, nothing moved aside")
        #expect(before.keys.contains { $0.hasPrefix("payloads/") }, "the payload file was there: \(before.keys)")
    }

    @Test func aLinkInTheStoresPlaceIsNeverFollowed() throws {
        let f = try DaemonFixture()
        let target = f.bus.directory.appendingPathComponent("elsewhere.sqlite3")
        try Data("the user's own file".utf8).write(to: target)
        try Self.restart(f) { directory in
            let store = directory.appendingPathComponent("history.sqlite3")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            try FileManager.default.createSymbolicLink(at: store, withDestinationURL: target)
        }
        #expect(f.waitForLogKey("store.memory-only", holding: "history.sqlite3"), "\(f.daemon.log)")
        let app = try f.app("org.example.A", pushing: ["In memory"])
        #expect(try f.stackProperty(app.stack, "Persistent") == .bool(false))
        try Self.restart(f) { _ in }
        #expect(try Data(contentsOf: target) == Data("the user's own file".utf8), "the link's target is unchanged")
        #expect(try FileManager.default.destinationOfSymbolicLink(
            atPath: f.daemon.stateDirectory.appendingPathComponent("history.sqlite3").path) == target.path)
    }
}

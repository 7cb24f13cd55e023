import Dispatch
import Foundation
import Testing
import UndoStore

/// A store is private from its first byte (its files 0600, its folders
/// 0700, even inside a folder others may read), and opening one never
/// touches the process's umask, which every thread shares: stores opened on
/// several threads at once once left it 0077 for good.
@Suite struct StorePrivacyTests {
    @Test func aNewStoresFilesAreTheUsersAlone() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("undod-privacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("state").path
        let database = try HistoryDatabase(directory: directory, now: 1)
        try JournalTests.commit(database, groups: 1...2)
        for name in ["history.sqlite3", "history.sqlite3-wal", "history.sqlite3-shm", "history.journal", "lock"] {
            #expect(try Self.mode(directory + "/" + name) == 0o600, "\(name)")
        }
        #expect(try Self.mode(directory) == 0o700)
        #expect(try Self.mode(directory + "/payloads") == 0o700)
        withExtendedLifetime(database) {}
    }

    @Test func openingStoresOnManyThreadsLeavesTheUmaskAlone() throws {
        let before = try Self.umask()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("undod-umask-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let failures = Failures()
        let seen = Failures()
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            do {
                _ = try HistoryDatabase(directory: root.appendingPathComponent("\(index)").path, now: 1)
                let now = try Self.umask()
                if now != before { seen.add("umask \(String(now, radix: 8)) while stores opened") }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(seen.all.isEmpty, "the umask changed under other threads")
        #expect(try Self.umask() == before)
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// The process's umask, read without setting it (`/proc/self/status`).
    static func umask() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return value
    }

    /// Sentences gathered from several threads.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var sentences: [String] = []
        func add(_ sentence: String) { lock.withLock { sentences.append(sentence) } }
        var all: [String] { lock.withLock { sentences } }
    }
}

import BusHarness
import DBus
import Foundation
import Locking
import Loop
import UndoKit

/// A private bus with the built undod on it, for UndoKit to connect to as an
/// application would. The fixture's own loop and connection only start and
/// stop undod and read what it holds, on a thread of their own (the test's
/// task moves between threads); UndoKit runs its own thread.
final class KitFixture: @unchecked Sendable {
    // @unchecked: `watcher` and `daemon` are touched only inside `onLoop`.
    let bus: TestBus
    private let loopThread = LoopThread()
    private var watcher: Connection!
    private var daemon: DaemonProcess!

    /// undod with `config`, after a patient `[apply] timeout_ms`: UndoKit
    /// starts an async apply handler in a Task, which needs a thread of
    /// Swift's cooperative pool; the test process runs synchronous tests on
    /// that pool (two threads on two cores), and a long desktop test holds
    /// one, so a handler may wait seconds to start. The timeout itself is
    /// not what these tests prove (DaemonTests do, with a client of their own).
    init(config: String = "") throws {
        bus = try TestBus()
        try loopThread.sync { loop in
            watcher = try Connection(address: bus.address, loop: loop)
            daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher,
                                       config: "[apply]\ntimeout_ms = 60000\n" + config)
        }
    }

    deinit {
        loopThread.sync { _ in
            watcher.close()
            daemon.stop()
        }
        bus.stop()
    }

    /// Runs `body` on the fixture's loop thread.
    private func onLoop<T>(_ body: (EventLoop) throws -> T) rethrows -> T {
        try loopThread.sync(body)
    }

    /// A new UndoKit client on the fixture's bus.
    func client() throws(UndoKitError) -> UndoClient {
        try UndoClient(address: bus.address)
    }

    /// Kills undod (SIGKILL) and starts it again on the same bus and state.
    func restart() throws {
        try onLoop { loop in
            daemon.crash(loop: loop, watcher: watcher)
            daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher,
                                       config: try String(contentsOf: daemon.configFile, encoding: .utf8),
                                       stateDirectory: daemon.stateDirectory)
        }
    }

    /// The names of the groups of the stack at `path`, oldest first, read
    /// as a third party (`History`).
    func groupNames(_ path: String) throws -> [String] {
        let history = try onLoop { _ in
            try watcher.callAndWait(destination: "org.undod.Undo1", path: path,
                                    interface: "org.undod.Undo1.Stack", member: "History")
        }
        return (history.first?.elements ?? []).reversed().compactMap { $0.fields?[1].string }
    }

    /// Waits (at most 10 s) until the stack at `path` has no live owner,
    /// reading its `Owner` property as a third party.
    func waitUntilDetached(_ path: String) -> Bool {
        onLoop { loop in
            for _ in 0..<500 {
                let owner = try? watcher.callAndWait(destination: "org.undod.Undo1", path: path,
                                                     interface: "org.freedesktop.DBus.Properties", member: "Get",
                                                     arguments: [.string("org.undod.Undo1.Stack"), .string("Owner")])
                if owner?.first?.variantValue?.string == "" { return true }
                loop.run(until: { false }, timeoutMilliseconds: 20)
            }
            return false
        }
    }

    /// Stops undod for good (SIGKILL), waiting until its name has left.
    func stopDaemon() {
        onLoop { loop in daemon.crash(loop: loop, watcher: watcher) }
    }
}

/// What an apply handler was asked, in order.
final class Applied: Sendable {
    private let requests = Lock<[ApplyRequest]>([])

    /// Records `request`.
    func add(_ request: ApplyRequest) { requests.withLock { $0.append(request) } }

    /// Everything recorded.
    var all: [ApplyRequest] { requests.withLock { $0 } }

    /// The payloads of each request as text.
    var texts: [[String]] { all.map { $0.payloads.map { String(decoding: $0, as: UTF8.self) } } }
}

/// The bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The error `body` threw, or nil.
func kitError<T>(isolation: isolated (any Actor)? = #isolation,
                 _ body: () async throws(UndoKitError) -> T) async -> UndoKitError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

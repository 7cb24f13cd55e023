import BusHarness
import DBus
import Foundation
import Synchronization
import UndoKit

/// A private bus with the built undod on it, for UndoKit to connect to as an
/// application would. The fixture's own loop and connection only start and
/// stop undod; UndoKit runs its own thread.
final class KitFixture: @unchecked Sendable {
    // @unchecked: used from one test task at a time; the loop runs only
    // inside the fixture's own synchronous calls.
    let bus: TestBus
    let loop = EventLoop()
    let watcher: Connection
    private(set) var daemon: DaemonProcess

    init(config: String = "") throws {
        bus = try TestBus()
        watcher = try Connection(address: bus.address, loop: loop)
        daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher, config: config)
    }

    deinit {
        watcher.close()
        daemon.stop()
        bus.stop()
    }

    /// A new UndoKit client on the fixture's bus.
    func client() throws(UndoKitError) -> UndoClient {
        try UndoClient(address: bus.address)
    }

    /// Kills undod (SIGKILL) and starts it again on the same bus and state.
    func restart() throws {
        daemon.crash(loop: loop, watcher: watcher)
        daemon = try DaemonProcess(bus: bus, loop: loop, watcher: watcher,
                                   config: try String(contentsOf: daemon.configFile, encoding: .utf8),
                                   stateDirectory: daemon.stateDirectory)
    }

    /// Waits (at most 10 s) until the stack at `path` has no live owner,
    /// reading its `Owner` property as a third party.
    func waitUntilDetached(_ path: String) -> Bool {
        for _ in 0..<500 {
            let owner = try? watcher.callAndWait(destination: "org.undod.Undo1", path: path,
                                                 interface: "org.freedesktop.DBus.Properties", member: "Get",
                                                 arguments: [.string("org.undod.Undo1.Stack"), .string("Owner")])
            if owner?.first?.variantValue?.string == "" { return true }
            loop.run(until: { false }, timeoutMilliseconds: 20)
        }
        return false
    }

    /// Stops undod for good (SIGKILL), waiting until its name has left.
    func stopDaemon() {
        daemon.crash(loop: loop, watcher: watcher)
    }
}

/// What an apply handler was asked, in order.
final class Applied: Sendable {
    private let requests = Mutex<[ApplyRequest]>([])

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

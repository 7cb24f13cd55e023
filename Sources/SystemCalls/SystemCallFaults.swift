import Locking
internal import Synchronization

/// Failures a test puts in the way of system calls (`SystemCall`), in its
/// own process: each `Fault` fails one operation on files under one
/// directory, so that the other tests running in the same process meet
/// none. A call on an fd counts as on the path it was opened from (every
/// fd opened through `SystemCall.open`/`openat` is remembered until
/// `SystemCall.close`). When none is armed, a call costs one atomic load. For tests: the real binary
/// never arms one, and a test that runs it under strace (`FaultInjection`)
/// shows it behaves the same.
public enum SystemCallFaults {
    /// One failure to put in: `operation` on a path under `directory`
    /// fails with `errno`, once `skipping` such calls have gone through,
    /// `times` times (nil: every time).
    public struct Fault: Sendable {
        /// The call that fails.
        public var operation: SystemCall.Operation
        /// Where: a path under this directory (it ends in `/`), or the
        /// directory itself.
        public var directory: String
        /// How it fails.
        public var errno: Errno
        /// How many such calls go through first.
        public var skipping: Int
        /// How many then fail (nil: every one).
        public var times: Int?

        /// A fault as the fields say.
        public init(_ operation: SystemCall.Operation, under directory: String, errno: Errno, skipping: Int = 0,
                    times: Int? = nil) {
            self.operation = operation
            self.directory = directory.hasSuffix("/") ? directory : directory + "/"
            self.errno = errno
            self.skipping = skipping
            self.times = times
        }
    }

    /// A fault armed, to disarm.
    public struct Armed: Hashable, Sendable {
        let id: Int
    }

    private struct State {
        var faults: [Int: Fault] = [:]
        var lastID = 0
        /// The paths of the fds open (opened through `SystemCall`).
        var paths: [Int32: String] = [:]
    }

    /// A pthread mutex (`Lock`), not `Mutex`: ThreadSanitizer sees its
    /// locking, and the tests that arm faults run beside threads that open files.
    private static let state = Lock(State())
    private static let armedCount = Atomic<Int>(0)

    /// Whether any fault is armed (the one check a call makes otherwise).
    static var areArmed: Bool { armedCount.load(ordering: .acquiring) > 0 }

    /// Arms `fault` until `disarm`.
    public static func arm(_ fault: Fault) -> Armed {
        let id = state.withLock { state in
            state.lastID += 1
            state.faults[state.lastID] = fault
            return state.lastID
        }
        armedCount.add(1, ordering: .releasing)
        return Armed(id: id)
    }

    /// Disarms `armed`.
    public static func disarm(_ armed: Armed) {
        let removed = state.withLock { $0.faults.removeValue(forKey: armed.id) != nil }
        if removed { armedCount.subtract(1, ordering: .releasing) }
    }

    /// The failure `operation` meets on `fd` or `path`, if a fault says so
    /// (its count of calls let through, or left to fail, moved on).
    static func fault(for operation: SystemCall.Operation, fd: Int32, path: String?) -> Errno? {
        state.withLock { state in
            guard let path = path ?? state.paths[fd] else { return nil }
            for (id, fault) in state.faults.sorted(by: { $0.key < $1.key })
            where fault.operation == operation && (path.hasPrefix(fault.directory) || path + "/" == fault.directory) {
                if fault.skipping > 0 {
                    state.faults[id]?.skipping -= 1
                    continue
                }
                if let times = fault.times {
                    guard times > 0 else { continue }
                    state.faults[id]?.times = times - 1
                }
                return fault.errno
            }
            return nil
        }
    }

    /// `fd` was opened from `path`: remembered until it is closed, so that
    /// a fault armed later reaches it (files are opened rarely: a lock).
    static func opened(_ fd: Int32, path: String) {
        state.withLock { $0.paths[fd] = path }
    }

    /// `fd` is closed: forgotten.
    static func closed(_ fd: Int32) {
        _ = state.withLock { $0.paths.removeValue(forKey: fd) }
    }
}

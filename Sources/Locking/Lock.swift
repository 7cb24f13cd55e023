#if canImport(Glibc)
import Glibc
#endif

/// A value guarded by a lock, reached only inside `withLock`: the shape of
/// `Synchronization.Mutex`, over a pthread mutex. On Linux `Mutex` locks
/// with futex(2) directly, which ThreadSanitizer does not model, so
/// `make sanitize` saw every access inside its `withLock` as a race; a
/// pthread mutex it sees, so its reports stay true.
public final class Lock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched between lock and unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock guarding `value`.
    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; returns what it returns.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

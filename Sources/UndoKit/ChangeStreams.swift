/// The streams an `UndoManager`'s `changes()` made: each is told every
/// change until its reader stops reading or the manager ends them all.
@MainActor
final class ChangeStreams {
    private var streams: [Int: AsyncStream<UndoManager.Change>.Continuation] = [:]
    private var lastID = 0

    /// A new stream of every change from now on.
    func make() -> AsyncStream<UndoManager.Change> {
        AsyncStream { continuation in
            lastID += 1
            let id = lastID
            streams[id] = continuation
            continuation.onTermination = { [weak self] _ in
                Task { @MainActor in self?.streams[id] = nil }
            }
        }
    }

    /// Tells every stream `change`.
    func yield(_ change: UndoManager.Change) {
        for stream in streams.values { stream.yield(change) }
    }

    /// Ends every stream.
    func finishAll() {
        for stream in streams.values { stream.finish() }
        streams.removeAll()
    }
}

/// The groups an `UndoManager` closed and undod has not answered yet, in
/// order; the first is out (one at a time, so that a push refused as Busy
/// is sent again before the ones after it).
struct GroupOutbox {
    /// The groups' tokens, oldest first.
    var waiting: [UInt64] = []
    /// Whether the first is out now.
    var sending = false
    /// Whether a send is scheduled for the end of the turn.
    var scheduled = false
    /// Who waits until all are answered (`UndoManager.sendAllNow`).
    var drained: [CheckedContinuation<Void, Never>] = []
}

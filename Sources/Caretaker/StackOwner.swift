/// A connection that owns stacks, one object shared by all of them. When it
/// leaves the bus, `StackRegistry.ownerLeft` marks this object, and every
/// stack it owned is detached at that moment, however many there are: a
/// record asks its owner whether it is still there (`StackRecord.isAttached`).
/// What else a detach does (the detach time stored, the change announced,
/// the windows forgotten) each record catches up with a batch at a time
/// (`UndoService.settleDepartures`), or at once when a call needs it.
package final class StackOwner {
    /// The connection's unique bus name.
    package let name: String
    /// When it left the bus (µs since the epoch); nil while it is connected.
    var leftAt: Int64?
    /// The numbers of the stacks it owns (while connected), or owned when it left.
    var stacks: Set<UInt64> = []

    /// A connected owner.
    init(name: String) {
        self.name = name
    }
}

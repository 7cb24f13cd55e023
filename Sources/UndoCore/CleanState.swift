/// Where a stack's clean state (the one `SetClean` last marked) is.
///
/// A state is named by the id of the group just below it, the group whose
/// redo leads to it; the bottom state is named by the stack's base id (0 for
/// the original empty state, else the id of the last group trimmed off the
/// bottom or the present group when the stack was cleared).
public enum CleanState: Sendable, Hashable {
    /// The clean state is the state with this name, and it can still be reached.
    case state(UInt64)
    /// The clean state can no longer be reached: `isClean` stays false until the next `setClean`.
    case unreachable
}

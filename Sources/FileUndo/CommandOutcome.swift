/// What running a command did: the exit status coreutils would have given,
/// and what it changed, in order (what one group on the shell's stack
/// undoes).
public struct CommandOutcome: Sendable, Equatable {
    /// 0 when every operand was done, 1 otherwise (as coreutils).
    public var status: Int32
    /// What changed.
    public var change: RecordedChange

    /// An outcome with these fields.
    public init(status: Int32, change: RecordedChange = RecordedChange()) {
        self.status = status
        self.change = change
    }
}

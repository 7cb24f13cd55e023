/// The exit statuses `undoctl` promises scripts (see `undoctl --help`).
enum ExitCode: Int32, Sendable {
    /// The command did what was asked.
    case success = 0
    /// The daemon refused (nothing to undo, no focused stack, an unknown or
    /// ambiguous TARGET, …); its sentence is on stderr.
    case refused = 1
    /// The command line was wrong; a hint is on stderr.
    case usage = 2
    /// The daemon could not be reached: no bus, or nothing owns
    /// `org.undod.Undo1` on it.
    case unreachable = 3
}

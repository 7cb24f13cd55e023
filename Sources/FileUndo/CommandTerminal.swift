/// Where a command prints and asks, as coreutils would: its standard
/// output, its standard error, and a question answered on its standard
/// input (`-i`).
public protocol CommandTerminal: AnyObject {
    /// Prints `line` and a newline on standard output.
    func say(_ line: String)
    /// Prints `line` and a newline on standard error.
    func warn(_ line: String)
    /// Prints `question` (no newline) on standard error and reads a line:
    /// true when it begins with `y` or `Y`.
    func ask(_ question: String) -> Bool
}

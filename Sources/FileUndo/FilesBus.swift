/// The names of the shell's agent on the session bus (`org.undod.Files1`):
/// what `undod-files` owns and serves, and what `undod-files-run` calls.
public enum FilesBus {
    /// The agent's bus name, D-Bus activated.
    public static let busName = "org.undod.Files1"
    /// Its one object.
    public static let path = "/org/undod/Files1"
    /// The interface's name.
    public static let interface = "org.undod.Files1"
}

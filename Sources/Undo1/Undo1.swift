/// The names of undod's wire contract (version 1): its bus name, objects and
/// interfaces. Everything that speaks to undod — the daemon itself, UndoKit,
/// undoctl, the bench, the tests — names them from here.
public enum Undo1 {
    /// The daemon's well-known bus name.
    public static let busName = "org.undod.Undo1"
    /// The manager object.
    public static let managerPath = "/org/undod/Undo1"
    /// The object at which applications export the client interface.
    public static let clientPath = "/org/undod/Undo1/Client"
    /// The manager's interface.
    public static let managerInterface = "org.undod.Undo1.Manager"
    /// Each stack's interface.
    public static let stackInterface = "org.undod.Undo1.Stack"
    /// The interface applications export for undod to call.
    public static let clientInterface = "org.undod.Undo1.Client"
    /// The standard properties interface.
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// The standard object-manager interface (on the manager object).
    public static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"
    /// The path the bus itself answers at.
    public static let busPath = "/org/freedesktop/DBus"
    /// The bus itself.
    public static let busService = "org.freedesktop.DBus"
}

public import DBus

/// The properties of `org.undod.Undo1.Manager`, typed.
public struct ManagerProperties: Sendable, Equatable {
    /// `FocusedStack`: nil when it is `/` (no stack has the focus).
    public var focusedStack: StackPath?
    /// `FocusStrategy`: `recent` or `x11`.
    public var focusStrategy: String
    /// `Version`.
    public var version: String

    /// Reads the answer of `GetAll(org.undod.Undo1.Manager)`.
    public init(_ values: [String: DBusValue]) {
        focusedStack = (values["FocusedStack"]?.string).flatMap(StackPath.init)
        focusStrategy = values["FocusStrategy"]?.string ?? ""
        version = values["Version"]?.string ?? ""
    }
}

public import DBus

/// The properties of `org.undod.Undo1.Manager`, typed.
public struct ManagerProperties: Sendable, Equatable {
    /// `FocusedStack`: nil when it is `/` (no stack has the focus).
    public var focusedStack: StackPath?
    /// `FocusStrategy`: `recent`, `x11`, `sway`, `kwin` or `gnome`.
    public var focusStrategy: String
    /// `Version`.
    public var version: String
    /// `KeyProblem`: why the global key cannot work on this desktop now,
    /// with the command that fixes it; "" while it can (or from an undod
    /// too old to say).
    public var keyProblem: String

    /// The property `FocusedStack`.
    public static let focusedStackName = "FocusedStack"
    /// The property `FocusStrategy`.
    public static let focusStrategyName = "FocusStrategy"
    /// The property `Version`.
    public static let versionName = "Version"
    /// The property `KeyProblem`.
    public static let keyProblemName = "KeyProblem"
    /// What `FocusedStack` holds when no stack has the focus.
    public static let noStack = "/"

    /// Reads the answer of `GetAll(org.undod.Undo1.Manager)`.
    public init(_ values: [String: DBusValue]) {
        focusedStack = (values[Self.focusedStackName]?.string).flatMap(StackPath.init)
        focusStrategy = values[Self.focusStrategyName]?.string ?? ""
        version = values[Self.versionName]?.string ?? ""
        keyProblem = values[Self.keyProblemName]?.string ?? ""
    }
}

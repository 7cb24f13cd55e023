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

    /// Properties with these values.
    public init(focusedStack: StackPath?, focusStrategy: String, version: String, keyProblem: String) {
        self.focusedStack = focusedStack
        self.focusStrategy = focusStrategy
        self.version = version
        self.keyProblem = keyProblem
    }
}

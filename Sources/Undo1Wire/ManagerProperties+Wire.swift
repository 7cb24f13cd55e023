public import DBus
public import Undo1

/// The manager's properties as `GetAll` answers them.
extension ManagerProperties {
    /// Reads the answer of `GetAll(org.undod.Undo1.Manager)`.
    public init(_ values: [String: DBusValue]) {
        self.init(focusedStack: (values[Self.focusedStackName]?.string).flatMap(StackPath.init),
                  focusStrategy: values[Self.focusStrategyName]?.string ?? "",
                  version: values[Self.versionName]?.string ?? "",
                  keyProblem: values[Self.keyProblemName]?.string ?? "")
    }
}

/// `Stack.Pushed(t group, s name, b merged)`, typed: after every successful push.
public struct PushedSignal: Sendable, Equatable {
    /// The signal's name.
    public static let member = "Pushed"
    /// The group made, or merged into.
    public var group: UInt64
    /// The push's name.
    public var name: String
    /// Whether it merged into the top group.
    public var merged: Bool

    /// A signal with these fields.
    public init(group: UInt64, name: String, merged: Bool) {
        self.group = group
        self.name = name
        self.merged = merged
    }
}

/// One undo or redo the daemon did.
struct AppliedStep: Sendable, Equatable {
    /// The stack it acted on.
    var stack: String
    /// The group id.
    var group: UInt64
    /// The group's name.
    var name: String

    /// The step as `undo --json` prints it.
    var json: JSONValue {
        .object(["group": .uint(group), "name": .string(name)])
    }
}

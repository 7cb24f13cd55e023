import DBus

/// The manager's properties.
struct ManagerState: Sendable, Equatable {
    /// `FocusedStack`, nil when it is `/` (no stack has the focus).
    var focusedStack: String?
    /// `FocusStrategy`.
    var focusStrategy: String
    /// `Version`.
    var version: String

    /// Reads the answer of `GetAll(org.undod.Undo1.Manager)`.
    init(_ properties: [String: DBusValue]) {
        let focused = properties["FocusedStack"]?.string ?? "/"
        focusedStack = focused == "/" ? nil : focused
        focusStrategy = properties["FocusStrategy"]?.string ?? ""
        version = properties["Version"]?.string ?? ""
    }

    /// The daemon's part of `status --json`.
    var json: JSONValue {
        .object(["version": .string(version), "focus_strategy": .string(focusStrategy),
                 "focused_stack": focusedStack.map(JSONValue.string) ?? .null])
    }
}

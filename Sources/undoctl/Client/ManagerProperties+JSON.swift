import JSONText
import Undo1

extension ManagerProperties {
    /// `FocusedStack` as a path, nil when no stack has the focus.
    var focusedPath: String? { focusedStack?.path }

    /// The daemon's part of `status --json`.
    var json: JSONValue {
        .object(["version": .string(version), "focus_strategy": .string(focusStrategy),
                 "focused_stack": focusedPath.map(JSONValue.string) ?? .null, "key_problem": .string(keyProblem)])
    }
}

import JSONText
import Undo1

extension AppliedReply {
    /// The step as `undo --json` and `redo --json` print it, with `stack`,
    /// the stack as the step left it.
    func json(stack: JSONValue) -> JSONValue {
        .object(["group": .uint(group), "name": .string(name), "stack": stack])
    }
}

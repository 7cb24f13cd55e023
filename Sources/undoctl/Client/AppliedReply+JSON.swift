import JSONText
import Undo1

extension AppliedReply {
    /// The step as `undo --json` prints it.
    var json: JSONValue {
        .object(["group": .uint(group), "name": .string(name)])
    }
}

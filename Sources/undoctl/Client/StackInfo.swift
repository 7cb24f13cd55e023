import DBus
import JSONText
import Undo1
import Undo1Wire

/// One stack as the daemon describes it on the narrow interface: its path
/// and the properties of `org.undod.Undo1.Stack` (identity, owner,
/// depths, names). Never payloads.
struct StackInfo: Sendable, Equatable {
    /// The stack's path and number.
    let stack: StackPath
    /// Its properties.
    var properties: StackProperties

    /// Reads a stack from its path and its `org.undod.Undo1.Stack`
    /// properties; nil for a path that is not a stack's.
    init?(path: String, properties: [String: DBusValue]) {
        guard let stack = StackPath(path) else { return nil }
        self.init(stack: stack, properties: StackProperties(properties))
    }

    /// A stack from its typed parts.
    init(stack: StackPath, properties: StackProperties) {
        self.stack = stack
        self.properties = properties
    }

    /// Takes in the values of a `PropertiesChanged` signal.
    mutating func update(_ changed: [String: DBusValue]) {
        properties = properties.updated(with: changed)
    }

    /// The object path, `/org/undod/Undo1/stack/N`.
    var path: String { stack.path }
    /// N in the path.
    var number: UInt64 { stack.number }
    /// `AppId`.
    var appId: String { properties.appId }
    /// `Document` (`""` for the app's main stack).
    var document: String { properties.document }
    /// `Title`.
    var title: String { properties.title }
    /// `Owner`: the owner's unique bus name, `""` when detached.
    var owner: String { properties.owner }
    /// `UndoName` (`""` when there is nothing to undo).
    var undoName: String { properties.undoName }
    /// `RedoName` (`""` when there is nothing to redo).
    var redoName: String { properties.redoName }
    /// `UndoDepth`.
    var undoDepth: UInt32 { properties.undoDepth }
    /// `RedoDepth`.
    var redoDepth: UInt32 { properties.redoDepth }
    /// `Limit`.
    var limit: UInt32 { properties.limit }
    /// `Bytes`.
    var bytes: UInt64 { properties.bytes }
    /// `MaxBytes`.
    var maxBytes: UInt64 { properties.maxBytes }
    /// `Clean`.
    var clean: Bool { properties.clean }
    /// `Persistent`.
    var persistent: Bool { properties.persistent }
    /// `GlobalTrigger`.
    var globalTrigger: Bool { properties.globalTrigger }

    /// Whether no live application owns the stack.
    var isDetached: Bool { owner.isEmpty }

    /// The TARGET that names this stack by identity: `app_id` or
    /// `app_id:document`.
    var identity: String { document.isEmpty ? appId : appId + ":" + document }

    /// How sentences name the stack: `Text Editor (stack 3)`.
    var label: String { "\(displayTitle) (stack \(number))" }

    /// The title, safe to print (the app id when the title is empty).
    var displayTitle: String { Format.safe(title.isEmpty ? appId : title) }

    /// The stack as `--json` prints it (see Docs/undoctl-json.md).
    func json(focused: Bool) -> JSONValue {
        let p = properties
        return .object([
            "number": .uint(number), "path": .string(path), "app_id": .string(p.appId),
            "document": .string(p.document), "title": .string(p.title), "owner": .stringOrNull(p.owner),
            "detached": .bool(isDetached), "focused": .bool(focused),
            "undo_name": .stringOrNull(p.undoName), "redo_name": .stringOrNull(p.redoName),
            "undo_depth": .uint(UInt64(p.undoDepth)), "redo_depth": .uint(UInt64(p.redoDepth)),
            "limit": .uint(UInt64(p.limit)), "bytes": .uint(p.bytes), "max_bytes": .uint(p.maxBytes),
            "clean": .bool(p.clean), "persistent": .bool(p.persistent), "global_trigger": .bool(p.globalTrigger),
        ])
    }
}

import DBus
import UndoCore

/// The values of a stack's `org.undod.Undo1.Stack` properties at one
/// moment, as typed fields: cheap to take after every change and to compare
/// with the last announced ones.
struct StackProperties: Equatable {
    var appId: String
    var document: String
    var title: String
    var owner: String
    var canUndo: Bool
    var canRedo: Bool
    var undoName: String
    var redoName: String
    var undoDepth: UInt32
    var redoDepth: UInt32
    var limit: UInt32
    var bytes: UInt64
    var maxBytes: UInt64
    var clean: Bool
    var persistent: Bool
    var globalTrigger: Bool

    /// The properties of `record` now.
    init(of record: StackRecord) {
        let stack = record.stack
        appId = record.appId
        document = record.document
        title = record.title
        owner = record.owner
        canUndo = stack.canUndo
        canRedo = stack.canRedo
        undoName = stack.undoName
        redoName = stack.redoName
        undoDepth = UInt32(clamping: stack.undoDepth)
        redoDepth = UInt32(clamping: stack.redoDepth)
        limit = stack.settings.levels
        bytes = stack.bytes
        maxBytes = stack.settings.maxBytes
        clean = stack.isClean
        persistent = record.persistent
        globalTrigger = record.globalTrigger
    }

    /// The wire value of the property `name`, or nil for no such property.
    func value(_ name: String) -> DBusValue? {
        switch name {
        case "AppId": .string(appId)
        case "Document": .string(document)
        case "Title": .string(title)
        case "Owner": .string(owner)
        case "CanUndo": .bool(canUndo)
        case "CanRedo": .bool(canRedo)
        case "UndoName": .string(undoName)
        case "RedoName": .string(redoName)
        case "UndoDepth": .uint32(undoDepth)
        case "RedoDepth": .uint32(redoDepth)
        case "Limit": .uint32(limit)
        case "Bytes": .uint64(bytes)
        case "MaxBytes": .uint64(maxBytes)
        case "Clean": .bool(clean)
        case "Persistent": .bool(persistent)
        case "GlobalTrigger": .bool(globalTrigger)
        default: nil
        }
    }

    /// Every property name, in the order the interface declares them.
    static let names = [
        "AppId", "Document", "Title", "Owner", "CanUndo", "CanRedo", "UndoName", "RedoName", "UndoDepth",
        "RedoDepth", "Limit", "Bytes", "MaxBytes", "Clean", "Persistent", "GlobalTrigger",
    ]

    /// The properties whose values differ from `old`, with their new values.
    func changes(since old: StackProperties?) -> [String: DBusValue] {
        guard let old else { return Self.allValues(self) }
        guard old != self else { return [:] }
        var changed: [String: DBusValue] = [:]
        for name in Self.names where value(name) != old.value(name) { changed[name] = value(name) }
        return changed
    }

    private static func allValues(_ properties: StackProperties) -> [String: DBusValue] {
        var all: [String: DBusValue] = [:]
        for name in names { all[name] = properties.value(name) }
        return all
    }
}

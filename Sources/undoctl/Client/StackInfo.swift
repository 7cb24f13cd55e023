import DBus

/// One stack as the daemon describes it on the narrow interface: identity,
/// owner and the properties of `org.undod.Undo1.Stack`. Never payloads.
struct StackInfo: Sendable, Equatable {
    /// The object path, `/org/undod/Undo1/stack/N`.
    var path: String
    /// N in the path.
    var number: UInt64
    /// `AppId`.
    var appId: String
    /// `Document` (`""` for the app's main stack).
    var document: String
    /// `Title`.
    var title: String
    /// `Owner`: the owner's unique bus name, `""` when detached.
    var owner: String
    /// `UndoName` (`""` when there is nothing to undo).
    var undoName: String
    /// `RedoName` (`""` when there is nothing to redo).
    var redoName: String
    /// `UndoDepth`.
    var undoDepth: UInt32
    /// `RedoDepth`.
    var redoDepth: UInt32
    /// `Limit`.
    var limit: UInt32
    /// `Bytes`.
    var bytes: UInt64
    /// `MaxBytes`.
    var maxBytes: UInt64
    /// `Clean`.
    var clean: Bool
    /// `Persistent`.
    var persistent: Bool
    /// `GlobalTrigger`.
    var globalTrigger: Bool

    /// The prefix of every stack object path.
    static let pathPrefix = "/org/undod/Undo1/stack/"

    /// Reads a stack from its path and its `org.undod.Undo1.Stack`
    /// properties; nil for a path that is not a stack's.
    init?(path: String, properties: [String: DBusValue]) {
        guard let number = Self.number(inPath: path) else { return nil }
        self.path = path
        self.number = number
        appId = properties["AppId"]?.string ?? ""
        document = properties["Document"]?.string ?? ""
        title = properties["Title"]?.string ?? ""
        owner = properties["Owner"]?.string ?? ""
        undoName = properties["UndoName"]?.string ?? ""
        redoName = properties["RedoName"]?.string ?? ""
        undoDepth = properties["UndoDepth"]?.uint32 ?? 0
        redoDepth = properties["RedoDepth"]?.uint32 ?? 0
        limit = properties["Limit"]?.uint32 ?? 0
        bytes = properties["Bytes"]?.uint64 ?? 0
        maxBytes = properties["MaxBytes"]?.uint64 ?? 0
        clean = properties["Clean"]?.bool ?? false
        persistent = properties["Persistent"]?.bool ?? false
        globalTrigger = properties["GlobalTrigger"]?.bool ?? true
    }

    /// Takes in the values of a `PropertiesChanged` signal.
    mutating func update(_ changed: [String: DBusValue]) {
        var properties = asProperties
        for (key, value) in changed { properties[key] = value }
        if let updated = StackInfo(path: path, properties: properties) { self = updated }
    }

    private var asProperties: [String: DBusValue] {
        ["AppId": .string(appId), "Document": .string(document), "Title": .string(title), "Owner": .string(owner),
         "UndoName": .string(undoName), "RedoName": .string(redoName), "UndoDepth": .uint32(undoDepth),
         "RedoDepth": .uint32(redoDepth), "Limit": .uint32(limit), "Bytes": .uint64(bytes),
         "MaxBytes": .uint64(maxBytes), "Clean": .bool(clean), "Persistent": .bool(persistent),
         "GlobalTrigger": .bool(globalTrigger)]
    }

    /// The number in a stack object path, or nil for any other path.
    static func number(inPath path: String) -> UInt64? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        let digits = path.dropFirst(pathPrefix.count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }

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
        .object([
            "number": .uint(number), "path": .string(path), "app_id": .string(appId),
            "document": .string(document), "title": .string(title), "owner": .stringOrNull(owner),
            "detached": .bool(isDetached), "focused": .bool(focused),
            "undo_name": .stringOrNull(undoName), "redo_name": .stringOrNull(redoName),
            "undo_depth": .uint(UInt64(undoDepth)), "redo_depth": .uint(UInt64(redoDepth)),
            "limit": .uint(UInt64(limit)), "bytes": .uint(bytes), "max_bytes": .uint(maxBytes),
            "clean": .bool(clean), "persistent": .bool(persistent), "global_trigger": .bool(globalTrigger),
        ])
    }
}

public import DBus
public import Undo1

/// A stack's properties as the wire carries them (`a{sv}`).
extension StackProperties {
    /// Reads the properties from an `a{sv}` (variants unwrapped); a missing
    /// or mistyped entry reads as its zero value (`GlobalTrigger`: true).
    public init(_ values: [String: DBusValue]) {
        self.init(appId: values["AppId"]?.string ?? "", document: values["Document"]?.string ?? "",
                  title: values["Title"]?.string ?? "", owner: values["Owner"]?.string ?? "",
                  canUndo: values["CanUndo"]?.bool ?? false, canRedo: values["CanRedo"]?.bool ?? false,
                  undoName: values["UndoName"]?.string ?? "", redoName: values["RedoName"]?.string ?? "",
                  undoDepth: values["UndoDepth"]?.uint32 ?? 0, redoDepth: values["RedoDepth"]?.uint32 ?? 0,
                  limit: values["Limit"]?.uint32 ?? 0, bytes: values["Bytes"]?.uint64 ?? 0,
                  maxBytes: values["MaxBytes"]?.uint64 ?? 0, clean: values["Clean"]?.bool ?? false,
                  persistent: values["Persistent"]?.bool ?? false,
                  globalTrigger: values["GlobalTrigger"]?.bool ?? true)
    }

    /// The wire value of the property `name`, or nil for no such property.
    public func value(_ name: String) -> DBusValue? {
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

    /// Every property with its wire value.
    public var values: [String: DBusValue] {
        var all: [String: DBusValue] = [:]
        for name in Self.names { all[name] = value(name) }
        return all
    }

    /// The properties whose values differ from `old` (all of them when
    /// there is no `old`), with their new values.
    public func changes(since old: StackProperties?) -> [String: DBusValue] {
        guard let old else { return values }
        guard old != self else { return [:] }
        var changed: [String: DBusValue] = [:]
        for name in Self.names where value(name) != old.value(name) { changed[name] = value(name) }
        return changed
    }

    /// These properties with the values of a `PropertiesChanged` applied.
    public func updated(with changed: [String: DBusValue]) -> StackProperties {
        var all = values
        for (name, value) in changed { all[name] = value }
        return StackProperties(all)
    }
}

extension StackProperties {
    /// Every stack in a `GetManagedObjects` answer (`a{oa{sa{sv}}}`), by path.
    public static func all(inManagedObjects value: DBusValue?) -> [(StackPath, StackProperties)] {
        guard case .dict(_, _, let entries)? = value else { return [] }
        return entries.compactMap { entry in
            guard let path = entry.key.string.flatMap(StackPath.init),
                  let values = entry.value.stringDictionary?[Undo1.stackInterface]?.stringDictionary else { return nil }
            return (path, StackProperties(values))
        }.sorted { $0.0 < $1.0 }
    }
}

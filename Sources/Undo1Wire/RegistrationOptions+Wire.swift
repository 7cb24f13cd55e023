public import DBus
public import Undo1

/// `Register`'s options as the `a{sv}` the wire carries.
extension RegistrationOptions {
    /// Reads the options of a `Register` call; unknown keys are ignored.
    public init(decoding values: [String: DBusValue]) throws(OptionTypeError) {
        let reader = OptionReader(values)
        self.init(document: try reader.string("document"), title: try reader.string("title"),
                  limit: try reader.uint32("limit"), maxBytes: try reader.uint64("max_bytes"),
                  persist: try reader.bool("persist"), globalTrigger: try reader.bool("global_trigger"),
                  windows: try reader.uint64s("windows"), stateTag: try reader.string("state_tag"),
                  process: try reader.uint32("process"))
    }

    /// The options given, as the `a{sv}` entries `Register` takes.
    public var values: [String: DBusValue] {
        var all: [String: DBusValue] = [:]
        if let document { all["document"] = .string(document) }
        if let title { all["title"] = .string(title) }
        if let limit { all["limit"] = .uint32(limit) }
        if let maxBytes { all["max_bytes"] = .uint64(maxBytes) }
        if let persist { all["persist"] = .bool(persist) }
        if let globalTrigger { all["global_trigger"] = .bool(globalTrigger) }
        if let windows { all["windows"] = .array(element: "t", windows.map(DBusValue.uint64)) }
        if let stateTag { all["state_tag"] = .string(stateTag) }
        if let process { all["process"] = .uint32(process) }
        return all
    }
}

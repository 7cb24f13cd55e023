import JSONText
import Undo1

/// One thing `watch` reports, with how it prints as text and as a JSON line.
struct WatchEvent {
    /// What happened.
    enum Kind {
        /// A group was pushed (`merged`: into the top group).
        case pushed(group: UInt64, name: String, merged: Bool)
        /// An undo or redo was applied.
        case applied(direction: String, group: UInt64, name: String)
        /// The focus moved (the stack is nil when no stack has it). The first
        /// line `watch` prints is this event with the focus at start.
        case focus
        /// A stack appeared.
        case added
        /// A stack was deleted.
        case removed
        /// undod left the bus (`version` nil) or came (back) onto it.
        case daemon(version: String?)
    }

    /// What happened.
    var kind: Kind
    /// The stack it happened to, as last known; nil for none.
    var stack: StackInfo?
    /// The stack's path when undoctl did not know the stack itself.
    var path: String?
    /// Whether the stack has the focus (after the event).
    var focused: Bool
    /// When undoctl saw it, µs since the Unix epoch.
    var time: Int64

    /// The event's name in JSON.
    var name: String {
        switch kind {
        case .pushed: "pushed"
        case .applied: "applied"
        case .focus: "focus"
        case .added: "added"
        case .removed: "removed"
        case .daemon: "daemon"
        }
    }

    /// The JSON line (see Docs/undoctl-json.md).
    var json: JSONValue {
        var object: [String: JSONValue] = ["event": .string(name), "time_us": .int(time)]
        switch kind {
        case .pushed(let group, let name, let merged):
            object["group"] = .uint(group)
            object["name"] = .string(name)
            object["merged"] = .bool(merged)
        case .applied(let direction, let group, let name):
            object["direction"] = .string(direction)
            object["group"] = .uint(group)
            object["name"] = .string(name)
        case .daemon(let version):
            object["running"] = .bool(version != nil)
            object["version"] = version.map(JSONValue.string) ?? .null
        case .focus, .added, .removed:
            break
        }
        if case .daemon = kind { return .object(object) }
        if let stack {
            object["stack"] = stack.json(focused: focused)
        } else if let path {
            object["stack"] = .object(["path": .string(path),
                                       "number": StackPath(path).map { $0.number }.map(JSONValue.uint) ?? .null])
        } else {
            object["stack"] = .null
        }
        return .object(object)
    }

    /// The text line: the time, a word for the event, and a sentence.
    var text: String {
        let place = stack?.label ?? path.map { p in StackPath(p).map { "stack \($0.number)" } ?? p } ?? ""
        let (word, detail): (String, String)
        switch kind {
        case .pushed(let group, let name, let merged):
            (word, detail) = merged
                ? ("merged", "\(Format.quoted(name)) into group \(group) in \(place)")
                : ("pushed", "\(Format.quoted(name)) in \(place), group \(group)")
        case .applied(let direction, _, let name):
            (word, detail) = (direction == "redo" ? "redid" : "undid", "\(Format.quoted(name)) in \(place)")
        case .focus:
            (word, detail) = ("focus", stack == nil && path == nil ? "none" : place)
        case .added:
            let owner = stack.map { $0.isDetached ? ", detached" : "" } ?? ""
            (word, detail) = ("added", place + (stack.map { ", " + Format.safe($0.identity) } ?? "") + owner)
        case .removed:
            (word, detail) = ("removed", place)
        case .daemon(let version):
            (word, detail) = ("undod", version.map { "running, version \(Format.safe($0))" } ?? "stopped")
        }
        return Format.localTime(microseconds: time, now: time) + "  " + Format.padded(word, 9) + detail
    }
}

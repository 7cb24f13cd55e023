/// Which signals a subscription wants: the parts of a D-Bus match rule that
/// this layer checks again locally, since the bus sends a connection every
/// signal that any of its rules matched.
public struct SignalMatch: Sendable, Hashable {
    /// The sender: a unique name, or `org.freedesktop.DBus` for the bus itself.
    public var sender: String?
    /// The object path the signal comes from.
    public var path: String?
    /// The signal's interface.
    public var interface: String?
    /// The signal's name.
    public var member: String?
    /// The first argument, when it is a string.
    public var arg0: String?

    /// Makes a match; nil parts match anything.
    public init(sender: String? = nil, path: String? = nil, interface: String? = nil,
                member: String? = nil, arg0: String? = nil) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The bus's `NameOwnerChanged`, optionally for one name only.
    public static func nameOwnerChanged(name: String? = nil) -> SignalMatch {
        SignalMatch(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: name)
    }

    /// The rule in the bus's syntax, for `AddMatch`.
    public var rule: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            let escaped = value.replacing("'", with: "'\\''")
            parts.append("\(key)='\(escaped)'")
        }
        add("sender", sender)
        add("path", path)
        add("interface", interface)
        add("member", member)
        add("arg0", arg0)
        return parts.joined(separator: ",")
    }

    /// Whether `message` (a signal) fits this match.
    func matches(_ message: Message) -> Bool {
        if let sender, sender.hasPrefix(":") || sender == "org.freedesktop.DBus", message.sender != sender {
            return false
        }
        if let path, message.path != path { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let arg0, message.arguments.first?.string != arg0 { return false }
        return true
    }
}

/// A D-Bus error: a well-formed error name and one readable sentence.
///
/// It is what a remote peer answered, what libdbus reported locally (a lost
/// connection, a timeout), or what a local handler wants to answer with.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error name, for example `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// The human sentence that goes with it.
    public var message: String
    /// Who answered with it: a peer's unique name, `org.freedesktop.DBus`
    /// for the bus itself; nil for an error made here (a timeout, a lost
    /// connection, a local handler's). Not part of equality.
    public var sender: String?

    /// Makes an error from its name and sentence (and who sent it, for one
    /// that came in a reply).
    public init(name: String, message: String, sender: String? = nil) {
        self.name = name
        self.message = message
        self.sender = sender
    }

    /// Equal when the name and the sentence are.
    public static func == (a: DBusError, b: DBusError) -> Bool {
        a.name == b.name && a.message == b.message
    }

    /// Hashes the name and the sentence.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(message)
    }

    /// The name and the sentence, as a log line would show them.
    public var description: String { "\(name): \(message)" }
}

extension DBusError {
    /// `org.freedesktop.DBus.Error.Failed`: a generic failure.
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: Names.failed, message: message)
    }
    /// `org.freedesktop.DBus.Error.InvalidArgs`: the arguments do not fit the member.
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: Names.invalidArgs, message: message)
    }
    /// `org.freedesktop.DBus.Error.UnknownMethod`.
    public static func unknownMethod(_ message: String) -> DBusError {
        DBusError(name: Names.unknownMethod, message: message)
    }

    /// The standard error names this module produces or recognises.
    public enum Names {
        /// Something failed, with no more precise name.
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        /// The arguments do not match the member's signature.
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// The object has no such method.
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// No object is exported at the path.
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// The object has no such interface.
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        /// The object has no such property.
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        /// The property cannot be written.
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// The peer did not answer in time.
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// The connection is gone.
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// The destination name has no owner.
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        /// The bus address could not be reached.
        public static let noServer = "org.freedesktop.DBus.Error.NoServer"
        /// The bus refused our credentials.
        public static let authFailed = "org.freedesktop.DBus.Error.AuthFailed"
        /// The bus address was malformed.
        public static let badAddress = "org.freedesktop.DBus.Error.BadAddress"
        /// `NameHasNoOwner`: nobody owns the name asked about.
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        /// `AccessDenied`: the caller may not do that.
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        /// `org.freedesktop.DBus.Error.LimitsExceeded`
        public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    }
}

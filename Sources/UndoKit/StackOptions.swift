import Undo1

/// How a stack is registered (`Register`'s options). Left nil, an option
/// keeps its stored value, or the daemon's default.
public struct StackOptions: Sendable {
    /// One stack per document of an app, like one NSUndoManager per window.
    public var document: String
    /// The human name `undoctl` and the notifications show (default: the app id).
    public var title: String?
    /// Most undo groups kept (0 or nil: the daemon's `limits.levels`).
    public var limit: UInt32?
    /// Most payload bytes kept (0 or nil: the daemon's `limits.max_bytes`).
    public var maxBytes: UInt64?
    /// Keep the history on disk; false for what must not be written down
    /// (a password field). nil: the daemon's `stacks.persist`.
    public var persist: Bool?
    /// Whether the global undo key (and `undoctl undo`) may undo this stack.
    public var globalTrigger: Bool
    /// A tag of the document's present state (a content hash): an adopted
    /// history whose tag differs is discarded.
    public var stateTag: String?
    /// The X11 ids of the app's top-level windows, so that the global key
    /// finds the app when its window is in front (needed where the app's
    /// bus connection and its windows are in different processes).
    public var windows: [UInt64]?
    /// The process the stack serves where that is not the app's own: a
    /// file agent working for a shell names the shell, so that the global
    /// key finds the stack when the shell's terminal is in front (a
    /// process of the user's, running; 0 or nil: none).
    public var process: UInt32?

    /// Options with these values.
    public init(document: String = "", title: String? = nil, limit: UInt32? = nil, maxBytes: UInt64? = nil,
                persist: Bool? = nil, globalTrigger: Bool = true, stateTag: String? = nil) {
        self.document = document
        self.title = title
        self.limit = limit
        self.maxBytes = maxBytes
        self.persist = persist
        self.globalTrigger = globalTrigger
        self.stateTag = stateTag
    }

    /// Options with these values, declaring the app's windows too.
    public init(document: String = "", title: String? = nil, limit: UInt32? = nil, maxBytes: UInt64? = nil,
                persist: Bool? = nil, globalTrigger: Bool = true, stateTag: String? = nil, windows: [UInt64]) {
        self.init(document: document, title: title, limit: limit, maxBytes: maxBytes, persist: persist,
                  globalTrigger: globalTrigger, stateTag: stateTag)
        self.windows = windows
    }

    /// The options as `Register` takes them.
    var registration: RegistrationOptions {
        RegistrationOptions(document: document, title: title, limit: limit, maxBytes: maxBytes, persist: persist,
                            globalTrigger: globalTrigger, windows: windows, stateTag: stateTag, process: process)
    }
}

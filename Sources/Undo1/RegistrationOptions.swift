/// The options of `Manager.Register`, typed: each one optional (left out,
/// the stored or default value holds). A client turns them into the
/// `a{sv}` it sends (`values`); the daemon reads that back
/// (`init(decoding:)`), refusing a known key of another type.
public struct RegistrationOptions: Sendable, Equatable {
    /// `document`: one stack per document of an app.
    public var document: String?
    /// `title`: the human name in `undoctl` and notifications.
    public var title: String?
    /// `limit`: most undo groups kept (0: the config's value).
    public var limit: UInt32?
    /// `max_bytes`: most payload bytes kept (0: the config's value).
    public var maxBytes: UInt64?
    /// `persist`: keep the history on disk.
    public var persist: Bool?
    /// `global_trigger`: whether the system-wide trigger may undo the stack.
    public var globalTrigger: Bool?
    /// `windows`: the X11 ids of the app's top-level windows.
    public var windows: [UInt64]?
    /// `process`: the process the stack serves where that is not the
    /// owner's own (the shell a file agent works for); 0: none.
    public var process: UInt32?
    /// `state_tag`: a tag of the document's present state.
    public var stateTag: String?

    /// Options with these values; nil leaves an option out.
    public init(document: String? = nil, title: String? = nil, limit: UInt32? = nil, maxBytes: UInt64? = nil,
                persist: Bool? = nil, globalTrigger: Bool? = nil, windows: [UInt64]? = nil, stateTag: String? = nil,
                process: UInt32? = nil) {
        self.document = document
        self.title = title
        self.limit = limit
        self.maxBytes = maxBytes
        self.persist = persist
        self.globalTrigger = globalTrigger
        self.windows = windows
        self.stateTag = stateTag
        self.process = process
    }
}

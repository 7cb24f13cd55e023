/// The keys of `Register`'s options and of `Push`/`PushGroup`'s hints, with
/// their types, defaults and meaning: what the introspection XML's doc
/// strings and undod(1) say of them, from this one table.
public enum Undo1Keys {
    /// One key of an `a{sv}` argument.
    public struct Key: Sendable {
        /// The key.
        public var name: String
        /// The D-Bus type its value must have.
        public var type: String
        /// Its value when left out.
        public var fallback: String
        /// What it does.
        public var meaning: String
    }

    /// `Register`'s options (all optional; unknown keys are ignored).
    public static let registerOptions: [Key] = [
        Key(name: "document", type: "s", fallback: "\"\"",
            meaning: "one stack per document of an app, like one NSUndoManager per document window"),
        Key(name: "title", type: "s", fallback: "the app id",
            meaning: "the human name undoctl and notifications show"),
        Key(name: "limit", type: "u", fallback: "limits.levels",
            meaning: "levels of undo: most undo groups kept (0: the config's value)"),
        Key(name: "max_bytes", type: "t", fallback: "limits.max_bytes",
            meaning: "most payload bytes, undo and redo sides together (0: the config's value)"),
        Key(name: "persist", type: "b", fallback: "stacks.persist",
            meaning: "keep the history on disk across restarts (false: memory only, e.g. for password fields)"),
        Key(name: "global_trigger", type: "b", fallback: "true",
            meaning: "whether the global key, signals and other callers may undo this stack"),
        Key(name: "windows", type: "at", fallback: "[]",
            meaning: "the X11 ids of the app's top-level windows, which the x11 focus strategy uses to choose among one process's stacks, and to find an app whose windows another process draws; never to take a window from its own process's stacks"),
        Key(name: "process", type: "u", fallback: "0",
            meaning: "the process this stack serves where that is not the owner's own (the shell a file agent works for): where the window in front belongs to a process that owns no stack, stacks whose process descends from it are its candidates; 0: none"),
        Key(name: "state_tag", type: "s", fallback: "\"\"",
            meaning: "a tag of the document's present state; on adoption a different non-empty tag discards the history"),
    ]

    /// `Push`/`PushGroup`'s hints (all optional; unknown keys are ignored).
    public static let pushHints: [Key] = [
        Key(name: "merge_key", type: "s", fallback: "\"\"",
            meaning: "merge into the top group when it has the same key and came within the merge window"),
        Key(name: "merge_window_ms", type: "u", fallback: "merge.window_ms",
            meaning: "the merge window for this push, in milliseconds"),
        Key(name: "state_tag", type: "s", fallback: "\"\"",
            meaning: "the document's state tag after this change (see Register's state_tag)"),
    ]

    /// `Register`'s options as one doc string, made once: every stack's
    /// declaration shares it (10,000 stacks would otherwise hold 10,000 copies).
    public static let registerOptionsDoc = doc(registerOptions, lead: "All optional:")
    /// `Push`'s and `PushGroup`'s hints as one doc string, made once.
    public static let pushHintsDoc = doc(pushHints, lead: "All optional:")

    /// The keys as one doc string: `name (type, default …): meaning; …`.
    public static func doc(_ keys: [Key], lead: String) -> String {
        lead + " " + keys.map { "\($0.name) (\($0.type), default \($0.fallback)): \($0.meaning)" }
            .joined(separator: "; ") + ". Unknown keys are ignored."
    }
}

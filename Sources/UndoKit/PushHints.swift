public import Undo1

/// The hints of a push beyond its name and payloads — `mergeKey` (coalesce
/// into the top group, as successive keystrokes into one "Typing"),
/// `mergeWindowMilliseconds` (this push's merge window) and `stateTag` (a tag
/// of the document's state after the change) — as the contract defines them.
public typealias PushHints = PushOptions

public import UndoCore

/// The hints of a push beyond its name and payloads — `mergeKey` (coalesce
/// into the top group, as successive keystrokes into one "Typing"),
/// `mergeWindowMilliseconds` (this push's merge window) and `stateTag` (a tag
/// of the document's state after the change): the one hints type of undod,
/// named here so that an app needs to import UndoKit alone.
public typealias PushHints = UndoCore.PushHints

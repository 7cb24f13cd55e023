/// The group an `UndoManager`'s registrations go to now, not closed yet.
struct OpenGroup {
    /// Its action name so far.
    var name = ""
    /// The closures registered, in order.
    var actions: [@MainActor () -> Void] = []
    /// Explicit `beginUndoGrouping` levels open.
    var depth = 0
    /// Whether the end of the main actor's turn closes it.
    var byEvent = false
}

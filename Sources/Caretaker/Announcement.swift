package import Undo1

/// A change the service tells the world about. The turn's transaction
/// (`TurnTransaction`) sends each at the end of the turn, after the replies; the publisher (`BusPublisher` in
/// undod) makes it a D-Bus signal.
package enum Announcement {
    /// A stack appeared (`InterfacesAdded`).
    case stackAdded(path: String)
    /// A stack went away (`InterfacesRemoved`, naming the interfaces it had).
    case stackRemoved(path: String, interfaces: [String])
    /// A stack's properties moved from `before` to `now` (`PropertiesChanged`
    /// of those that differ; all of them when `before` is nil).
    case stackChanged(path: String, now: StackProperties, before: StackProperties?)
    /// A push recorded a group (`Pushed`).
    case pushed(path: String, PushedSignal)
    /// An undo or redo was applied (`Applied`).
    case applied(path: String, AppliedSignal)
    /// The manager's `FocusedStack` and `FocusStrategy`, where they moved (nil: unchanged).
    case managerChanged(focusedStack: String?, focusStrategy: String?)
}

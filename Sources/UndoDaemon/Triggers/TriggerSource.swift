package import DBus
package import Loop
package import UndoCore

/// Something that asks for "undo (or redo) on the focused application": Unix
/// signals now; the hotkey and the notification's Redo button beside them.
package protocol TriggerSource: AnyObject {
    /// Starts delivering triggers to `fire` on `loop`.
    func start(on loop: EventLoop, fire: @escaping (Direction, String) -> Void)
}

package import Caretaker
package import DBus
import Undo1

/// The service's refusals as the bus carries them.
extension ServiceError {
    /// The D-Bus error a caller receives: the name and sentence of
    /// `refusal(stack:)` (`Caretaker/ServiceError+Refusal.swift`).
    package func dbusError(stack: String?) -> DBusError {
        let refusal = refusal(stack: stack)
        return DBusError(name: refusal.name.rawValue, message: refusal.sentence)
    }
}

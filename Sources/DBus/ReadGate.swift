/// Decides what a caller may read of the properties an `ObjectServer`
/// exports (`Get`, `GetAll`, `GetManagedObjects`), for services whose
/// objects are not all for everyone's eyes. Confined to the loop.
public protocol ReadGate: AnyObject {
    /// Calls `then`, now or later, with what `caller` may read.
    func view(for caller: String, then: @escaping (PropertyView) -> Void)
}

/// What one caller may read: given an object's path and one interface's
/// properties, the ones it sees (a property it may not read is absent).
public typealias PropertyView = (_ path: String, _ interface: String, _ values: [String: DBusValue])
    -> [String: DBusValue]

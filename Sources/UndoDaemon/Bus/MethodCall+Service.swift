import Caretaker
import DBus
import Undo1

extension MethodCall {
    /// Answers with the service's `result`: `values` of what it did, or its
    /// refusal as the D-Bus error that names `stack` (worked out only for
    /// a refusal: a name costs string building on every call otherwise).
    func answer<T>(_ result: Result<T, ServiceError>, stack: @autoclosure () -> String?,
                   _ values: (T) -> [DBusValue]) {
        switch result {
        case .success(let value): reply(values(value))
        case .failure(let error): fail(error.dbusError(stack: stack()))
        }
    }

    /// The call's options or hints (its `a{sv}` at `index`) decoded by
    /// `decode`; a wrong type is `InvalidArgs` for `stack`, answered here.
    func options<T>(at index: Int, stack: @autoclosure () -> String?,
                    _ decode: ([String: DBusValue]) throws(OptionTypeError) -> T) -> T? {
        options(argument(index)?.stringDictionary, stack: stack(), decode)
    }

    /// `options(at:stack:_:)` of `options`, already read (nil: none that read).
    func options<T>(_ options: [String: DBusValue]?, stack: @autoclosure () -> String?,
                    _ decode: ([String: DBusValue]) throws(OptionTypeError) -> T) -> T? {
        do {
            return try decode(options ?? [:])
        } catch {
            fail(ServiceError.invalidArgs(error.description).dbusError(stack: stack()))
            return nil
        }
    }
}

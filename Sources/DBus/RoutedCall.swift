/// A method call matched to what serves it (`ObjectServer.route`), once:
/// how it is served, and, for a method that prepares its large calls
/// (`Interface.preparing`), how that work starts.
struct RoutedCall {
    /// Serves the call: the method's handler, or the refusal routing found
    /// (an unknown object, interface or method, arguments of the wrong type).
    let serve: () -> Void
    /// Starts the method's work for this call off the loop (see
    /// `Interface.preparing`): true when it started, and `ready` is then
    /// called once on the loop with how to serve the call with what was
    /// made; false when there is nothing to do ahead. Nil for a method
    /// that prepares nothing.
    let prepare: ((_ ready: @escaping (_ serve: @escaping () -> Void) -> Void) -> Bool)?
    /// The export of the call's path it was routed to (`ObjectServer`'s
    /// generation of that path; nil: nothing exported there): a call routed
    /// early (to start its preparation) and served after its object was
    /// exported again or removed is routed again, so that it reaches what is
    /// exported when it is served, as every other call does. Other objects
    /// coming and going leave it alone.
    let generation: Int?
}

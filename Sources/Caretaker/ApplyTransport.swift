package import Undo1

/// How the applier reaches an application: `Client.Apply` over the bus in
/// undod (`BusApplyTransport`), an in-process stand-in in tests.
package protocol ApplyTransport: AnyObject {
    /// Asks `owner` (a unique name) to apply `arguments`; `answer` is called
    /// once, on the loop, with how it went: when the owner answers or
    /// leaves, however late (the applier keeps its own `apply.timeout_ms`
    /// timer). No timer of the transport's ends the wait: a reply the bus
    /// lost would otherwise have the same group handed out again.
    func apply(_ arguments: ApplyArguments, at owner: String, answer: @escaping (ApplyAnswer) -> Void)
}

/// How an application answered `Apply`.
package enum ApplyAnswer: Equatable {
    /// It applied the payloads.
    case applied
    /// It says the group can never be applied (`Obsolete`).
    case obsolete
    /// It is gone: it left the bus, or its name has no owner.
    case ownerGone
    /// It failed with this error; the history stays as it was.
    case failed(name: String, message: String)
}

import Caretaker
import DBus
import Undo1

/// What a sandboxed app may read (the Trust section of `Docs/PROTOCOL.md`):
/// of a stack it did not make, the app id and title and nothing more — no
/// group names in the properties or `GetManagedObjects`, no `History`.
/// Callers outside a sandbox read everything, as the contract says. Each
/// caller's sandbox is learned once (`CallerOrigins`) and forgotten when it
/// leaves the bus. Confined to the loop.
final class SandboxedReaders: ReadGate {
    /// The properties of another's stack a sandboxed app may read.
    static let everyonesProperties: Set<String> = ["AppId", "Title"]

    private let origins: CallerOrigins
    private let registry: StackRegistry
    /// Each caller's sandbox (nil: none), once learned.
    private var sandboxes: [String: StackOrigin?] = [:]
    /// Who waits for a caller's sandbox to be learned.
    private var waiting: [String: [(StackOrigin?) -> Void]] = [:]

    /// Learns callers through `origins` on `connection`; finds stacks in `registry`.
    init(connection: Connection, origins: CallerOrigins, registry: StackRegistry) {
        self.origins = origins
        self.registry = registry
        connection.onNameOwnerChanged { [weak self] name, _, newOwner in
            guard newOwner.isEmpty, name.hasPrefix(":") else { return }
            self?.sandboxes[name] = nil
        }
    }

    func view(for caller: String, then: @escaping (PropertyView) -> Void) {
        sandbox(of: caller) { [registry] sandbox in
            guard let sandbox else { return then { _, _, values in values } }
            then { path, interface, values in
                guard interface == Undo1.stackInterface, registry.stack(atPath: path)?.origin != sandbox else {
                    return values
                }
                return values.filter { Self.everyonesProperties.contains($0.key) }
            }
        }
    }

    /// Calls `then` with nil when `caller` may read `record`'s history, or
    /// with the caller's sandbox when it may not.
    func sandboxBarring(_ caller: String, from record: StackRecord, then: @escaping (StackOrigin?) -> Void) {
        sandbox(of: caller) { [weak record] sandbox in
            guard let sandbox, let record, record.origin != sandbox else { return then(nil) }
            then(sandbox)
        }
    }

    /// Calls `then` with `caller`'s sandbox, nil outside one.
    private func sandbox(of caller: String, then: @escaping (StackOrigin?) -> Void) {
        if let known = sandboxes[caller] { return then(known) }
        guard waiting[caller] == nil else { return waiting[caller]?.append(then) ?? () }
        waiting[caller] = [then]
        origins.origin(of: caller) { [weak self] answer in
            guard let self else { return }
            var sandbox: StackOrigin?
            if case .known(let origin) = answer, origin.kind != .executable { sandbox = origin }
            if case .gone = answer {} else { self.sandboxes[caller] = .some(sandbox) }
            for waiter in self.waiting.removeValue(forKey: caller) ?? [] { waiter(sandbox) }
        }
    }
}

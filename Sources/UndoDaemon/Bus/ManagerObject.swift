import DBus
import Undo1
import UndoCore

/// The manager object `/org/undod/Undo1`: binds `Undo1Interfaces.manager`
/// to the service.
enum ManagerObject {
    /// The live interface for `service`.
    static func interface(for service: UndoService) -> Interface {
        Undo1Interfaces.manager.binding(methods: [
            "Register": { [unowned service] (call: MethodCall) in
                let appId = call.arguments[0].string ?? ""
                do throws(ServiceError) {
                    let record = try service.register(caller: call.sender, appId: appId,
                                                      options: call.arguments[1].stringDictionary ?? [:])
                    service.deliver(.bookkeeping, send: { call.reply([.objectPath(record.path)]) }, fail: call.fail)
                } catch {
                    let options = try? RegistrationOptions(decoding: call.arguments[1].stringDictionary ?? [:])
                    let subject = service.registry.stack(appId: appId, document: options?.document ?? "")
                    call.fail(error.dbusError(stack: subject?.displayName ?? "the stack of “\(appId)”"))
                }
            },
            "UndoFocused": { [unowned service] (call: MethodCall) in focused(.undo, call, service) },
            "RedoFocused": { [unowned service] (call: MethodCall) in focused(.redo, call, service) },
            "SetFocus": { [unowned service] (call: MethodCall) in
                let path = call.arguments[0].string ?? ""
                do throws(ServiceError) {
                    try service.setFocus(path: path)
                    call.reply()
                } catch {
                    call.fail(error.dbusError(stack: service.registry.stack(atPath: path)?.displayName))
                }
            },
            "Subscribe": { [unowned service] (call: MethodCall) in
                service.subscribe(caller: call.sender)
                call.reply()
            },
            "Unsubscribe": { [unowned service] (call: MethodCall) in
                service.unsubscribe(caller: call.sender)
                call.reply()
            },
            "Forget": { [unowned service] (call: MethodCall) in
                let path = call.arguments[0].string ?? ""
                let subject = service.registry.stack(atPath: path)?.displayName
                do throws(ServiceError) {
                    try service.forget(path: path)
                    service.deliver(.bookkeeping, send: { call.reply() }, fail: call.fail)
                } catch {
                    call.fail(error.dbusError(stack: subject))
                }
            },
        ], properties: [
            ManagerProperties.focusedStackName: { [unowned service] in .objectPath(service.focusedPath) },
            ManagerProperties.focusStrategyName: { [unowned service] in .string(service.focus.name) },
            ManagerProperties.versionName: { [unowned service] in .string(service.version) },
        ])
    }

    private static func focused(_ direction: Direction, _ call: MethodCall, _ service: UndoService) {
        service.triggers.call(direction, caller: call.sender) { record, result in
            switch result {
            case .success(let outcome):
                guard let record else { return }
                service.deliver(.applied(record), send: {
                    call.reply([.objectPath(record.path), .uint64(outcome.group), .string(outcome.name)])
                }, fail: call.fail)
            case .failure(let error):
                call.fail(error.dbusError(stack: record?.displayName))
            }
        }
    }
}

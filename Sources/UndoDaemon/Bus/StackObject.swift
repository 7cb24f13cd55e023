import DBus
import Undo1
import UndoCore

/// A stack object `/org/undod/Undo1/stack/N`: binds `Undo1Interfaces.stack`
/// to one record and the service.
enum StackObject {
    /// The live interface for `record`.
    static func interface(for record: StackRecord, service: UndoService) -> Interface {
        /// Runs an owner's operation and answers it, naming the stack in errors.
        func answer(_ call: MethodCall, _ durability: UndoService.Durability,
                    _ body: () throws(ServiceError) -> [DBusValue]) {
            do {
                let values = try body()
                service.deliver(durability, send: { call.reply(values) }, fail: call.fail)
            } catch {
                call.fail(error.dbusError(stack: record.displayName))
            }
        }
        func apply(_ direction: Direction, _ call: MethodCall) {
            service.apply(direction, on: record, caller: call.sender) { result in
                switch result {
                case .success(let outcome):
                    service.deliver(.applied(record), send: { call.reply([.uint64(outcome.group), .string(outcome.name)]) },
                                    fail: call.fail)
                case .failure(let error):
                    call.fail(error.dbusError(stack: record.displayName))
                }
            }
        }
        var getters: [String: () -> DBusValue] = [:]
        for name in StackProperties.names {
            getters[name] = { [unowned record] in record.properties.value(name) ?? .string("") }
        }
        return Undo1Interfaces.stack.binding(methods: [
            "Push": { [unowned record, unowned service] (call: MethodCall) in
                answer(call, .change(record)) { () throws(ServiceError) in
                    let action = Action(undo: call.arguments[1].bytes ?? [], redo: call.arguments[2].bytes ?? [])
                    let result = try service.push(record, caller: call.sender, name: call.arguments[0].string ?? "",
                                                  actions: [action], hints: call.arguments[3].stringDictionary ?? [:])
                    return [.uint64(result.group)]
                }
            },
            "PushGroup": { [unowned record, unowned service] (call: MethodCall) in
                answer(call, .change(record)) { () throws(ServiceError) in
                    let actions = (call.arguments[1].elements ?? []).map { pair in
                        Action(undo: pair.fields?.first?.bytes ?? [], redo: pair.fields?.last?.bytes ?? [])
                    }
                    let result = try service.push(record, caller: call.sender, name: call.arguments[0].string ?? "",
                                                  actions: actions, hints: call.arguments[2].stringDictionary ?? [:])
                    return [.uint64(result.group)]
                }
            },
            "Undo": { (call: MethodCall) in apply(.undo, call) },
            "Redo": { (call: MethodCall) in apply(.redo, call) },
            "SetClean": { [unowned record, unowned service] (call: MethodCall) in
                answer(call, .change(record)) { () throws(ServiceError) in
                    try service.setClean(record, caller: call.sender)
                    return []
                }
            },
            "Activate": { [unowned record, unowned service] (call: MethodCall) in
                answer(call, .bookkeeping) { () throws(ServiceError) in
                    try service.activate(record, caller: call.sender)
                    return []
                }
            },
            "Clear": { [unowned record, unowned service] (call: MethodCall) in
                answer(call, .change(record)) { () throws(ServiceError) in
                    try service.clear(record, caller: call.sender)
                    return []
                }
            },
            "Close": { [unowned record, unowned service] (call: MethodCall) in
                answer(call, .bookkeeping) { () throws(ServiceError) in
                    try service.close(record, caller: call.sender, discard: call.arguments[0].bool ?? false)
                    return []
                }
            },
            "History": { [unowned record] (call: MethodCall) in
                let history = record.stack.history
                call.reply([entries(history.undo), entries(history.redo)])
            },
        ], properties: getters)
    }

    private static func entries(_ side: [HistoryEntry]) -> DBusValue {
        .array(element: "(tsxt)", side.map { HistoryItem(group: $0.id, name: $0.name, time: $0.time, bytes: $0.bytes).value })
    }
}

import Caretaker
import DBus
import Undo1
import Undo1Wire
import UndoCore
import UndoStore

/// A stack object `/org/undod/Undo1/stack/N`: binds `Undo1Interfaces.stack`
/// to one record and the service, decoding each call into the service's
/// typed arguments and its answer into a reply or a named error.
enum StackObject {
    /// The live interface for `record`.
    /// `History` is for `readers` to allow; an undo or redo that finds the
    /// stack waiting for an answer asks `departed` whether its owner left.
    /// A large push is prepared by `pushes` before it is served.
    static func interface(for record: StackRecord, service: UndoService, readers: SandboxedReaders,
                          departed: DepartedOwners, pushes: PushPreparation) -> Interface {
        var getters: [String: () -> DBusValue] = [:]
        for name in StackProperties.names {
            getters[name] = { [unowned record] in record.properties.value(name) ?? .string("") }
        }
        let none: (()) -> [DBusValue] = { _ in [] }
        // The handlers hold the record (answers may leave after it is gone),
        // never the service, which holds the objects.
        let bound = Undo1Interfaces.stack.binding(methods: [
            "Undo": { [record, unowned service, unowned departed] (call: MethodCall) in
                apply(.undo, call, record, service, departed)
            },
            "Redo": { [record, unowned service, unowned departed] (call: MethodCall) in
                apply(.redo, call, record, service, departed)
            },
            "SetClean": { [record, unowned service] (call: MethodCall) in
                service.setClean(record, caller: call.sender) { call.answer($0, stack: record.displayName, none) }
            },
            "Activate": { [record, unowned service] (call: MethodCall) in
                service.activate(record, caller: call.sender) { call.answer($0, stack: record.displayName, none) }
            },
            "Deactivate": { [record, unowned service] (call: MethodCall) in
                service.deactivate(record, caller: call.sender) { call.answer($0, stack: record.displayName, none) }
            },
            "Clear": { [record, unowned service] (call: MethodCall) in
                service.clear(record, caller: call.sender) { call.answer($0, stack: record.displayName, none) }
            },
            "Close": { [record, unowned service] (call: MethodCall) in
                service.close(record, caller: call.sender, discard: call.arguments[0].bool ?? false) {
                    call.answer($0, stack: record.displayName, none)
                }
            },
            "History": { [unowned record, unowned readers] (call: MethodCall) in
                readers.sandboxBarring(call.sender, from: record) { [weak record] sandbox in
                    guard let record else { return }
                    if let sandbox {
                        return call.fail(ServiceError.notYours(sandbox: sandbox.description)
                            .dbusError(stack: record.displayName))
                    }
                    let history = record.stack.history
                    call.reply([entries(history.undo), entries(history.redo)])
                }
            },
        ], properties: getters)
        // `Push` and `PushGroup` are prepared when large (`PushPreparation`), then served with their file.
        return [PushMethod.push, .pushGroup].reduce(bound) { interface, method in
            interface.preparing(method.rawValue, with: { [record, unowned service, unowned pushes] call, done in
                pushes.prepare(method, call, for: record, of: service, done: done)
            }, then: { [record, unowned service] call, file in push(method, call, record, service, file) })
        }
    }

    /// `Push` or `PushGroup` (`PushMethod` says where their arguments are),
    /// with the file a large one's actions were written to while it waited
    /// (`PushPreparation`), if any. Payloads that could never fit the stack
    /// are refused before they are copied out of the message: a huge call
    /// costs no memory and no time beyond receiving it.
    private static func push(_ method: PushMethod, _ call: MethodCall, _ record: StackRecord, _ service: UndoService,
                             _ file: PayloadFile?) {
        if let bytes = call.byteArrayBytes(at: method.payloads, beyond: service.maxBytes(of: record)) {
            return service.refuseOversizedPush(record, caller: call.sender, bytes: UInt64(bytes)) {
                call.answer($0, stack: record.displayName) { [.uint64($0.group)] }
            }
        }
        // One pass over the arguments, in their order: the name, the
        // payloads (skipped when a file holds them), the hints.
        let (name, actions, hints) = call.readingArguments { reader in
            let name = reader.string()
            let actions = if let file { reader.skip(method.payloads.count) ? file.actions : nil }
                          else { method.actions(from: &reader) }
            return (name, actions, reader.stringDictionary())
        }
        guard let hints = call.options(hints, stack: record.displayName, PushHints.init) else { return }
        // Arguments the bus passed that we cannot read are the caller's to
        // fix, in those words: never a push of no name or no actions.
        guard let name, let actions else {
            return call.fail(.invalidArgs("undod could not read the arguments of this \(method.rawValue) for "
                                          + "\(record.displayName): nothing was pushed; send it again as "
                                          + "D-Bus's specification lays it out."))
        }
        service.push(record, caller: call.sender, name: name, actions: actions,
                     hints: hints, storedIn: file) { call.answer($0, stack: record.displayName) { [.uint64($0.group)] } }
    }

    /// `Undo`/`Redo`. A stack still waiting for an answer its owner may
    /// never send (the bus lost it, or the owner's leaving) has its owner
    /// checked (`DepartedOwners.serve`): one gone detaches it, and the
    /// call is answered as for a detached stack.
    private static func apply(_ direction: Direction, _ call: MethodCall, _ record: StackRecord, _ service: UndoService,
                              _ departed: DepartedOwners) {
        departed.serve({ done in
            service.apply(direction, on: record, caller: call.sender) { done(record, $0) }
        }, then: { _, result in
            call.answer(result, stack: record.displayName) { [.uint64($0.group), .string($0.name)] }
        })
    }

    private static func entries(_ side: [HistoryItem]) -> DBusValue {
        .array(element: "(tsxt)", side.map { $0.value })
    }
}

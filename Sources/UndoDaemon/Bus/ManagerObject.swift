import Caretaker
import DBus
import SafeText
import Undo1
import Undo1Wire
import UndoCore

/// The manager object `/org/undod/Undo1`: binds `Undo1Interfaces.manager`
/// to the service and the trigger handler, decoding each call into their
/// typed arguments and their answers into replies or named errors.
enum ManagerObject {
    /// The live interface for `service`; `UndoFocused`/`RedoFocused` go
    /// through `triggers`, which notifies; `ReportFocus` goes to `reports`;
    /// `KeyProblem` is what `keyProblems` shows.
    /// `Register` learns the caller's program from `origins` first, and
    /// where another owns the stack, asks `departed` whether it is still there.
    static func interface(for service: UndoService, triggers: TriggerHandler, reports: CompositorReports,
                          keyProblems: KeyProblemReporter, origins: CallerOrigins,
                          departed: DepartedOwners) -> Interface {
        Undo1Interfaces.manager.binding(methods: [
            "Register": { [unowned service, origins, departed] (call: MethodCall) in
                let appId = call.arguments[0].string ?? ""
                let fallback = "the stack of \(CallerText.quoted(appId))"
                guard let options = call.options(at: 1, stack: fallback, RegistrationOptions.init) else { return }
                let served: ServedProcess?
                do throws(ServiceError) {
                    served = try LocalProcess.served(options.process)
                } catch {
                    return call.fail(error.dbusError(stack: fallback))
                }
                origins.origin(of: call.sender) { answer in
                    let origin: StackOrigin?
                    switch answer {
                    case .known(let known): origin = known
                    case .unknown: origin = nil
                    case .gone: return call.fail(.failed("\(call.sender) left the bus before its Register was served."))
                    }
                    let existing = service.registry.stack(appId: appId, document: options.document ?? "")
                    let register = { (_: Bool) in
                        service.register(caller: call.sender, appId: appId, options: options, origin: origin,
                                         served: served) { result in
                            call.answer(result, stack: existing?.displayName ?? fallback) { [.objectPath($0.path)] }
                        }
                    }
                    // An owner that left unheard (its NameOwnerChanged lost) must not keep the stack.
                    guard let existing, existing.isAttached, existing.owner != call.sender else { return register(false) }
                    departed.ifGone(existing.owner, then: register)
                }
            },
            "UndoFocused": { [unowned triggers] (call: MethodCall) in focused(.undo, call, triggers) },
            "RedoFocused": { [unowned triggers] (call: MethodCall) in focused(.redo, call, triggers) },
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
            "ReportFocus": { [unowned reports] (call: MethodCall) in
                guard let processID = processID(call.arguments[0]) else {
                    call.fail(.invalidArgs("ReportFocus takes the window's process as a whole number from 0 to "
                        + "\(UInt32.max)."))
                    return
                }
                let report = WindowReport(processID: processID, appID: call.arguments[1].string ?? "",
                                          sandboxAppID: call.arguments[2].string ?? "")
                reports.accept(from: call.sender, report) { result in
                    switch result {
                    case .success: call.reply()
                    case .failure(let error): call.fail(error.dbusError(stack: nil))
                    }
                }
            },
            "Forget": { [unowned service] (call: MethodCall) in
                let path = call.arguments[0].string ?? ""
                let subject = service.registry.stack(atPath: path)?.displayName
                service.forget(path: path) { call.answer($0, stack: subject) { _ in [] } }
            },
        ], properties: [
            ManagerProperties.focusedStackName: { [unowned service] in .objectPath(service.focusedPath) },
            ManagerProperties.focusStrategyName: { [unowned service] in .string(service.focus.name) },
            ManagerProperties.versionName: { [unowned service] in .string(service.version) },
            ManagerProperties.keyProblemName: { [unowned keyProblems] in .string(keyProblems.current) },
        ])
    }

    /// `ReportFocus`'s pid: a `u`, or the same number as KWin's script
    /// engine sends it (`i`, or `d`); nil when it is no process number.
    private static func processID(_ value: DBusValue) -> UInt32? {
        switch value {
        case .uint32(let pid): pid
        case .int32(let pid): UInt32(exactly: pid)
        case .double(let pid): UInt32(exactly: pid)
        default: nil
        }
    }

    private static func focused(_ direction: Direction, _ call: MethodCall, _ triggers: TriggerHandler) {
        triggers.call(direction, caller: call.sender) { record, result in
            call.answer(result, stack: record?.displayName) { outcome in
                [.objectPath(record?.path ?? ManagerProperties.noStack), .uint64(outcome.group), .string(outcome.name)]
            }
        }
    }
}

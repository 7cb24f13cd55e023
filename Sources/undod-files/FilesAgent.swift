#if canImport(Glibc)
import Glibc
#endif
import DBus
import Dispatch
import FileTrash
import FileUndo
import Locking
import Loop
import ProcessEnvironment
import UndoKit

/// `undod-files --agent`: owns `org.undod.Files1` on the session bus (the
/// bus starts it on the first `Record`) and the stacks of the shells whose
/// commands it records, one each (app `org.undod.Shell`, the shell's
/// session its document, its pid the stack's `process`), through UndoKit.
/// undod calls it back to undo or redo a group: it replays the group's
/// recorded change (`StepReplay`), all or nothing, refusing with a
/// sentence naming the path where the files changed since.
final class FilesAgent {
    private let loop = EventLoop()
    private let connection: Connection
    private let objects: ObjectServer
    private let client: UndoClient
    private let environment: Environment
    private let replay: StepReplay
    /// The shells' stacks, by their session's document.
    private var stacks: [String: (stack: UndoStackClient, title: String)] = [:]
    /// Where undos and redos run, one at a time.
    private let applying = DispatchQueue(label: "undod-files.apply")
    /// Where trashed trees are measured for `directorysizes`, beside the
    /// replays (an undo does not wait for a walk).
    private let measuring = DispatchQueue(label: "undod-files.measure")

    /// The refusal's error name: the files are not as the command left them.
    static let refusedError = "org.undod.Files1.Error.Refused"

    init(address: String?, environment: Environment) throws(FilesError) {
        self.environment = environment
        guard let trash = Trash.ofUser(environment: environment.variables) else {
            throw FilesError("undod-files: neither XDG_DATA_HOME nor HOME says where the trash is")
        }
        replay = StepReplay(trash: trash)
        do throws(DBusError) {
            connection = if let address { try Connection(address: address, loop: loop) }
                         else { try Connection.session(loop: loop, environment: environment) }
        } catch {
            throw FilesError("undod-files: cannot serve on the bus: \(error.message)")
        }
        do {
            client = try UndoClient(address: address)
        } catch {
            throw FilesError("undod-files: cannot reach undod: \(error.message)")
        }
        objects = ObjectServer(connection: connection)
    }

    /// Exports the object, then owns the name (the call that started the
    /// agent arrives as soon as it does: the object must be there), and
    /// serves until the bus goes; then it exits.
    func run() throws(FilesError) -> Int32 {
        objects.export(path: FilesInterface.path, interfaces: [FilesInterface.declaration.binding(
            methods: ["Record": { [unowned self] call in self.record(call) },
                      "Adopt": { [unowned self] call in self.adopt(call) }], properties: [:])])
        let owned: Bool
        do throws(DBusError) {
            owned = try connection.requestName(FilesInterface.busName)
        } catch {
            throw FilesError("undod-files: cannot own \(FilesInterface.busName): \(error.message)")
        }
        guard owned else { throw FilesError("undod-files: another agent owns \(FilesInterface.busName) on this bus") }
        // The session's bus gone, so is the session: nothing is left to serve.
        connection.onDisconnect = { [loop] in loop.stop() }
        loop.run()
        client.close()
        return 0
    }

    /// `Record(u shell, s name, ay change) → (t group)`.
    private func record(_ call: MethodCall) {
        let arguments = call.arguments
        guard case .uint32(let pid) = arguments[0], let name = arguments[1].string, case .bytes(let payload) = arguments[2],
              let change = RecordedChange(payload: payload) else {
            return call.fail(.invalidArgs("Record takes a shell's pid, a command line and a change this agent wrote."))
        }
        guard let session = ShellSession.of(pid: pid) else {
            return call.fail(.invalidArgs("There is no process \(pid): the shell whose command this was has gone."))
        }
        do throws(UndoKitError) {
            let stack = try stack(of: session)
            let group = try Blocking.run { () async throws(UndoKitError) -> UInt64 in
                try await stack.push(name, undo: payload, redo: payload)
            }
            call.reply([.uint64(group)])
            // The trashed trees' sizes for `directorysizes`, after the reply (the
            // shell's prompt does not wait for a walk) and beside the replays
            // (`Trash.measure` writes a size only for what is still there).
            measuring.async { [replay] in
                for case .trashed(let entry) in change.steps where entry.isDirectory { replay.trash.measure(entry) }
            }
        } catch {
            call.fail(DBusError(name: error.name, message: error.message))
        }
    }

    /// `Adopt(u shell) → (o stack)`.
    private func adopt(_ call: MethodCall) {
        guard case .uint32(let pid) = call.arguments[0] else {
            return call.fail(.invalidArgs("Adopt takes a shell's pid."))
        }
        guard let session = ShellSession.of(pid: pid) else {
            return call.fail(.invalidArgs("There is no process \(pid): the shell has gone."))
        }
        do throws(UndoKitError) {
            call.reply([.objectPath(try stack(of: session).path)])
        } catch {
            call.fail(DBusError(name: error.name, message: error.message))
        }
    }

    /// The stack of `session`, registered (or its title brought up to date).
    private func stack(of session: ShellSession) throws(UndoKitError) -> UndoStackClient {
        let title = session.title(home: environment.nonEmpty("HOME"))
        var options = StackOptions(document: session.document, title: title, persist: true)
        options.process = session.pid
        let withProcess = options
        if let known = stacks[session.document] {
            if known.title != title {
                try Blocking.run { () async throws(UndoKitError) in try await known.stack.update(withProcess) }
                stacks[session.document] = (known.stack, title)
            }
            return known.stack
        }
        let replay = self.replay
        let queue = applying
        let client = self.client
        let stack = try Blocking.run { () async throws(UndoKitError) -> UndoStackClient in
            try await client.register(appId: ShellSession.appId, options: withProcess) { request in
                try await Self.apply(request, with: replay, on: queue)
            }
        }
        stacks[session.document] = (stack, title)
        return stack
    }

    /// Replays `request`'s change on `queue`: an error of a name undod
    /// passes on when the files are not as the command left them.
    private static func apply(_ request: ApplyRequest, with replay: StepReplay, on queue: DispatchQueue) async throws {
        guard let payload = request.payloads.first, let change = RecordedChange(payload: payload) else {
            throw UndoKitError(name: UndoKitError.obsolete.name,
                               message: "This group's change was written by another version of undod-files.")
        }
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            queue.async {
                do throws(FileUndoError) {
                    if request.direction == .undo { try replay.undo(change) } else { try replay.redo(change) }
                    done.resume()
                } catch {
                    switch error {
                    case .obsolete(let why): done.resume(throwing: UndoKitError(name: UndoKitError.obsolete.name, message: why))
                    case .refused(let why): done.resume(throwing: UndoKitError(name: refusedError, message: why))
                    }
                }
            }
        }
    }
}

/// Runs an async call of UndoKit's from the agent's loop, waiting for it:
/// the agent records one command at a time, and undos and redos run on a
/// queue of their own meanwhile.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws(UndoKitError) -> T) throws(UndoKitError) -> T {
        let outcome = Lock<Result<T, UndoKitError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, UndoKitError>
            do throws(UndoKitError) { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        finished.wait()
        return try outcome.withLock { $0 }!.get()
    }
}

/// Why undod-files could not start, as the line it prints.
struct FilesError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

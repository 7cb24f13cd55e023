#if canImport(Glibc)
import Glibc
#endif
import DBus
import FileTrash
import FileUndo
import Loop
import ProcessEnvironment

/// One command line run for a shell (`undod-files-run --shell PID rm -r
/// build`, what the shell functions call): done here, in the shell's directory and
/// on its terminal, as coreutils would do it, then recorded with the agent
/// as one group on the shell's stack. A line undod-files does not run goes
/// to the real command, with one line saying it cannot be undone. Its exit
/// status is the command's.
enum FileRunner {
    /// How long the agent (started by the bus if need be) may take to record.
    static let recordTimeoutMilliseconds = 10_000

    static func run(shell: UInt32, name: String, arguments: [String], environment: Environment) -> Int32 {
        let terminal = StandardTerminal()
        switch FileCommand.reading(name, arguments) {
        case .asItIs(let why):
            terminal.warn("undod-files-run: \(why)")
            return runAsItIs(name, arguments)
        case .undoable(let command):
            guard let trash = Trash.ofUser(environment: environment.variables), let directory = workingDirectory() else {
                terminal.warn("undod-files-run: \(name) cannot be undone (no home or working directory): running \(name) as it is")
                return runAsItIs(name, arguments)
            }
            let outcome = command.run(in: CommandContext(directory: directory, trash: trash, terminal: terminal))
            if !outcome.change.steps.isEmpty {
                let line = ([name] + arguments).map(ShellQuoting.quoted).joined(separator: " ")
                if let problem = record(shell: shell, line: line, change: outcome.change, environment: environment) {
                    terminal.warn("undod-files-run: \(line) cannot be undone from undod (\(problem)); "
                                  + "what it removed or replaced is in the trash")
                }
            }
            return outcome.status
        }
    }

    /// Records `change` with the agent; what went wrong, if anything.
    static func record(shell: UInt32, line: String, change: RecordedChange, environment: Environment) -> String? {
        let loop = EventLoop()
        do throws(DBusError) {
            let connection = try Connection.session(loop: loop, environment: environment)
            defer { connection.close() }
            let message = try Message.methodCall(destination: FilesBus.busName, path: FilesBus.path,
                                                 interface: FilesBus.interface, member: "Record",
                                                 arguments: [.uint32(shell), .string(line), .bytes(change.payload)])
            _ = try connection.callAndWait(message, timeoutMilliseconds: recordTimeoutMilliseconds)
            return nil
        } catch {
            return error.message.isEmpty ? error.name : error.message
        }
    }

    /// Runs the real `name` (found on PATH, never a shell function) in
    /// place of this process; 127 when it cannot be found.
    static func runAsItIs(_ name: String, _ arguments: [String]) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = ([name] + arguments).map { strdup($0) }
        argv.append(nil)
        execvp(name, &argv)
        StandardTerminal.write(2, "undod-files-run: cannot run \(name): \(String(cString: strerror(errno)))\n")
        return 127
    }

    /// The working directory, as the shell left it.
    static func workingDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `touch [-a] [-m] [-c] [--] FILE…`: a file that is missing made empty
/// (not with `-c`), the times of one that exists set to now (`-a` the
/// access time only, `-m` the modification time only), as coreutils'
/// `touch` would. Setting another time (`-d`, `-t`, `-r`) is left to the
/// real command.
struct TouchCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["a", "m", "c"], long: ["no-create": "c"])
    }

    var unknownOption: String? { options.unknown }

    func run(in context: CommandContext) -> CommandOutcome {
        let terminal = context.terminal
        var outcome = CommandOutcome(status: 0)
        guard !options.operands.isEmpty else { return missing("file operand", of: "touch", on: terminal) }
        let clock = FolderClock()
        let both = !options.flags.contains("a") && !options.flags.contains("m")
        for operand in options.operands {
            let path = context.absolute(operand)
            if let before = FileTimes.of(path), case .success(let identity) = SystemCall.identity(of: path) {
                let now = Self.now()
                let access: Int64? = both || options.flags.contains("a") ? now : nil
                let modification: Int64? = both || options.flags.contains("m") ? now : nil
                if case .failure(let error) = SystemCall.setTimes(path, access: access, modification: modification) {
                    terminal.warn("touch: setting times of \(quoted(operand)): \(error)")
                    outcome.status = 1
                } else if let after = FileTimes.of(path) {
                    outcome.change.steps.append(.retimed(path: path, identity: identity, before: before, after: after))
                }
                continue
            }
            if options.flags.contains("c") { continue }
            clock.willChange(path)
            switch SystemCall.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode: 0o666) {
            case .failure(let error):
                terminal.warn("touch: cannot touch \(quoted(operand)): \(error)")
                outcome.status = 1
            case .success(let fd):
                SystemCall.close(fd)
                guard case .success(let identity) = SystemCall.identity(of: path), let times = FileTimes.of(path),
                      let trash = context.trashDirectory(forNew: path, shown: operand, command: "touch") else { continue }
                outcome.change.steps.append(.created(path: path, identity: identity,
                                                     item: .file(size: 0, modified: times.modification),
                                                     token: Trash.newToken(), trash: trash))
            }
        }
        outcome.change.folders = clock.times()
        return outcome
    }

    /// Now, in ns since the epoch.
    private static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

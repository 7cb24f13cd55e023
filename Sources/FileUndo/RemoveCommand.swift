#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `rm [-f] [-i] [-r|-R] [-d] [-v] [--] FILE…`: each file to the trash of
/// its volume, a directory with everything in it at once (one rename), as
/// coreutils' `rm` would remove them: the same refusals and messages, the
/// same exit status.
struct RemoveCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["f", "i", "r", "R", "d", "v"],
                                 long: ["force": "f", "interactive": "i", "recursive": "r", "dir": "d", "verbose": "v"])
    }

    var unknownOption: String? { options.unknown }

    func run(in context: CommandContext) -> CommandOutcome {
        let force = options.flags.contains("f")
        let asking = options.flags.contains("i") && !force
        let recursive = options.flags.contains("r") || options.flags.contains("R")
        let terminal = context.terminal
        var outcome = CommandOutcome(status: 0)
        let clock = FolderClock()
        guard !options.operands.isEmpty else { return force ? outcome : missing("operand", of: "rm", on: terminal) }
        for operand in options.operands {
            let name = operand.split(separator: "/").last.map(String.init) ?? "/"
            let path = context.absolute(operand)
            if name == "." || name == ".." {
                terminal.warn("rm: refusing to remove '.' or '..' directory: skipping \(quoted(operand))")
                outcome.status = 1
                continue
            }
            if path.split(separator: "/").allSatisfy({ $0 == "." }) {
                terminal.warn("rm: it is dangerous to operate recursively on '/'")
                outcome.status = 1
                continue
            }
            let info: stat
            switch SystemCall.lstat(path) {
            case .success(let found):
                info = found
            case .failure(let error):
                if !(force && error.rawValue == ENOENT) {
                    terminal.warn("rm: cannot remove \(quoted(operand)): \(error)")
                    outcome.status = 1
                }
                continue
            }
            let isDirectory = info.st_mode & S_IFMT == S_IFDIR
            if isDirectory && !recursive {
                let empty = (try? SystemCall.directoryNames(path).get())?.isEmpty ?? false
                guard options.flags.contains("d") else {
                    terminal.warn("rm: cannot remove \(quoted(operand)): Is a directory")
                    outcome.status = 1
                    continue
                }
                guard empty else {
                    terminal.warn("rm: cannot remove \(quoted(operand)): Directory not empty")
                    outcome.status = 1
                    continue
                }
            }
            if asking, !terminal.ask("rm: remove \(Self.kind(info)) \(quoted(operand))? ") { continue }
            clock.willChange(path)
            clock.willRemove(path)
            do {
                // A tree's size for `directorysizes` is measured by the
                // agent once the command is done (`Trash.measure`): an
                // `rm -r` of 100,000 files costs one rename, not a walk.
                let entry = try context.trash.trash(path, measuring: false)
                outcome.change.steps.append(.trashed(entry))
            } catch {
                terminal.warn("rm: cannot remove \(quoted(operand)): \(error)")
                outcome.status = 1
                continue
            }
            if options.flags.contains("v") {
                terminal.say(isDirectory ? "removed directory \(quoted(operand))" : "removed \(quoted(operand))")
            }
        }
        outcome.change.folders = clock.times()
        return outcome
    }

    /// What `rm -i` calls the item: `regular file`, `directory`, ….
    static func kind(_ info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: "directory"
        case S_IFLNK: "symbolic link"
        case S_IFREG: info.st_size == 0 ? "regular empty file" : "regular file"
        case S_IFIFO: "fifo"
        case S_IFSOCK: "socket"
        default: "file"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `mkdir [-p] [-v] [--] DIRECTORY…`: each directory made (with `-p`, the
/// missing folders above it too, and an existing one is no error), as
/// coreutils' `mkdir` would; each one made is a step its undo takes to the
/// trash while it is empty.
struct MakeDirectoryCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["p", "v"], long: ["parents": "p", "verbose": "v"])
    }

    var unknownOption: String? { options.unknown }

    func run(in context: CommandContext) -> CommandOutcome {
        let terminal = context.terminal
        var outcome = CommandOutcome(status: 0)
        guard !options.operands.isEmpty else { return missing("operand", of: "mkdir", on: terminal) }
        let parents = options.flags.contains("p")
        let clock = FolderClock()
        for operand in options.operands {
            var made: [(operand: String, path: String)] = []
            if parents {
                var typed = operand.hasPrefix("/") ? "/" : ""
                for component in operand.split(separator: "/") {
                    typed += (typed.isEmpty || typed.hasSuffix("/") ? "" : "/") + component
                    made.append((typed, context.absolute(typed)))
                }
            } else {
                made = [(operand, context.absolute(operand))]
            }
            for (index, (typed, path)) in made.enumerated() {
                let last = index == made.count - 1
                clock.willChange(path)
                switch SystemCall.mkdir(path, mode: 0o777) {
                case .success:
                    clock.didMake(path)
                    guard case .success(let identity) = SystemCall.identity(of: path),
                          let trash = context.trashDirectory(forNew: path, shown: typed, command: "mkdir") else { continue }
                    outcome.change.steps.append(.created(path: path, identity: identity, item: .emptyFolder,
                                                         token: Trash.newToken(), trash: trash))
                    if options.flags.contains("v") { terminal.say("mkdir: created directory \(quoted(typed))") }
                case .failure(let error) where error.rawValue == EEXIST && (parents || !last):
                    continue
                case .failure(let error):
                    terminal.warn("mkdir: cannot create directory \(quoted(last ? operand : typed)): \(error)")
                    outcome.status = 1
                }
                if outcome.status != 0 && !last { break }
            }
        }
        outcome.change.folders = clock.times()
        return outcome
    }
}

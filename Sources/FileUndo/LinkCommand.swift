#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `ln [-s] [-f] [-i] [-n] [-v] [-T] [-t DIR] [--] TARGET… [LINK_NAME|DIR]`:
/// each link made as coreutils' `ln` makes it (a lone target linked here
/// under its own name); what `-f` replaces goes to the trash first. Each
/// link is a step its undo takes to the trash while it is still that
/// link.
struct LinkCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["s", "f", "i", "n", "v", "T"], valued: ["t"],
                                 long: ["symbolic": "s", "force": "f", "interactive": "i", "no-dereference": "n",
                                        "verbose": "v", "no-target-directory": "T", "target-directory": "t"])
    }

    var unknownOption: String? { options.unknown }

    func run(in context: CommandContext) -> CommandOutcome {
        var outcome = CommandOutcome(status: 0)
        var options = options
        // `-n`: a last operand that is a link to a folder is a name to
        // replace, not a folder to link into.
        if options.flags.contains("n"), options.values["t"] == nil, options.operands.count == 2,
           case .success(let info) = SystemCall.lstat(context.absolute(options.operands[1])),
           info.st_mode & S_IFMT == S_IFLNK {
            options.flags.insert("T")
        }
        guard let links = operandPairs(of: "ln", options, in: context, outcome: &outcome,
                                       single: { PathName.lastComponent($0) }) else { return outcome }
        let clock = FolderClock()
        for (target, name) in links where !link(target, at: name, in: context, clock: clock, outcome: &outcome) {
            outcome.status = 1
        }
        outcome.change.folders = clock.times()
        return outcome
    }

    /// Makes the link `name` to `target` (as typed); false where it could
    /// not (said).
    private func link(_ target: String, at name: String, in context: CommandContext, clock: FolderClock,
                      outcome: inout CommandOutcome) -> Bool {
        let terminal = context.terminal
        let symbolic = options.flags.contains("s")
        let kind = symbolic ? "symbolic link" : "hard link"
        let path = context.absolute(name)
        if !symbolic {
            switch SystemCall.lstat(context.absolute(target)) {
            case .failure(let error):
                terminal.warn("ln: failed to access \(quoted(target)): \(error)")
                return false
            case .success(let info) where info.st_mode & S_IFMT == S_IFDIR:
                terminal.warn("ln: \(quoted(target)): hard link not allowed for directory")
                return false
            case .success: break
            }
        }
        var replaced: TrashEntry?
        if case .success(let existing) = SystemCall.lstat(path) {
            let asked = options.flags.contains("i") && !options.flags.contains("f")
            guard options.flags.contains("f") || asked else {
                terminal.warn("ln: failed to create \(kind) \(quoted(name)): File exists")
                return false
            }
            if !symbolic, case .success(let one) = SystemCall.lstat(context.absolute(target)),
               one.st_dev == existing.st_dev && one.st_ino == existing.st_ino {
                terminal.warn("ln: \(quoted(target)) and \(quoted(name)) are the same file")
                return false
            }
            if asked && !terminal.ask("ln: replace \(quoted(name))? ") { return true }
            if existing.st_mode & S_IFMT == S_IFDIR {
                terminal.warn("ln: \(quoted(name)): cannot overwrite directory")
                return false
            }
            clock.willChange(path)
            do {
                replaced = try context.trash.trash(path)
            } catch {
                terminal.warn("ln: cannot replace \(quoted(name)): \(error)")
                return false
            }
        }
        clock.willChange(path)
        let made = symbolic ? SystemCall.symlink(target, at: path) : SystemCall.link(context.absolute(target), at: path)
        if case .failure(let error) = made {
            if let replaced { try? context.trash.restore(replaced) }
            terminal.warn("ln: failed to create \(kind) \(quoted(name)): \(error)")
            return false
        }
        if let replaced { outcome.change.steps.append(.trashed(replaced)) }
        if case .success(let identity) = SystemCall.identity(of: path), case .success(let info) = SystemCall.lstat(path),
           let trash = context.trashDirectory(forNew: path, shown: name, command: "ln") {
            let item: MadeItem = symbolic ? .file(size: UInt64(info.st_size), modified: FileTimes(info).modification) : .name
            outcome.change.steps.append(.created(path: path, identity: identity, item: item, token: Trash.newToken(),
                                                 trash: trash))
        }
        if options.flags.contains("v") {
            terminal.say("\(quoted(name)) \(symbolic ? "->" : "=>") \(quoted(target))")
        }
        return true
    }
}

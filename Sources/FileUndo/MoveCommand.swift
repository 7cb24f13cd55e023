#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `mv [-f] [-i] [-n] [-v] [-T] [-t DIR] [--] SOURCE… DEST`: each source
/// renamed, as coreutils' `mv` would move it; what it replaces goes to the
/// trash first. Within one volume only: a move across volumes (a copy
/// then a removal) is refused, and nothing moves.
struct MoveCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["f", "i", "n", "v", "T"], valued: ["t"],
                                 long: ["force": "f", "interactive": "i", "no-clobber": "n", "verbose": "v",
                                        "no-target-directory": "T", "target-directory": "t"])
    }

    var unknownOption: String? { options.unknown }

    func run(in context: CommandContext) -> CommandOutcome {
        let terminal = context.terminal
        var outcome = CommandOutcome(status: 0)
        guard let moves = pairs(in: context, outcome: &outcome) else { return outcome }
        let clock = FolderClock()
        for (source, destination) in moves {
            if !move(source, to: destination, in: context, clock: clock, outcome: &outcome) { outcome.status = 1 }
        }
        outcome.change.folders = clock.times()
        if outcome.status != 0 && moves.isEmpty { terminal.warn("Try 'mv --help' for more information.") }
        return outcome
    }

    /// Each source with where it goes (operands as typed), or nil (with
    /// the message printed) where the command line cannot be done at all.
    private func pairs(in context: CommandContext, outcome: inout CommandOutcome) -> [(String, String)]? {
        let terminal = context.terminal
        var sources = options.operands
        let folder: String?
        if let target = options.values["t"] {
            folder = target
        } else {
            guard sources.count >= 2 else {
                outcome = missing(sources.isEmpty ? "file operand"
                                                  : "destination file operand after \(quoted(sources[0]))",
                                  of: "mv", on: terminal)
                return nil
            }
            let last = sources.removeLast()
            if sources.count == 1 && (options.flags.contains("T") || !Self.isDirectory(context.absolute(last))) {
                return [(sources[0], last)]
            }
            folder = last
        }
        guard let folder, Self.isDirectory(context.absolute(folder)) else {
            terminal.warn("mv: target \(quoted(folder ?? "")) is not a directory")
            outcome.status = 1
            return nil
        }
        return sources.map { source in
            let name = source.split(separator: "/").last.map(String.init) ?? source
            return (source, folder.hasSuffix("/") ? folder + name : folder + "/" + name)
        }
    }

    /// Moves `source` to `destination` (operands as typed); false when it
    /// could not (the message printed).
    private func move(_ source: String, to destination: String, in context: CommandContext, clock: FolderClock,
                      outcome: inout CommandOutcome) -> Bool {
        let terminal = context.terminal
        let from = context.absolute(source)
        let to = context.absolute(destination)
        guard case .success(let item) = SystemCall.lstat(from), case .success(let identity) = SystemCall.identity(of: from)
        else {
            terminal.warn("mv: cannot stat \(quoted(source)): No such file or directory")
            return false
        }
        let isDirectory = item.st_mode & S_IFMT == S_IFDIR
        let existing = try? SystemCall.lstat(to).get()
        if let existing {
            if case .success(let other) = SystemCall.identity(of: to), other == identity {
                terminal.warn("mv: \(quoted(source)) and \(quoted(destination)) are the same file")
                return false
            }
            if options.flags.contains("n") { return true }
            if options.flags.contains("i") && !options.flags.contains("f"),
               !terminal.ask("mv: overwrite \(quoted(destination))? ") { return true }
            let replacesDirectory = existing.st_mode & S_IFMT == S_IFDIR
            if replacesDirectory && !isDirectory {
                terminal.warn("mv: cannot overwrite directory \(quoted(destination)) with non-directory")
                return false
            }
            if isDirectory && !replacesDirectory {
                terminal.warn("mv: cannot overwrite non-directory \(quoted(destination)) with directory \(quoted(source))")
                return false
            }
            if replacesDirectory, case .success(let names) = SystemCall.directoryNames(to), !names.isEmpty {
                terminal.warn("mv: cannot move \(quoted(source)) to \(quoted(destination)): Directory not empty")
                return false
            }
        }
        if isDirectory && (to + "/").hasPrefix(from + "/") {
            terminal.warn("mv: cannot move \(quoted(source)) to a subdirectory of itself, \(quoted(destination))")
            return false
        }
        let folder = PathName.parent(of: to)
        guard case .success(let target) = SystemCall.stat(folder) else {
            terminal.warn("mv: cannot move \(quoted(source)) to \(quoted(destination)): No such file or directory")
            return false
        }
        guard target.st_dev == item.st_dev else {
            terminal.warn("mv: cannot move \(quoted(source)) to \(quoted(destination)): it is on another volume, and "
                          + "undod-files moves only within one; nothing was moved (`command mv` copies it across)")
            return false
        }
        clock.willChange(from)
        clock.willChange(to)
        clock.willRemove(to)
        var replaced: TrashEntry?
        if existing != nil {
            do {
                replaced = try context.trash.trash(to)
            } catch {
                terminal.warn("mv: cannot move \(quoted(source)) to \(quoted(destination)): \(error)")
                return false
            }
        }
        if case .failure(let error) = SystemCall.renameNoReplace(from, to: to) {
            if let replaced { try? context.trash.restore(replaced) }
            terminal.warn("mv: cannot move \(quoted(source)) to \(quoted(destination)): \(error)")
            return false
        }
        if let replaced { outcome.change.steps.append(.trashed(replaced)) }
        outcome.change.steps.append(.moved(from: from, to: to, identity: identity))
        if options.flags.contains("v") { terminal.say("renamed \(quoted(source)) -> \(quoted(destination))") }
        return true
    }

    private static func isDirectory(_ path: String) -> Bool {
        guard case .success(let info) = SystemCall.stat(path) else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }
}

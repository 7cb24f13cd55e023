#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `mv [-f] [-i] [-n] [-v] [-T] [-t DIR] [--] SOURCE… DEST`: each source
/// renamed, as coreutils' `mv` would move it; what it replaces goes to the
/// trash first. Across volumes, as coreutils does it: a copy that keeps
/// everything (mode, owner, times), then the source to its trash.
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
        guard let moves = operandPairs(of: "mv", options, in: context, outcome: &outcome) else { return outcome }
        let clock = FolderClock()
        for (source, destination) in moves {
            if !move(source, to: destination, in: context, clock: clock, outcome: &outcome) { outcome.status = 1 }
        }
        outcome.change.folders = clock.times()
        if outcome.status != 0 && moves.isEmpty { terminal.warn("Try 'mv --help' for more information.") }
        return outcome
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
        let steps: [FileStep]
        if target.st_dev == item.st_dev {
            if case .failure(let error) = SystemCall.renameNoReplace(from, to: to) {
                if let replaced { try? context.trash.restore(replaced) }
                terminal.warn("mv: cannot move \(quoted(source)) to \(quoted(destination)): \(error)")
                return false
            }
            steps = [.moved(from: from, to: to, identity: identity)]
        } else {
            guard let across = moveAcross(FileCopier.Place(path: from, shown: source),
                                          to: FileCopier.Place(path: to, shown: destination), in: context) else {
                if let replaced { try? context.trash.restore(replaced) }
                return false
            }
            steps = across
        }
        if let replaced { outcome.change.steps.append(.trashed(replaced)) }
        outcome.change.steps += steps
        if options.flags.contains("v") { terminal.say("renamed \(quoted(source)) -> \(quoted(destination))") }
        return true
    }

    /// Moves `source` to `destination` on another volume: a whole copy
    /// that keeps everything, then the source to the trash of its volume
    /// (the copy discarded where that fails: nothing is there twice). The
    /// steps, or nil (said).
    private func moveAcross(_ source: FileCopier.Place, to destination: FileCopier.Place,
                            in context: CommandContext) -> [FileStep]? {
        let terminal = context.terminal
        let trash: String
        do {
            trash = try context.trash.directory(forItemAt: destination.path)
        } catch {
            terminal.warn("mv: cannot move \(quoted(source.shown)) to \(quoted(destination.shown)) so that it can "
                          + "be undone: \(error); nothing was moved")
            return nil
        }
        var complete = true
        let copier = FileCopier(command: "mv", preserving: true, terminal: terminal)
        guard let made = copier.copy(source, to: destination, following: false, complete: &complete),
              case .success(let identity) = SystemCall.identity(of: destination.path) else { return nil }
        guard complete else {
            FileCopier.discard(destination.path)
            terminal.warn("mv: \(quoted(source.shown)) was not copied whole, so it stays where it is")
            return nil
        }
        let removed: TrashEntry
        do {
            removed = try context.trash.trash(source.path)
        } catch {
            FileCopier.discard(destination.path)
            terminal.warn("mv: cannot remove \(quoted(source.shown)): \(error)")
            return nil
        }
        return [.created(path: destination.path, identity: identity, item: made, token: Trash.newToken(), trash: trash),
                .trashed(removed)]
    }
}

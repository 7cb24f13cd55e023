#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `cp [-r|-R] [-f] [-i] [-n] [-v] [-p] [-s] [-T] [-t DIR] [--] SOURCE…
/// DEST`: each source copied as coreutils' `cp` would copy it (a folder
/// into a folder that exists merged item by item); what a copy replaces
/// goes to the trash first. Each copy stands whole or not at all
/// (`FileCopier`), and is one step its undo takes to the trash while
/// nobody changed it.
struct CopyCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["r", "R", "f", "i", "n", "v", "p", "s", "T"], valued: ["t"],
                                 long: ["recursive": "r", "force": "f", "interactive": "i", "no-clobber": "n",
                                        "verbose": "v", "symbolic-link": "s", "no-target-directory": "T",
                                        "target-directory": "t"])
    }

    var unknownOption: String? { options.unknown }

    private var recursive: Bool { options.flags.contains("r") || options.flags.contains("R") }

    func run(in context: CommandContext) -> CommandOutcome {
        var outcome = CommandOutcome(status: 0)
        guard let copies = operandPairs(of: "cp", options, in: context, outcome: &outcome) else { return outcome }
        let clock = FolderClock()
        let verbose = options.flags.contains("v")
        let copier = FileCopier(command: "cp", preserving: options.flags.contains("p"), terminal: context.terminal,
                                copied: verbose ? { context.terminal.say("\(quoted($0)) -> \(quoted($1))") } : nil)
        for (source, destination) in copies {
            let from = FileCopier.Place(path: context.absolute(source), shown: source)
            let to = FileCopier.Place(path: context.absolute(destination), shown: destination)
            if !place(from, at: to, top: true, copier: copier, in: context, clock: clock, outcome: &outcome) {
                outcome.status = 1
            }
        }
        outcome.change.folders = clock.times()
        return outcome
    }

    /// Copies `source` to `destination`, replacing or merging into what is
    /// there as `cp` does; false where something was not copied (said).
    private func place(_ source: FileCopier.Place, at destination: FileCopier.Place, top: Bool, copier: FileCopier,
                       in context: CommandContext, clock: FolderClock, outcome: inout CommandOutcome) -> Bool {
        let terminal = context.terminal
        let following = top && !recursive
        let item: stat
        switch following || options.flags.contains("s") ? SystemCall.stat(source.path) : SystemCall.lstat(source.path) {
        case .success(let found): item = found
        case .failure(let error):
            terminal.warn("cp: cannot stat \(quoted(source.shown)): \(error)")
            return false
        }
        let isFolder = item.st_mode & S_IFMT == S_IFDIR
        if isFolder && !recursive && !options.flags.contains("s") {
            terminal.warn("cp: -r not specified; omitting directory \(quoted(source.shown))")
            return false
        }
        var replaced: TrashEntry?
        if case .success(let existing) = SystemCall.lstat(destination.path) {
            if case .success(let one) = SystemCall.stat(source.path), case .success(let other) = SystemCall.stat(destination.path),
               one.st_dev == other.st_dev && one.st_ino == other.st_ino {
                terminal.warn("cp: \(quoted(source.shown)) and \(quoted(destination.shown)) are the same file")
                return false
            }
            let replacesFolder = existing.st_mode & S_IFMT == S_IFDIR
            if replacesFolder && isFolder && !options.flags.contains("s") {
                return merge(source, into: destination, copier: copier, in: context, clock: clock, outcome: &outcome)
            }
            if replacesFolder {
                terminal.warn("cp: cannot overwrite directory \(quoted(destination.shown)) with non-directory")
                return false
            }
            if isFolder && !options.flags.contains("s") {
                terminal.warn("cp: cannot overwrite non-directory \(quoted(destination.shown)) with directory "
                              + quoted(source.shown))
                return false
            }
            if options.flags.contains("n") { return true }
            if options.flags.contains("i") && !options.flags.contains("f"),
               !terminal.ask("cp: overwrite \(quoted(destination.shown))? ") { return true }
            clock.willChange(destination.path)
            do {
                replaced = try context.trash.trash(destination.path)
            } catch {
                terminal.warn("cp: cannot replace \(quoted(destination.shown)): \(error)")
                return false
            }
        }
        if isFolder && (destination.path + "/").hasPrefix(source.path + "/") && !options.flags.contains("s") {
            terminal.warn("cp: cannot copy a directory, \(quoted(source.shown)), into itself, \(quoted(destination.shown))")
            if let replaced { try? context.trash.restore(replaced) }
            return false
        }
        clock.willChange(destination.path)
        var complete = true
        let made = options.flags.contains("s") ? link(source, at: destination, on: terminal)
            : copier.copy(source, to: destination, following: following, complete: &complete)
        guard let made, case .success(let identity) = SystemCall.identity(of: destination.path) else {
            if let replaced { try? context.trash.restore(replaced) }
            return false
        }
        if let replaced { outcome.change.steps.append(.trashed(replaced)) }
        if let trash = context.trashDirectory(forNew: destination.path, shown: destination.shown, command: "cp") {
            outcome.change.steps.append(.created(path: destination.path, identity: identity, item: made,
                                                 token: Trash.newToken(), trash: trash))
        }
        return complete
    }

    /// Copies what is in the folder `source` into the folder `destination`
    /// that exists, item by item (`cp -r a b` where `b/a` is there).
    private func merge(_ source: FileCopier.Place, into destination: FileCopier.Place, copier: FileCopier,
                       in context: CommandContext, clock: FolderClock, outcome: inout CommandOutcome) -> Bool {
        if (destination.path + "/").hasPrefix(source.path + "/") {
            context.terminal.warn("cp: cannot copy a directory, \(quoted(source.shown)), into itself, "
                                  + quoted(destination.shown))
            return false
        }
        let names: [String]
        switch SystemCall.directoryNames(source.path) {
        case .success(let found): names = found
        case .failure(let error):
            context.terminal.warn("cp: cannot access \(quoted(source.shown)): \(error)")
            return false
        }
        var complete = true
        for name in names.sorted() where !place(source.appending(name), at: destination.appending(name), top: false,
                                                copier: copier, in: context, clock: clock, outcome: &outcome) {
            complete = false
        }
        return complete
    }

    /// `cp -s`: a symbolic link at `destination` to `source` as typed,
    /// which must be absolute unless the link is made here.
    private func link(_ source: FileCopier.Place, at destination: FileCopier.Place,
                      on terminal: any CommandTerminal) -> MadeItem? {
        if !source.shown.hasPrefix("/") && destination.shown.contains("/") {
            terminal.warn("cp: \(destination.shown): can make relative symbolic links only in current directory")
            return nil
        }
        if case .failure(let error) = SystemCall.symlink(source.shown, at: destination.path) {
            terminal.warn("cp: cannot create symbolic link \(quoted(destination.shown)) to \(quoted(source.shown)): \(error)")
            return nil
        }
        if options.flags.contains("v") { terminal.say("\(quoted(source.shown)) -> \(quoted(destination.shown))") }
        guard case .success(let info) = SystemCall.lstat(destination.path) else { return nil }
        return .file(size: UInt64(info.st_size), modified: FileTimes(info).modification)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `rmdir [-p] [-v] [--ignore-fail-on-non-empty] [--] DIRECTORY…`: each
/// empty directory to the trash (with `-p`, then each folder of the path
/// above it that is empty now), as coreutils' `rmdir` would remove them:
/// the same refusals, messages and exit status.
struct RemoveDirectoryCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["p", "v", "I"],
                                 long: ["parents": "p", "verbose": "v", "ignore-fail-on-non-empty": "I"])
    }

    var unknownOption: String? { options.unknown }

    func run(in context: CommandContext) -> CommandOutcome {
        let terminal = context.terminal
        var outcome = CommandOutcome(status: 0)
        guard !options.operands.isEmpty else { return missing("operand", of: "rmdir", on: terminal) }
        let clock = FolderClock()
        for operand in options.operands {
            var typed = operand
            while true {
                guard remove(typed, in: context, clock: clock, outcome: &outcome) else { break }
                // -p: the folders of the path as typed, innermost first.
                guard options.flags.contains("p"), let slash = typed.lastIndex(of: "/"), slash != typed.startIndex
                else { break }
                typed = String(typed[..<slash])
            }
        }
        outcome.change.folders = clock.times()
        return outcome
    }

    /// Removes the directory `typed` names; false when it could not.
    private func remove(_ typed: String, in context: CommandContext, clock: FolderClock,
                        outcome: inout CommandOutcome) -> Bool {
        let terminal = context.terminal
        let path = context.absolute(typed)
        if options.flags.contains("v") { terminal.say("rmdir: removing directory, \(quoted(typed))") }
        let why: String?
        switch SystemCall.lstat(path) {
        case .failure(let error):
            why = error.description
        case .success(let info) where info.st_mode & S_IFMT != S_IFDIR:
            why = "Not a directory"
        case .success:
            if case .success(let names) = SystemCall.directoryNames(path), !names.isEmpty {
                if options.flags.contains("I") { return false }
                why = "Directory not empty"
            } else {
                why = nil
            }
        }
        if let why {
            terminal.warn("rmdir: failed to remove \(quoted(typed)): \(why)")
            outcome.status = 1
            return false
        }
        clock.willChange(path)
        clock.willRemove(path)
        do {
            outcome.change.steps.append(.trashed(try context.trash.trash(path)))
            return true
        } catch {
            terminal.warn("rmdir: failed to remove \(quoted(typed)): \(error)")
            outcome.status = 1
            return false
        }
    }
}

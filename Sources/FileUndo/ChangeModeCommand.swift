#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// `chmod [-R] [-v] [-c] [-f] [--] MODE[,MODE]… FILE…`: each file's mode
/// set as coreutils' `chmod` sets it (a link given followed; with `-R`,
/// each folder before what is in it, and links met inside left alone);
/// each mode changed is a step its undo sets back while nobody changed it
/// since. A mode written as an option (`-w`) goes to the real command.
struct ChangeModeCommand: UndoableCommand {
    let options: CommandOptions

    init(_ arguments: [String]) {
        options = CommandOptions(arguments, flags: ["R", "v", "c", "f"],
                                 long: ["recursive": "R", "verbose": "v", "changes": "c", "silent": "f", "quiet": "f"])
    }

    var unknownOption: String? { options.unknown }

    func run(in context: CommandContext) -> CommandOutcome {
        let terminal = context.terminal
        var outcome = CommandOutcome(status: 0)
        guard let text = options.operands.first else { return missing("operand", of: "chmod", on: terminal) }
        guard options.operands.count > 1 else { return missing("operand after \(quoted(text))", of: "chmod", on: terminal) }
        guard let change = ModeChange(text) else {
            terminal.warn("chmod: invalid mode: \(quoted(text))")
            terminal.warn("Try 'chmod --help' for more information.")
            return CommandOutcome(status: 1)
        }
        let mask = UInt32(SystemCall.creationMask())
        for operand in options.operands.dropFirst() {
            let path = context.absolute(operand)
            if case .failure(let error) = SystemCall.stat(path) {
                if !options.flags.contains("f") { terminal.warn("chmod: cannot access \(quoted(operand)): \(error)") }
                outcome.status = 1
                continue
            }
            var pending = [(path: SystemCall.resolvedPath(path) ?? path, shown: operand)]
            while let (path, shown) = pending.popLast() {
                guard case .success(let info) = SystemCall.lstat(path), info.st_mode & S_IFMT != S_IFLNK else { continue }
                let isFolder = info.st_mode & S_IFMT == S_IFDIR
                if !set(path, shown, info, change.applied(to: UInt32(info.st_mode), isFolder: isFolder, mask: mask),
                        on: terminal, outcome: &outcome) {
                    outcome.status = 1
                }
                guard isFolder && options.flags.contains("R") else { continue }
                switch SystemCall.directoryNames(path) {
                case .success(let names):
                    for name in names.sorted(by: >) {
                        pending.append((path + "/" + name, shown.hasSuffix("/") ? shown + name : shown + "/" + name))
                    }
                case .failure(let error):
                    if !options.flags.contains("f") { terminal.warn("chmod: cannot read directory \(quoted(shown)): \(error)") }
                    outcome.status = 1
                }
            }
        }
        return outcome
    }

    /// Sets the mode of the item `info` at `path` to `mode`, saying so
    /// with `-v` or `-c`; false where it could not (said).
    private func set(_ path: String, _ shown: String, _ info: stat, _ mode: UInt32, on terminal: any CommandTerminal,
                     outcome: inout CommandOutcome) -> Bool {
        let before = UInt32(info.st_mode & 0o7777)
        let verbose = options.flags.contains("v")
        guard mode != before else {
            if verbose {
                terminal.say("mode of \(quoted(shown)) retained as \(ModeText.octal(before)) (\(ModeText.letters(before)))")
            }
            return true
        }
        guard case .success(let identity) = SystemCall.identity(of: path) else { return false }
        if case .failure(let error) = SystemCall.chmod(path, mode: mode_t(mode)) {
            if !options.flags.contains("f") { terminal.warn("chmod: changing permissions of \(quoted(shown)): \(error)") }
            return false
        }
        outcome.change.steps.append(.remoded(path: path, identity: identity, before: before, after: mode))
        if verbose || options.flags.contains("c") {
            terminal.say("mode of \(quoted(shown)) changed from \(ModeText.octal(before)) (\(ModeText.letters(before))) "
                         + "to \(ModeText.octal(mode)) (\(ModeText.letters(mode)))")
        }
        return true
    }
}

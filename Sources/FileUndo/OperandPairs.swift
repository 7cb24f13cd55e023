#if canImport(Glibc)
import Glibc
#endif
import FileTrash
import SystemCalls

/// Each source of `cp`, `mv` or `ln` with where it goes, as coreutils
/// reads `SOURCE DEST`, `SOURCE… DIRECTORY`, `-t DIRECTORY SOURCE…` and
/// `-T SOURCE DEST`: nil (the message said, `outcome` failed) where the
/// command line cannot be done at all. Operands are kept as typed.
/// `single` gives the destination of a lone operand (`ln -s /x/y`: `y`
/// here), where the command allows one.
func operandPairs(of command: String, _ options: CommandOptions, in context: CommandContext,
                  outcome: inout CommandOutcome, single: ((String) -> String)? = nil) -> [(String, String)]? {
    var sources = options.operands
    let folder: String?
    if let target = options.values["t"] {
        folder = target
    } else {
        if sources.count == 1, let single {
            return [(sources[0], single(sources[0]))]
        }
        guard sources.count >= 2 else {
            outcome = missing(sources.isEmpty ? "file operand" : "destination file operand after \(quoted(sources[0]))",
                              of: command, on: context.terminal)
            return nil
        }
        let last = sources.removeLast()
        if sources.count == 1 && (options.flags.contains("T") || !isFolder(context.absolute(last))) {
            return [(sources[0], last)]
        }
        folder = last
    }
    guard let folder, isFolder(context.absolute(folder)) else {
        context.terminal.warn("\(command): target \(quoted(folder ?? "")) is not a directory")
        outcome.status = 1
        return nil
    }
    return sources.map { source in
        let name = PathName.lastComponent(source)
        return (source, folder.hasSuffix("/") ? folder + name : folder + "/" + name)
    }
}

/// Whether `path` is a folder (links followed).
func isFolder(_ path: String) -> Bool {
    guard case .success(let info) = SystemCall.stat(path) else { return false }
    return info.st_mode & S_IFMT == S_IFDIR
}

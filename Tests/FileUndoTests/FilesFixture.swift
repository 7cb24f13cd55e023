import FileTrash
import FileUndo
import Foundation

/// A working directory and a home with its trash under /tmp, a terminal
/// that records what a command prints and answers its questions from a
/// script, and the files' state taken whole to compare before and after.
final class FilesFixture {
    let root: String
    let work: String
    let trash: Trash
    let terminal = RecordingTerminal()

    init() throws {
        root = NSTemporaryDirectory() + "undod-files-" + UUID().uuidString
        work = root + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        trash = Trash(homeTrash: root + "/home/.local/share/Trash", uid: getuid())
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    var replay: StepReplay { StepReplay(trash: trash) }

    /// Runs `line` (`rm -r a`) in the working directory.
    @discardableResult
    func run(_ line: String) -> CommandOutcome {
        var words = line.split(separator: " ").map(String.init)
        let name = words.removeFirst()
        guard case .undoable(let command) = FileCommand.reading(name, words) else { return CommandOutcome(status: -1) }
        return command.run(in: CommandContext(directory: work, trash: trash, terminal: terminal))
    }

    /// Writes `text` to `name` in the working directory, folders made.
    func file(_ name: String, _ text: String = "text", mode: Int = 0o644) throws {
        let path = work + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    func text(_ name: String) -> String? {
        FileManager.default.contents(atPath: work + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(work + "/" + name, &info) == 0
    }

    /// Every item under the working directory: its kind, mode, size,
    /// modification time (ns), inode, and its bytes or where it links.
    func snapshot() -> [String: String] {
        var items: [String: String] = [:]
        var pending = [""]
        while let next = pending.popLast() {
            let path = next.isEmpty ? work : work + "/" + next
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            var text = "mode \(String(info.st_mode, radix: 8)) size \(info.st_size) "
                + "mtime \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) inode \(info.st_ino)"
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                    pending.append(next.isEmpty ? name : next + "/" + name)
                }
            case S_IFLNK:
                text += " -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default:
                text += " " + (FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "?")
            }
            if !next.isEmpty { items[next] = text }
        }
        return items
    }
}

/// What a command printed, and the answers it gets to its questions.
final class RecordingTerminal: CommandTerminal {
    var said: [String] = []
    var warned: [String] = []
    var asked: [String] = []
    var answers: [Bool] = []

    func say(_ line: String) { said.append(line) }
    func warn(_ line: String) { warned.append(line) }
    func ask(_ question: String) -> Bool {
        asked.append(question)
        return answers.isEmpty ? false : answers.removeFirst()
    }
}

import FileTrash
import BusHarness
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

    /// A volume other than the one /tmp is on, for moves across volumes.
    static let otherVolume: String? = {
        var shm = stat()
        var tmp = stat()
        guard stat("/dev/shm", &shm) == 0, stat(NSTemporaryDirectory(), &tmp) == 0, shm.st_dev != tmp.st_dev,
              access("/dev/shm", W_OK) == 0 else { return nil }
        return "/dev/shm"
    }()

    /// The permission and special bits of `name`'s mode.
    func mode(_ name: String) -> UInt32 {
        var info = stat()
        return lstat(work + "/" + name, &info) == 0 ? UInt32(info.st_mode & 0o7777) : 0
    }

    /// `name`'s modification time, in ns.
    func modified(_ name: String) -> Int {
        var info = stat()
        return lstat(work + "/" + name, &info) == 0 ? info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec : 0
    }

    /// `name`'s inode.
    func inode(_ name: String) -> UInt {
        var info = stat()
        return lstat(work + "/" + name, &info) == 0 ? UInt(info.st_ino) : 0
    }

    /// Every item under `top` (the working directory when nil), as
    /// `FileTreeSnapshot` takes it.
    func snapshot(of top: String? = nil, inodes: Bool = true) -> [String: String] {
        FileTreeSnapshot.of(top ?? work, inodes: inodes)
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

import SystemCalls

/// An interactive shell whose files undod-files changes, as `/proc` shows
/// it: its process (with its start time, so a pid used again later is
/// another session), the terminal it reads from, its program and where it
/// is. Its stack is app `org.undod.Shell`, document `document`, with
/// `process` its pid, so the global key finds it when its terminal is in
/// front.
public struct ShellSession: Sendable, Equatable {
    /// The app id every shell's stack has.
    public static let appId = "org.undod.Shell"

    /// The shell's process.
    public var pid: UInt32
    /// When it started (clock ticks since boot).
    public var startTime: UInt64
    /// Its terminal (`pts/3`), or `""` where its input is no terminal.
    public var terminal: String
    /// Its program's name (`bash`).
    public var program: String

    /// The session of the shell `pid`; nil where `/proc` has no such process.
    public static func of(pid: UInt32) -> ShellSession? {
        guard pid > 1, case .success(let stat) = SystemCall.readFile("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let started = UInt64(String(decoding: fields[fields.startIndex + 19], as: UTF8.self))
        else { return nil }
        let program = (try? SystemCall.readFile("/proc/\(pid)/comm").get())
            .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" } ?? ""
        var terminal = (try? SystemCall.readLink("/proc/\(pid)/fd/0").get()) ?? ""
        // A terminal (`/dev/pts/3`, `/dev/tty2`), not /dev/null or a pipe.
        terminal = terminal.hasPrefix("/dev/pts/") || terminal.hasPrefix("/dev/tty") ? String(terminal.dropFirst(5)) : ""
        return ShellSession(pid: pid, startTime: started, terminal: terminal, program: program)
    }

    /// A session with these fields.
    public init(pid: UInt32, startTime: UInt64, terminal: String, program: String) {
        self.pid = pid
        self.startTime = startTime
        self.terminal = terminal
        self.program = program
    }

    /// Its stack's document: `pts/3 pid 4242 since 8812345`.
    public var document: String {
        (terminal.isEmpty ? "" : terminal + " ") + "pid \(pid) since \(startTime)"
    }

    /// Its stack's title: `bash in ~/src (pts/3)`, where it is now (`home`
    /// shown as `~`).
    public func title(home: String?) -> String {
        var place = (try? SystemCall.readLink("/proc/\(pid)/cwd").get()) ?? ""
        if let home, !home.isEmpty, home != "/", place == home || place.hasPrefix(home + "/") {
            place = "~" + place.dropFirst(home.count)
        }
        let name = program.isEmpty ? "shell" : program
        return name + (place.isEmpty ? "" : " in " + place) + (terminal.isEmpty ? "" : " (\(terminal))")
    }
}

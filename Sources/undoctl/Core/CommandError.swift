import JSONText

/// Why a command stopped: the exit status it ends with and the one sentence
/// it prints on stderr. The only error type commands throw.
struct CommandError: Error, Sendable, Equatable {
    /// The exit status.
    var code: ExitCode
    /// The sentence for stderr, without the `undoctl: ` prefix.
    var message: String
    /// For usage errors, the command whose help the hint points at.
    var command: String?
    /// For refusals by undod, the D-Bus error name it answered with.
    var errorName: String?

    /// A refusal by the daemon, or a TARGET that names no stack or several
    /// (exit 1).
    static func refused(_ message: String, errorName: String? = nil) -> CommandError {
        CommandError(code: .refused, message: message, errorName: errorName)
    }

    /// A wrong command line (exit 2); `command` names the help to point at.
    static func usage(_ message: String, command: String? = nil) -> CommandError {
        CommandError(code: .usage, message: message, command: command)
    }

    /// The daemon is out of reach (exit 3).
    static func unreachable(_ message: String, errorName: String? = nil) -> CommandError {
        CommandError(code: .unreachable, message: message, errorName: errorName)
    }

    /// The error as `undo --json` reports a failed step.
    var json: JSONValue {
        .object(["name": errorName.map(JSONValue.string) ?? .null, "message": .string(message),
                 "exit_status": .int(Int64(code.rawValue))])
    }
}

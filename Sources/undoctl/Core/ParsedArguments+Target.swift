extension ParsedArguments {
    /// The one optional TARGET, or nil; more positional arguments than that
    /// are a usage error of `command`.
    func optionalTarget(of command: String) throws(CommandError) -> String? {
        guard positionals.count <= 1 else {
            throw .usage("\(command) takes at most one TARGET, got \(positionals.count): "
                + positionals.map(Format.quoted).joined(separator: " "), command: command)
        }
        if let target = positionals.first, target.isEmpty {
            throw .usage("TARGET is empty", command: command)
        }
        return positionals.first
    }

    /// The one required TARGET of `command`.
    func requiredTarget(of command: String) throws(CommandError) -> String {
        guard let target = try optionalTarget(of: command) else {
            throw .usage("\(command) needs a TARGET (an app id, app_id:document, a stack number or path)",
                         command: command)
        }
        return target
    }

    /// Refuses any positional argument (`command` takes none).
    func noPositionals(of command: String) throws(CommandError) {
        guard positionals.isEmpty else {
            throw .usage("\(command) takes no arguments, got \(Format.quoted(positionals[0]))", command: command)
        }
    }
}

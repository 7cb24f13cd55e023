/// Turns a TARGET from the command line into one stack: an app id (that
/// app's stacks, whatever their document), `app_id:document` (`app_id:` is
/// the app's stack with the empty document, and always means an app id), a
/// stack number, or a stack object path. All digits may be a stack number or
/// an app id (`3`): both are candidates. Where none of these matches, the
/// title `list` shows (`Notes`, in any case) names the stacks that carry it.
/// No match, or more than one, is a refusal (exit 1) whose sentence lists
/// what there is.
enum TargetResolver {
    /// The stack `target` names among `stacks`.
    static func resolve(_ target: String, among stacks: [StackInfo]) throws(CommandError) -> StackInfo {
        var matches = candidates(for: target, among: stacks)
        if matches.isEmpty { matches = titled(target, among: stacks) }
        if matches.count == 1, let only = matches.first { return only }
        if matches.isEmpty {
            let hint = stacks.isEmpty ? "there are no stacks at all" : "run `undoctl list` to see the stacks"
            throw .refused("no stack matches \(Format.quoted(target)): \(hint)")
        }
        var lines = ["\(Format.quoted(target)) matches \(matches.count) stacks; name one of them:"]
        lines += Format.table(matches.map { ["  \($0.number)", $0.identity, $0.displayTitle] },
                              rightAligned: [0])
        throw .refused(lines.joined(separator: "\n"))
    }

    /// The shortest TARGET that names `stack` alone among `stacks`: its app
    /// id, else `app_id:document` (`app_id:` for the empty document), else its
    /// number. What `list` shows and `list -q` offers to completion.
    static func target(naming stack: StackInfo, among stacks: [StackInfo]) -> String {
        for target in [stack.identity, stack.appId + ":" + stack.document]
        where candidates(for: target, among: stacks).count == 1 {
            return target
        }
        return String(stack.number)
    }

    /// The stacks whose title is `target`, exactly, else in another case.
    static func titled(_ target: String, among stacks: [StackInfo]) -> [StackInfo] {
        let exact = stacks.filter { $0.title == target }
        if !exact.isEmpty { return exact }
        let folded = target.lowercased()
        return stacks.filter { $0.title.lowercased() == folded }
    }

    /// Every stack that `target` could mean.
    static func candidates(for target: String, among stacks: [StackInfo]) -> [StackInfo] {
        if target.hasPrefix("/") {
            return stacks.filter { $0.path == target }
        }
        if !target.isEmpty, target.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let number = UInt64(target)
            return stacks.filter { $0.number == number || $0.appId == target }
        }
        if let colon = target.firstIndex(of: ":") {
            // App ids never hold a colon, so the first one ends the app id.
            let appId = String(target[..<colon])
            let document = String(target[target.index(after: colon)...])
            return stacks.filter { $0.appId == appId && $0.document == document }
        }
        return stacks.filter { $0.appId == target }
    }
}

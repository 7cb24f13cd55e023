/// Which child nodes each path has, kept as objects come and go, so that
/// introspecting a path costs what its own children cost and not a walk of
/// every exported object (with 10,000 stacks exported, each of dbus-python's
/// introspections of `/org/undod/Undo1` walked all of them: 90 % of undod's
/// time while clients registered).
struct ObjectPathIndex {
    /// For each path, its child names and how many objects lie through each.
    private var children: [String: [Substring: Int]] = [:]

    /// Counts the object newly exported at `path` under each of its ancestors.
    mutating func added(_ path: String) {
        forEachAncestor(of: path) { ancestor, child in children[ancestor, default: [:]][child, default: 0] += 1 }
    }

    /// Forgets the object at `path`, which was exported until now.
    mutating func removed(_ path: String) {
        forEachAncestor(of: path) { ancestor, child in
            let left = (children[ancestor]?[child] ?? 1) - 1
            children[ancestor]?[child] = left > 0 ? left : nil
            if children[ancestor]?.isEmpty == true { children[ancestor] = nil }
        }
    }

    /// The names of the nodes directly below `path`, sorted.
    func childNodes(of path: String) -> [String] {
        (children[path] ?? [:]).keys.map(String.init).sorted()
    }

    /// Calls `body` with each proper ancestor of `path` and the name of the
    /// child of that ancestor on the way to `path`.
    private func forEachAncestor(of path: String, _ body: (String, Substring) -> Void) {
        var ancestor = "/"
        for component in path.split(separator: "/") {
            body(ancestor, component)
            ancestor += ancestor == "/" ? component : "/" + component
        }
    }
}

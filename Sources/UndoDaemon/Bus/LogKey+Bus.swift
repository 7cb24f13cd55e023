import Logging

/// The keys of the bus side's lines in undod's log (Docs/USING.md, "The log").
extension LogKey {
    /// An owner (named) had left the bus without undod hearing of it: its stacks are detached now.
    static let ownerLeftUnheard = LogKey("owner.left-unheard")
}

/// Where the service's stacks are reachable and its announcements go: the
/// bus in undod (`BusPublisher`), a recorder in the service's tests. The
/// service knows no wire; this is its one way out.
package protocol StackPublisher: AnyObject {
    /// Makes `record`, a stack of `service`, reachable at its path at once (not announced: an
    /// `Announcement.stackAdded` follows at the end of the turn).
    func publish(_ record: StackRecord, of service: UndoService)
    /// Makes the stack at `path` unreachable at once; returns the names of
    /// the interfaces it had, for `Announcement.stackRemoved`.
    func withdraw(path: String) -> [String]
    /// Sends `announcement` now (the turn's transaction calls it after the turn's replies).
    func send(_ announcement: Announcement)
}

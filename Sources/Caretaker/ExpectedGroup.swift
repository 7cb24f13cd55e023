/// A group as a notification offered it: the one that must move, unchanged.
package struct ExpectedGroup: Sendable, Equatable {
    /// The group's id.
    package var id: UInt64
    /// Its name, for the sentence when it is no longer next.
    package var name: String
    /// When it was pushed or last merged into (µs): a merge since changes it.
    package var time: Int64

    /// The group `id`, named `name`, as it was at `time`.
    package init(id: UInt64, name: String, time: Int64) {
        self.id = id
        self.name = name
        self.time = time
    }
}

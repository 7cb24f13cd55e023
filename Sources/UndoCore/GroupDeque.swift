/// A double-ended queue of action groups, oldest first: appending, and
/// removing at either end, cost O(1) amortised, so that trimming the oldest
/// group of a long stack never moves the rest.
struct GroupDeque: Sendable, Equatable {
    /// The groups; the slots before `head` are vacant.
    private var storage: [ActionGroup]
    /// The index of the first live group in `storage`.
    private var head: Int

    /// A queue holding these groups in order.
    init(_ groups: [ActionGroup] = []) {
        storage = groups
        head = 0
    }

    /// The live groups in order, first to last.
    var elements: ArraySlice<ActionGroup> { storage[head...] }

    /// How many groups it holds.
    var count: Int { storage.count - head }

    /// Whether it holds no group.
    var isEmpty: Bool { head == storage.count }

    /// The first (oldest) group.
    var first: ActionGroup? { isEmpty ? nil : storage[head] }

    /// The last (newest) group.
    var last: ActionGroup? { isEmpty ? nil : storage[storage.count - 1] }

    /// Whether the last group's payloads are in memory (true when there is
    /// none), read in place: no copy of the group.
    var lastIsLoaded: Bool { isEmpty || storage[storage.count - 1].isLoaded }

    /// Adds a group at the end.
    mutating func append(_ group: ActionGroup) {
        storage.append(group)
    }

    /// Removes and returns the last group.
    mutating func removeLast() -> ActionGroup? {
        guard !isEmpty else { return nil }
        let group = storage.removeLast()
        if isEmpty { removeAll() }
        return group
    }

    /// Removes and returns the first group; its slot is released at once and
    /// compacted away once vacant slots outnumber live ones.
    mutating func removeFirst() -> ActionGroup? {
        guard !isEmpty else { return nil }
        var group = ActionGroup.vacant
        swap(&group, &storage[head])
        head += 1
        if isEmpty {
            removeAll()
        } else if head >= 16 && head >= count {
            storage.removeFirst(head)
            head = 0
        }
        return group
    }

    /// Changes the last group in place.
    mutating func updateLast(_ body: (inout ActionGroup) -> Void) {
        guard !isEmpty else { return }
        body(&storage[storage.count - 1])
    }

    /// The position (from the first live group) of the group with `id`,
    /// found by binary search: ids rise through the queue when `ascending`,
    /// fall when not.
    func position(ofID id: UInt64, ascending: Bool) -> Int? {
        var low = head
        var high = storage.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let found = storage[middle].id
            if found == id { return middle - head }
            if (found < id) == ascending { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// The group at `position` (from the first live group).
    subscript(position: Int) -> ActionGroup { storage[head + position] }

    /// Changes the group at `position` in place.
    mutating func update(at position: Int, _ body: (inout ActionGroup) -> Void) {
        body(&storage[head + position])
    }

    /// Removes every group.
    mutating func removeAll() {
        storage = []
        head = 0
    }

    /// Two queues are equal when they hold equal groups in the same order.
    static func == (lhs: GroupDeque, rhs: GroupDeque) -> Bool {
        lhs.elements == rhs.elements
    }
}

/// The group put in flight by `beginUndo`/`beginRedo`: what the owner's
/// `Client.Apply` must apply (the wide interface: payloads).
public struct StartedMove: Sendable, Hashable {
    /// Whether this is an undo or a redo.
    public var direction: Direction
    /// The id of the group in flight.
    public var group: UInt64
    /// The group's name.
    public var name: String
    /// The payloads in the order to apply them: undo payloads last action
    /// first, or redo payloads first action first.
    public var payloads: [[UInt8]]

    /// A request with the given fields.
    public init(direction: Direction, group: UInt64, name: String, payloads: [[UInt8]]) {
        self.direction = direction
        self.group = group
        self.name = name
        self.payloads = payloads
    }
}

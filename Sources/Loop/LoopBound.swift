/// A value confined to one loop's thread that may be carried through other
/// threads: sent anywhere (a callback of another thread holds it), used
/// only on its loop, which every use checks in debug builds
/// (`EventLoop.assertInLoop`), as swift-nio's `NIOLoopBound` does. How work
/// done off the loop hands its result back: `handle.perform { bound.value(result) }`.
public final class LoopBound<Value>: @unchecked Sendable {
    private let loop: EventLoop
    private let confined: Value

    /// Binds `value` to `loop`; made on the loop.
    public init(_ value: Value, loop: EventLoop) {
        loop.assertInLoop()
        self.loop = loop
        confined = value
    }

    /// The value, on its loop only.
    public var value: Value {
        loop.assertInLoop()
        return confined
    }
}

internal import CXCB
import Dispatch
import Locking
import Loop

/// A libxcb connection handed from the connecting thread to the loop's.
/// @unchecked: it crosses threads once, through `ConnectAttempt`'s mutex,
/// and libxcb connections may be used from any thread.
struct RawConnection: @unchecked Sendable {
    /// What `xcb_connect` returned (nil only when out of memory).
    let pointer: OpaquePointer?
    /// The screen the display name asked for.
    let screen: Int32
}

/// One connection attempt on another thread: the loop takes its result,
/// or gives it up, and whichever side comes second disconnects an
/// abandoned connection.
final class ConnectAttempt: Sendable {
    private let state = Lock<(result: RawConnection?, abandoned: Bool)>((nil, false))

    /// Connects to `display` on another thread and calls `done` on the loop
    /// with the connection `make` makes of it, or the error (after
    /// `timeoutMilliseconds` at most); the loop goes on serving meanwhile.
    static func run(display name: String, loop: EventLoop, timeoutMilliseconds: Int,
                    make: @escaping (_ raw: OpaquePointer, _ screen: Int32) throws(X11Error) -> X11Connection,
                    then done: @escaping (Result<X11Connection, X11Error>) -> Void) {
        guard !name.isEmpty else { return done(.failure(.noDisplay)) }
        let attempt = ConnectAttempt()
        var answered = false
        let finish = { () -> Void in
            guard !answered else { return }
            answered = true
            guard let made = attempt.take() else {
                return done(.failure(.noAnswer(name, milliseconds: timeoutMilliseconds)))
            }
            guard let connection = made.pointer else {
                return done(.failure(.cannotConnect(name, reason: "out of memory")))
            }
            done(Result { () throws(X11Error) in try make(connection, made.screen) })
        }
        // The connecting thread only wakes the loop; the loop sees the
        // attempt finished at the end of that turn (or gives up at the timeout).
        var watch: EventLoop.Token?
        let timeout = loop.schedule(afterMilliseconds: timeoutMilliseconds) {
            watch.map(loop.remove)
            finish()
        }
        watch = loop.addTurnEndHook {
            guard attempt.isFinished else { return }
            watch.map(loop.remove)
            loop.remove(timeout)
            finish()
        }
        let wake = loop.handle
        DispatchQueue.global().async {
            var screen: Int32 = 0
            let connection = xcb_connect(name, &screen)
            attempt.finish(RawConnection(pointer: connection, screen: screen))
            wake.perform {}
        }
    }

    /// Whether the other thread has finished connecting.
    var isFinished: Bool { state.withLock { $0.result != nil } }

    /// Records the connection (the connecting thread).
    func finish(_ connection: RawConnection) {
        let abandoned = state.withLock { state -> Bool in
            state.result = connection
            return state.abandoned
        }
        if abandoned, let pointer = connection.pointer { xcb_disconnect(pointer) }
    }

    /// Takes the connection if it is there, else gives the attempt up (the loop).
    func take() -> RawConnection? {
        state.withLock { state in
            if state.result == nil { state.abandoned = true }
            return state.result
        }
    }
}

internal import CXCB
import Locking

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

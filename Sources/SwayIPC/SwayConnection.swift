#if canImport(Glibc)
import Glibc
#endif
public import JSONText
public import Loop
import SystemCalls

/// A connection to sway's IPC socket (`$SWAYSOCK`; any compositor that
/// speaks i3's IPC), driven by the loop and never waited on: each message
/// is `i3-ipc`, its length and type (native byte order), then JSON. Replies
/// come back in the order the messages were sent; events (the type's high
/// bit set) go to `onEvent`. Confined to the loop.
public final class SwayConnection {
    /// Message types undod sends (`RUN_COMMAND`, `SUBSCRIBE`, `GET_TREE`).
    public enum Request: UInt32, Sendable {
        /// Runs sway commands; answers `[{"success": …}]`.
        case runCommand = 0
        /// Subscribes to events named in a JSON array.
        case subscribe = 2
        /// The layout tree, with the focused view.
        case getTree = 4
    }

    /// Event types (without the high bit) undod listens to.
    public enum Event: UInt32, Sendable {
        /// A workspace changed; `change: "reload"` after the config was reloaded.
        case workspace = 0
        /// A view was focused, closed, retitled, …
        case window = 3
        /// A binding ran.
        case binding = 5
        /// sway is exiting.
        case shutdown = 6
    }

    /// Called with each event sway sends.
    public var onEvent: ((Event, JSONValue) -> Void)?
    /// Called once when sway closes the connection (or it fails).
    public var onClose: (() -> Void)?

    private let loop: EventLoop
    private var fd: Int32
    private var readToken: EventLoop.Token?
    private var writeToken: EventLoop.Token?
    private var incoming: [UInt8] = []
    private var outgoing: [UInt8] = []
    private var replies: [(JSONValue?) -> Void] = []

    private static let magic = Array("i3-ipc".utf8)
    /// The most a message may carry: a tree of thousands of windows fits.
    private static let largest = 64 << 20

    /// Connects to the socket at `path`.
    public init(path: String, loop: EventLoop) throws(SwayError) {
        self.loop = loop
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SwayError("cannot make a socket (\(String(cString: strerror(errno))))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            Glibc.close(fd)
            throw SwayError("the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw SwayError("cannot connect to \(path) (\(reason))")
        }
        readToken = loop.watch(fd: fd, events: .readable) { [weak self] in self?.readAvailable() }
    }

    deinit { shut() }

    /// Whether the connection is still open.
    public var isOpen: Bool { fd >= 0 }

    /// Sends a `request` with `payload`; `reply` gets the answer (nil when
    /// the connection closed first, or the answer was not JSON).
    public func send(_ request: Request, _ payload: String = "", reply: @escaping (JSONValue?) -> Void = { _ in }) {
        loop.assertInLoop()
        guard fd >= 0 else { return reply(nil) }
        let body = Array(payload.utf8)
        var frame = Self.magic
        withUnsafeBytes(of: UInt32(body.count)) { frame += $0 }
        withUnsafeBytes(of: request.rawValue) { frame += $0 }
        outgoing += frame + body
        replies.append(reply)
        writePending()
    }

    /// Closes the connection; pending replies get nil. `onClose` is not called.
    public func close() {
        onClose = nil
        shut()
    }

    // MARK: The socket

    private func writePending() {
        writing: while !outgoing.isEmpty, fd >= 0 {
            switch outgoing.withUnsafeBytes({ SystemCall.write(fd, $0) }) {
            case .success(let written) where written > 0: outgoing.removeFirst(written)
            case .failure(let error) where error.isWouldBlock: break writing
            default: return lost()
            }
        }
        if outgoing.isEmpty {
            if let writeToken { loop.remove(writeToken) }
            writeToken = nil
        } else if writeToken == nil, fd >= 0 {
            writeToken = loop.watch(fd: fd, events: .writable) { [weak self] in self?.writePending() }
        }
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        reading: while fd >= 0 {
            switch chunk.withUnsafeMutableBytes({ SystemCall.read(fd, into: $0) }) {
            case .success(let got) where got > 0:
                incoming += chunk.prefix(got)
                guard incoming.count <= Self.largest + 14 else { return lost() }
            case .failure(let error) where error.isWouldBlock:
                break reading
            default:
                return lost()
            }
        }
        takeMessages()
    }

    /// Hands out every whole message read so far.
    private func takeMessages() {
        while incoming.count >= 14 {
            guard Array(incoming.prefix(6)) == Self.magic else { return lost() }
            let length = Int(Self.uint32(incoming, at: 6))
            let type = Self.uint32(incoming, at: 10)
            guard length <= Self.largest else { return lost() }
            guard incoming.count >= 14 + length else { return }
            let body = incoming[14..<(14 + length)]
            let value = try? JSONValue(parsing: body)
            incoming.removeFirst(14 + length)
            if type & 0x8000_0000 != 0 {
                if let event = Event(rawValue: type & 0x7FFF_FFFF), let value { onEvent?(event, value) }
            } else if !replies.isEmpty {
                replies.removeFirst()(value)
            }
            guard fd >= 0 else { return }
        }
    }

    private static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { buffer in
            for offset in 0..<4 { buffer[offset] = bytes[index + offset] }
        }
        return value
    }

    private func lost() {
        let notify = onClose
        onClose = nil
        shut()
        notify?()
    }

    private func shut() {
        if let readToken { loop.remove(readToken) }
        if let writeToken { loop.remove(writeToken) }
        readToken = nil
        writeToken = nil
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        let waiting = replies
        replies.removeAll()
        for reply in waiting { reply(nil) }
    }
}

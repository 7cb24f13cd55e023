internal import CShim
import Loop
import SystemClock
import SystemCalls
#if canImport(Glibc)
internal import Glibc
#endif

/// A stream socket to a message bus, connected and authenticated: bytes
/// each way, nothing of messages (`MessageReader` and `OutgoingBytes` are
/// that).
///
/// Why our own and not libdbus's transport: libdbus reads 2 KiB a call
/// and copies every message out of its read buffer, so a 60 MiB call took
/// it 150 ms beyond the bus's own delay before undod saw a byte of it, and
/// every other client waited behind. Here a read takes what the socket has.
///
/// Only Unix sockets (`unix:path=`, `unix:abstract=`) and the `EXTERNAL`
/// mechanism, which is what a session bus on Linux offers. Unix file
/// descriptors are negotiated: the bus's own replies may carry one (the
/// caller's pidfd, `ProcessFD`), and a call carrying one reaches us and
/// gets a clear `InvalidArgs` (no method of ours takes one) after its fds
/// were closed (`Connection`).
final class BusSocket {
    /// The socket; non-blocking once `open` returns.
    let fd: Int32
    /// Whether the bus agreed to pass Unix fds (`NEGOTIATE_UNIX_FD`): then
    /// a call carrying one reaches us, to be refused in words; else the bus
    /// refuses it to its sender.
    private(set) var unixFDsAgreed = false
    private var isClosed = false

    private init(fd: Int32) {
        self.fd = fd
    }

    /// Takes over `fd`, a stream socket already connected and past any
    /// handshake (one end of a `socketpair`), and makes it non-blocking.
    convenience init(adopting fd: Int32) {
        self.init(fd: fd)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close()
        fdRoom.deallocate()
    }

    /// What a read or a write did.
    enum Transfer: Equatable {
        /// This many bytes moved (more than 0).
        case moved(Int)
        /// Nothing can move now; wait for the socket.
        case wouldBlock
        /// The peer went away, or the socket failed.
        case closed
    }

    /// Connects to the first entry of the D-Bus `address` that answers and
    /// authenticates as this process's user, within `timeoutMilliseconds`:
    /// an entry whose socket is missing, or whose bus refuses us, is passed
    /// over for the next, as libdbus and sd-bus do.
    static func open(address: String, timeoutMilliseconds: Int) throws(DBusError) -> BusSocket {
        let deadline = SystemTime.monotonicNanoseconds + Int64(timeoutMilliseconds) * 1_000_000
        var failure = DBusError(name: DBusError.Names.badAddress, message: "The bus address “\(address)” names no socket.")
        for target in try BusAddress.unixSockets(in: address) {
            do {
                let socket = try connect(target)
                try socket.authenticate(until: deadline)
                return socket
            } catch {
                failure = error
                // The time is spent for every entry: no later one can answer.
                if error.name == DBusError.Names.noReply { throw error }
            }
        }
        throw failure
    }

    private static func connect(_ target: BusAddress.UnixSocket) throws(DBusError) -> BusSocket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array(target.name.utf8)
        let offset = target.isAbstract ? 1 : 0
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard offset + name.count < capacity else {
            throw DBusError(name: DBusError.Names.badAddress, message: "The socket path “\(target.name)” is too long.")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in name.enumerated() { path[offset + index] = byte }
        }
        let length = MemoryLayout<sa_family_t>.size + offset + name.count + (target.isAbstract ? 0 : 1)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .failed("Cannot make a socket: \(String(cString: strerror(errno))).") }
        let socket = BusSocket(fd: fd)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(length)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            throw DBusError(name: DBusError.Names.noServer,
                            message: "Cannot connect to the bus at \(target.description): \(reason).")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return socket
    }

    /// The SASL exchange in one write, as sd-bus makes it: a NUL byte,
    /// `AUTH EXTERNAL` with our uid, `NEGOTIATE_UNIX_FD` and `BEGIN`; then
    /// the bus's two answers, `OK <guid>` and `AGREE_UNIX_FD` (or `ERROR`,
    /// a bus that passes no fds). The bus says nothing more until our
    /// `Hello`, so the answers are read a buffer at a time, and any byte
    /// beyond them is not a bus speaking D-Bus.
    private func authenticate(until deadline: Int64) throws(DBusError) {
        let uid = String(getuid()).utf8.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
        try writeAll(Array("\0AUTH EXTERNAL \(uid)\r\nNEGOTIATE_UNIX_FD\r\nBEGIN\r\n".utf8), until: deadline)
        var answers = SASLAnswers()
        guard let authenticated = try answers.next(from: self, until: deadline) else {
            throw Self.authFailed("the bus closed the connection")
        }
        guard authenticated.hasPrefix("OK ") else { throw Self.authFailed("the bus answered “\(authenticated)”") }
        switch try answers.next(from: self, until: deadline) {
        case "AGREE_UNIX_FD": unixFDsAgreed = true
        case let answer? where answer.hasPrefix("ERROR"): unixFDsAgreed = false
        case let answer: throw Self.authFailed("the bus answered “\(answer ?? "")” to NEGOTIATE_UNIX_FD")
        }
        guard answers.isDrained else { throw Self.authFailed("the bus spoke before our Hello") }
    }

    static func authFailed(_ why: String) -> DBusError {
        DBusError(name: DBusError.Names.authFailed, message: "The bus did not accept us: \(why).")
    }

    /// Reads what the socket has, up to `buffer`'s size; the Unix fds that
    /// came with the bytes wait, in order, for `takeReceivedFDs`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        guard !isClosed, let base = buffer.baseAddress, !buffer.isEmpty else { return .closed }
        let result = unixFDsAgreed
            ? SystemCall.perform(.recvmsg, fd: fd) { readWithFDs(base, buffer.count) }
            : SystemCall.read(fd, into: buffer)
        switch result {
        case .success(let count): return count > 0 ? .moved(count) : .closed
        case .failure(let error): return error.isWouldBlock ? .wouldBlock : .closed
        }
    }

    /// The most fds one read takes: all one message may carry (`SCM_MAX_FD`).
    private static let fdsPerRead: Int32 = 253
    /// Where a read puts the fds that came (kept: reads are the hot path).
    private let fdRoom = UnsafeMutablePointer<Int32>.allocate(capacity: Int(fdsPerRead))
    /// The fds received and not yet taken, oldest first.
    private var receivedFDs: [Int32] = []
    /// Whether fds were ever lost on the way in (the kernel closed those it
    /// had no room for): from then on the count of a message's fds can no
    /// longer be matched to those that came, and none is handed out.
    private var fdsLost = false

    /// `read(2)` that keeps the fds that come with the bytes.
    private func readWithFDs(_ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
        var given: Int32 = 0, truncated: Int32 = 0
        let got = cshim_read_with_fds(fd, base, count, fdRoom, Self.fdsPerRead, &given, &truncated)
        if truncated != 0 { fdsLost = true }
        receivedFDs += UnsafeBufferPointer(start: fdRoom, count: Int(given))
        if fdsLost { Self.close(taking: &receivedFDs) }
        return got
    }

    /// Gives up matching fds to messages (one came whose count could not be
    /// read): closes those queued, and hands out none from now on.
    func loseReceivedFDs() {
        fdsLost = true
        Self.close(taking: &receivedFDs)
    }

    /// The `count` fds that came with the next message, oldest first; fewer
    /// (none) where fds were lost on the way. The caller owns them.
    func takeReceivedFDs(_ count: Int) -> [Int32] {
        let taken = Array(receivedFDs.prefix(count))
        receivedFDs.removeFirst(taken.count)
        return taken
    }

    /// Closes every fd in `fds`, and empties it.
    static func close(taking fds: inout [Int32]) {
        for fd in fds { _ = Glibc.close(fd) }
        fds.removeAll()
    }

    /// Writes what it can of `buffers`, in order, with one system call.
    func write(_ buffers: [UnsafeRawBufferPointer]) -> Transfer {
        guard !isClosed else { return .closed }
        var vectors = buffers.prefix(64).map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress),
                                                     iov_len: $0.count) }
        var header = msghdr()
        let result = vectors.withUnsafeMutableBufferPointer { vectors in
            header.msg_iov = vectors.baseAddress
            header.msg_iovlen = vectors.count
            return SystemCall.sendmsg(fd, &header, flags: Int32(MSG_NOSIGNAL))
        }
        switch result {
        case .success(let count): return count > 0 ? .moved(count) : .wouldBlock
        case .failure(let error): return error.isWouldBlock ? .wouldBlock : .closed
        }
    }

    /// Writes all of `bytes`, waiting for the socket (for the handshake).
    private func writeAll(_ bytes: [UInt8], until deadline: Int64) throws(DBusError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write([UnsafeRawBufferPointer(rebasing: $0[written...])]) }
            switch result {
            case .moved(let count): written += count
            case .closed: throw Self.authFailed("the bus closed the connection")
            case .wouldBlock: try wait(for: Int16(POLLOUT), until: deadline)
            }
        }
    }

    /// Waits until the socket is ready for `events` (`POLLIN`, `POLLOUT`)
    /// or `deadline` (`SystemTime.monotonicNanoseconds`) passes, which
    /// throws `NoReply`.
    func wait(for events: Int16, until deadline: Int64) throws(DBusError) {
        while true {
            let left = (deadline - SystemTime.monotonicNanoseconds + 999_999) / 1_000_000
            guard left > 0 else {
                throw DBusError(name: DBusError.Names.noReply, message: "The bus did not answer in time.")
            }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = withUnsafeMutablePointer(to: &entry) {
                SystemCall.poll(UnsafeMutableBufferPointer(start: $0, count: 1), milliseconds: Int32(clamping: left))
            }
            if case .success(0) = ready { continue }
            return
        }
    }

    /// Closes the socket (once).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(fd)
        Self.close(taking: &receivedFDs)
    }
}

/// The messages a connection has sent that the socket has not taken yet,
/// in order, the first perhaps in part.
///
/// A connection writes them once a turn (and when `flushBytes` wait), up
/// to 64 messages a system call, so a batch of replies costs the bus one
/// read rather than one each.
struct OutgoingBytes {
    /// From this many bytes waiting, `Connection.send` writes at once.
    static let flushBytes = 256 << 10

    private var queue: [WireBytes] = []
    /// The first message in `queue` not fully written, and how much of it is.
    private var head = 0, written = 0
    /// The bytes waiting.
    private(set) var count = 0

    /// Whether every byte has been written.
    var isEmpty: Bool { head == queue.count }

    /// Queues a message.
    mutating func append(_ message: WireBytes) {
        queue.append(message)
        count += message.bytes.count
    }

    /// Writes what the socket takes: `.wouldBlock` once it takes no more
    /// with some left, `.moved` once all is written, `.closed` if it failed.
    mutating func write(to socket: BusSocket) -> BusSocket.Transfer {
        var total = 0
        while head < queue.count {
            var buffers = [UnsafeRawBufferPointer(rebasing: queue[head].bytes[written...])]
            var index = head + 1
            while index < queue.count, buffers.count < 64 {
                buffers.append(queue[index].bytes)
                index += 1
            }
            switch socket.write(buffers) {
            case .closed:
                return .closed
            case .wouldBlock:
                compact()
                return .wouldBlock
            case .moved(var moved):
                total += moved
                count -= moved
                while moved > 0 {
                    let left = queue[head].bytes.count - written
                    if moved >= left {
                        moved -= left
                        head += 1
                        written = 0
                    } else {
                        written += moved
                        moved = 0
                    }
                }
            }
        }
        queue.removeAll(keepingCapacity: queue.count < 1024)
        head = 0
        return .moved(total)
    }

    /// Drops what is written from the front of the queue.
    private mutating func compact() {
        guard head > 0 else { return }
        queue.removeFirst(head)
        head = 0
    }

    /// Drops everything (the connection closed).
    mutating func removeAll() {
        queue.removeAll()
        head = 0
        written = 0
        count = 0
    }
}

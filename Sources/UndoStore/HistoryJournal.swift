#if canImport(Glibc)
import Glibc
#endif
import SystemCalls

/// The store's journal, `history.journal` beside the database: each
/// transaction's changes (`HistoryChange`) become one record, appended in
/// one write before the transaction's replies go out. Once the OS has it,
/// a killed daemon loses nothing; SQLite takes the records later, many in
/// one transaction (`HistoryDatabase+Journal`), and the file starts over.
///
/// The file: a 16-byte header, `undod-j1` and the epoch (8 bytes,
/// little-endian), then the records, each the length of its body (4 bytes),
/// the body's CRC-32C (4 bytes) and the body. The epoch says on top of
/// which state of the database the records go: the database notes the
/// epoch it took last (`journal_epoch` in `meta`), in the transaction
/// that takes it, and the file then starts over with the next one.
final class HistoryJournal {
    /// The header's first 8 bytes.
    static let magic = Array("undod-j1".utf8)
    /// The header's size, and so an empty journal's.
    static let headerBytes = 16
    /// The file.
    let path: String
    private let descriptor: Int32
    /// The epoch of the records in the file.
    private(set) var epoch: UInt64 = 0
    /// The file's length in bytes, header included.
    private(set) var length: Int64 = 0

    /// What a journal file holds.
    struct Contents {
        /// The epoch of its records; nil when it has no header undod wrote.
        var epoch: UInt64?
        /// The bodies of its whole records, in order.
        var bodies: [[UInt8]] = []
        /// How many bytes past the last whole record were left out: a
        /// record cut short, or damaged, and everything after it.
        var leftOut = 0
    }

    /// Opens (or creates) the journal at `path`, never through a link. Its
    /// contents stay until `reset`.
    init(path: String) throws(StoreError) {
        switch SystemCall.open(path, flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode: 0o600) {
        case .success(let fd): descriptor = fd
        case .failure(let error): throw StoreError("cannot open \(path): \(Self.words(error))")
        }
        self.path = path
        _ = fchmod(descriptor, 0o600)
    }

    deinit { SystemCall.close(descriptor) }

    /// What the file holds now (nil when it cannot be read); its epoch and
    /// length become the journal's (records are appended only after a
    /// `reset`).
    func read() -> Contents? {
        guard let bytes = Self.readAll(descriptor) else { return nil }
        let contents = Self.contents(of: bytes)
        epoch = contents.epoch ?? 0
        length = Int64(bytes.count)
        return contents
    }

    /// What the journal at `path` holds, read without writing anything;
    /// nil when there is none or it cannot be read.
    static func read(at path: String) -> Contents? {
        guard case .success(let descriptor) = SystemCall.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW) else {
            return nil
        }
        defer { SystemCall.close(descriptor) }
        return readAll(descriptor).map(contents(of:))
    }

    /// Appends one record of `body`, in one write. On failure nothing of
    /// it stays in the file, or, where that cannot be made so, the journal
    /// takes no more records (`isBroken`).
    func append(_ body: [UInt8]) throws(StoreError) {
        guard body.count <= Int(Int32.max) - 4_096 else {
            throw StoreError("cannot write a record of \(body.count) bytes to \(path): at most 2 GiB")
        }
        var header = (UInt32(body.count).littleEndian, PayloadChecksum.of(body).littleEndian)
        let result = withUnsafeMutableBytes(of: &header) { head in
            body.withUnsafeBytes { rest in
                let parts = [iovec(iov_base: head.baseAddress, iov_len: 8),
                             iovec(iov_base: UnsafeMutableRawPointer(mutating: rest.baseAddress), iov_len: rest.count)]
                return parts.withUnsafeBufferPointer { SystemCall.pwritev(descriptor, $0, at: length) }
            }
        }
        guard case .success(let written) = result, written == 8 + body.count else {
            let error: String
            switch result {
            case .failure(let failure): error = Self.words(failure)
            case .success(let written): error = "only \(written) of \(8 + body.count) bytes could be written"
            }
            if case .failure = SystemCall.ftruncate(descriptor, to: length) { isBroken = true }
            throw StoreError("cannot write to \(path): \(error)")
        }
        length += Int64(written)
    }

    /// Whether a failed write may have left part of a record behind: no
    /// record may follow it.
    private(set) var isBroken = false

    /// Starts the file over, empty, for records of `epoch`. With `zeroing`,
    /// its records are overwritten with zeros (and they reach the disk)
    /// first: they may hold a history deleted for good. (The header stays
    /// until the file starts over: a kill meanwhile leaves a journal that
    /// the next open finds taken already, and empties.) On failure the
    /// journal takes no more records (`isBroken`) until a reset succeeds.
    func reset(epoch: UInt64, zeroing: Bool = false) throws(StoreError) {
        if zeroing, length > Int64(Self.headerBytes),
           case .failure(let error) = FileZeroing.overwrite(descriptor, from: Int64(Self.headerBytes), to: length) {
            isBroken = true
            throw StoreError("cannot zero \(path): \(Self.words(error))")
        }
        var header = Self.magic
        withUnsafeBytes(of: epoch.littleEndian) { header.append(contentsOf: $0) }
        let truncated = SystemCall.ftruncate(descriptor, to: 0)
        let written = truncated.flatMap { header.withUnsafeBytes { SystemCall.pwrite(descriptor, $0, at: 0) } }
        guard case .success(header.count) = written else {
            isBroken = true
            let error = if case .failure(let failure) = written { Self.words(failure) } else { "a short write" }
            throw StoreError("cannot start \(path) over: \(error)")
        }
        self.epoch = epoch
        length = Int64(header.count)
        isBroken = false
    }

    /// The records in `bytes`, up to the first that is not whole and
    /// intact.
    static func contents(of bytes: [UInt8]) -> Contents {
        guard bytes.count >= headerBytes, Array(bytes[0..<8]) == magic else {
            return Contents(epoch: nil, leftOut: bytes.count)
        }
        var contents = Contents(epoch: integer(in: bytes, at: 8, count: 8))
        var offset = headerBytes
        while bytes.count - offset >= 8 {
            let count = Int(integer(in: bytes, at: offset, count: 4))
            let checksum = UInt32(integer(in: bytes, at: offset + 4, count: 4))
            guard count > 0, bytes.count - offset - 8 >= count else { break }
            let body = Array(bytes[offset + 8..<offset + 8 + count])
            guard PayloadChecksum.of(body) == checksum else { break }
            contents.bodies.append(body)
            offset += 8 + count
        }
        contents.leftOut = bytes.count - offset
        return contents
    }

    /// The little-endian integer of `count` bytes at `offset`.
    private static func integer(in bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Everything the open file holds, from its start; nil when reading
    /// fails (never taken for a shorter file).
    private static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let read = chunk.withUnsafeMutableBytes { SystemCall.pread(descriptor, into: $0, at: Int64(bytes.count)) }
            guard case .success(let count) = read else { return nil }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// What a failed call's `error` says, in words.
    private static func words(_ error: Errno) -> String {
        error == .noSpace ? "the disk is full" : error.description
    }
}

#if canImport(Glibc)
import Glibc
import SystemCalls
#endif

/// What `/proc` says of a process on this machine: its name, for a
/// sentence, and the Flatpak sandbox it runs in, for the focus rule. Both
/// are small files, read without blocking; a process that is gone, or whose
/// files undod may not read, has neither.
enum LocalProcess {
    /// `xterm (pid 4242)`: the command name (`/proc/PID/comm`) and the pid.
    static func label(_ pid: UInt32) -> String {
        let name = read("/proc/\(pid)/comm", limit: 64).map { String(decoding: $0, as: UTF8.self) }?
            .trimmingNewline ?? ""
        return name.isEmpty ? "pid \(pid)" : "\(name) (pid \(pid))"
    }

    /// The Flatpak app id of the process's sandbox: `name` in the
    /// `[Application]` group of `/proc/PID/root/.flatpak-info`; nil outside
    /// one.
    static func sandboxAppID(_ pid: UInt32) -> String? {
        guard pid != 0, let bytes = read("/proc/\(pid)/root/.flatpak-info", limit: 64 << 10) else { return nil }
        var group = ""
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("[") {
                group = String(line)
            } else if group == "[Application]", line.hasPrefix("name=") {
                let name = String(line.dropFirst(5))
                return name.isEmpty ? nil : name
            }
        }
        return nil
    }

    /// The process's parent (field 4 of `/proc/PID/stat`).
    static func parent(_ pid: UInt32) -> UInt32? {
        guard let bytes = read("/proc/\(pid)/stat", limit: 4096),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // Fields from the third (state) on, after the command name's parenthesis.
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 1 else { return nil }
        return UInt32(String(decoding: fields[fields.startIndex + 1], as: UTF8.self))
    }

    /// The path of the process's executable (`/proc/PID/exe`).
    static func executable(_ pid: UInt32) -> String? {
        link("/proc/\(pid)/exe")
    }

    /// Where a symbolic link of `/proc` points.
    static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// At most `limit` bytes of the file at `path`, or nil.
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let result = bytes.withUnsafeMutableBytes {
                SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
            }
            guard case .success(let got) = result, got > 0 else { break }
            count += got
        }
        return Array(bytes.prefix(count))
    }
}

private extension String {
    /// Without one trailing newline.
    var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

#if canImport(Glibc)
import Glibc
import SystemCalls
#endif
import Caretaker

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
        statField(4, of: pid).flatMap(UInt32.init)
    }

    /// When the process started, in clock ticks since boot (field 22 of
    /// `/proc/PID/stat`): with the pid, what names one process for good.
    static func startTime(_ pid: UInt32) -> UInt64? {
        statField(22, of: pid).flatMap(UInt64.init)
    }

    /// The process `Register`'s `process` option names, as it is now: nil
    /// for none (the option left out or 0); `InvalidArgs` for a process
    /// that is not running, or runs as another user (a stack serves only
    /// its own user's processes).
    static func served(_ pid: UInt32?) throws(ServiceError) -> ServedProcess? {
        guard let pid, pid != 0 else { return nil }
        guard let started = startTime(pid), let user = user(pid) else {
            throw .invalidArgs("The option process names \(pid), which is no running process")
        }
        guard user == getuid() else {
            throw .invalidArgs("The option process names \(pid), a process of another user")
        }
        return ServedProcess(pid: pid, startTime: started)
    }

    /// The user the process runs as (the owner of `/proc/PID`).
    static func user(_ pid: UInt32) -> uid_t? {
        var info = stat()
        guard pid != 0, stat("/proc/\(pid)", &info) == 0 else { return nil }
        return info.st_uid
    }

    /// Field `number` (counted from 1, as proc(5) does) of `/proc/PID/stat`,
    /// from the third on: those after the command name's parenthesis.
    private static func statField(_ number: Int, of pid: UInt32) -> String? {
        guard number >= 3, pid != 0, let bytes = read("/proc/\(pid)/stat", limit: 4096),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > number - 3 else { return nil }
        return String(decoding: fields[fields.startIndex + number - 3], as: UTF8.self)
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

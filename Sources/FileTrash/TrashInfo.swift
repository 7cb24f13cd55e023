#if canImport(Glibc)
import Glibc
#endif

/// A `.trashinfo` file's text: the `[Trash Info]` group with the item's
/// `Path` (escaped, relative to a volume's top in a volume trash) and its
/// `DeletionDate` (local time, `YYYY-MM-DDThh:mm:ss`), and undod's token
/// (`X-Undod-Token`: the specification's readers ignore keys they do not
/// know, as desktop entries' do).
struct TrashInfo: Equatable {
    /// What `Path=` holds, unescaped.
    var path: String
    /// What `DeletionDate=` holds.
    var deletionDate: String
    /// What `X-Undod-Token=` holds, if any.
    var token: String?

    /// The file's bytes.
    var text: String {
        "[Trash Info]\nPath=\(PercentEncoding.escape(path))\nDeletionDate=\(deletionDate)\n"
            + (token.map { "X-Undod-Token=\($0)\n" } ?? "")
    }

    /// Reads `text`; nil where it has no `[Trash Info]` group with a `Path`.
    init?(parsing text: String) {
        var group = ""
        var path: String?
        var date = ""
        var token: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") {
                group = String(line)
            } else if group == "[Trash Info]", line.hasPrefix("Path=") {
                path = PercentEncoding.unescape(String(line.dropFirst(5)))
            } else if group == "[Trash Info]", line.hasPrefix("DeletionDate=") {
                date = String(line.dropFirst(13))
            } else if group == "[Trash Info]", line.hasPrefix("X-Undod-Token=") {
                token = String(line.dropFirst(14))
            }
        }
        guard let path else { return nil }
        self.init(path: path, deletionDate: date, token: token)
    }

    /// An info with these fields.
    init(path: String, deletionDate: String, token: String? = nil) {
        self.path = path
        self.deletionDate = deletionDate
        self.token = token
    }

    /// `seconds` since the epoch as the specification writes a date: local
    /// time, `2026-12-07T03:32:45`.
    static func date(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

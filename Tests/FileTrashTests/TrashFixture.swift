import BusHarness
import FileTrash
import Foundation

/// A home of its own under /tmp, with the FreeDesktop trash in it, and
/// GLib's `gio trash` (through gvfs, on a session bus of its own) to look
/// at that trash as GNOME does. Removed at the end.
final class TrashFixture {
    let root: String
    let home: String
    let dataHome: String
    let trash: Trash

    init() throws {
        root = NSTemporaryDirectory() + "undod-trash-" + UUID().uuidString
        home = root + "/home"
        dataHome = home + "/.local/share"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        trash = Trash(homeTrash: dataHome + "/Trash", uid: getuid())
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes `text` to `name` under the home; its path.
    @discardableResult
    func file(_ name: String, _ text: String = "text") throws -> String {
        let path = home + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The text of the file at `path`, nil if there is none.
    func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether anything is at `path` (a link not followed).
    func exists(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)) != nil
    }

    /// `gio ARGUMENTS` as the user of this home, on a session bus of its own.
    func gio(_ arguments: String...) throws -> ToolResult {
        try runTool(["dbus-run-session", "--", "gio"] + arguments,
                    environment: ["HOME": home, "XDG_DATA_HOME": dataHome, "GIO_USE_VFS": "gvfs"])
    }

    /// `path` as `gio trash --list` prints it: bytes beyond ASCII as `\\xNN`.
    static func asGioPrints(_ path: String) -> String {
        path.utf8.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
    }

    /// What `gio trash --list` lists from this home: each item's original
    /// path by its trash URI (gvfs lists every volume's trash, which other
    /// tests share).
    func gioList() throws -> [String: String] {
        var items: [String: String] = [:]
        for line in try gio("trash", "--list").output.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            if fields.count == 2, fields[1].hasPrefix(home + "/") { items[String(fields[0])] = String(fields[1]) }
        }
        return items
    }
}

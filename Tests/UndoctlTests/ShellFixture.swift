import BusHarness
import DBus
import Foundation

/// undod on a bus that activates undod-files (as the installed
/// `org.undod.Files1.service` does), and a home and a working folder of
/// their own: where the shell's undo is tried as a person would use it.
final class ShellFixture {
    let services: FilesAgentService
    let root: String
    let home: String
    let work: String
    let f: DaemonFixture

    init() throws {
        let unique = UUID().uuidString.prefix(8)
        services = try FilesAgentService()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("undod-shell-\(unique)").path
        home = root + "/home"
        work = root + "/work"
        for folder in [home, work] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        f = try DaemonFixture(services: services.directory)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// What a shell of this session runs with: the test's bus as its
    /// session bus, the home, and the built undoctl first on PATH.
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": f.bus.address, "HOME": home, "XDG_DATA_HOME": "", "COLUMNS": "",
         "PATH": DaemonProcess.undoctl.deletingLastPathComponent().path + ":/usr/bin:/bin"]
    }

    /// Runs `script` in `bash` with the integration loaded, in the working folder.
    func bash(_ script: String) throws -> ToolResult {
        let undoctl = DaemonProcess.undoctl.path
        return try runTool(["bash", "--norc", "--noprofile", "-c",
                            "eval \"$('\(undoctl)' shell-init bash)\" && cd '\(work)' && \(script)"],
                           loop: f.loop, environment: environment)
    }

    /// Writes `text` to `name` in the working folder.
    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: work + "/" + name))
    }

    func text(_ name: String) -> String? {
        FileManager.default.contents(atPath: work + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }
}

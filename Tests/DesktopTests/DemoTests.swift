import BusHarness
import Foundation
import Testing

/// `make demo` (scripts/demo.sh --once), as a new user on a machine with no
/// desktop would run it: every part is waited for before the next starts
/// (README's pasted recipe used to race), the typing is undone by the
/// global key and redone by the notification's button, and nothing is
/// written to the user's own history.
@Suite struct DemoTests {
    @Test func theDemoUndoesAndRedoesOnADesktopOfItsOwnAndLeavesTheUsersHistoryAlone() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("undod-demo-home-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try runTool(["env", "-u", "DBUS_SESSION_BUS_ADDRESS", "-u", "DISPLAY", "-u", "XDG_STATE_HOME",
                                  "-u", "XDG_DATA_HOME", "HOME=\(home.path)",
                                  "bash", Repository.file("scripts/demo.sh").path, DaemonProcess.buildDirectory.path, "--once"],
                                 timeout: 120)
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        #expect(result.output.contains("demo: Ctrl+Alt+z  undone: the text is now \"\""))
        #expect(result.output.contains("redone: the text is \"hello world\""))
        #expect(result.output.contains("Focus:    x11"))
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(left.allSatisfy { !$0.hasPrefix(".local") }, "the demo wrote into the user's home: \(left)")
    }
}

import BusHarness
import DBus
import Foundation
import Testing

/// The command line itself: help, usage errors (exit 2), and a daemon out of
/// reach (exit 3).
@Suite struct CommandLineTests {
    static let commands = ["status", "list", "undo", "redo", "history", "focus", "forget", "watch", "completion",
                           "help"]

    @Test func helpForTheToolNamesEveryCommandWithExamples() throws {
        let result = try runTool([DaemonFixture.undoctlBinary, "--help"])
        result.expectSuccess()
        for command in Self.commands {
            #expect(result.output.contains("\n  \(command)"), "--help lists \(command)")
        }
        for section in ["USAGE", "COMMANDS", "TARGET", "OPTIONS", "EXIT STATUS", "EXAMPLES"] {
            #expect(result.output.contains("\n\(section)\n"))
        }
        #expect(result.output.contains("undoctl undo org.example.Editor"))
        #expect(result.output.split(separator: "\n").allSatisfy { $0.count <= 80 }, "fits 80 columns")
        #expect(try runTool([DaemonFixture.undoctlBinary, "-h"]).output == result.output)
        #expect(try runTool([DaemonFixture.undoctlBinary, "help"]).output == result.output)
    }

    @Test(arguments: CommandLineTests.commands)
    func helpForEachCommandHasAnExample(_ command: String) throws {
        let result = try runTool([DaemonFixture.undoctlBinary, command, "--help"])
        result.expectSuccess()
        #expect(result.output.hasPrefix("undoctl \(command) — "))
        #expect(result.output.contains("\nUSAGE\n"))
        let examples = try #require(result.output.range(of: "\nEXAMPLES\n  "), "an example")
        #expect(result.output[examples.upperBound...].contains("undoctl \(command == "help" ? "help" : command)"))
        #expect(result.output.split(separator: "\n").allSatisfy { $0.count <= 80 }, "fits 80 columns")
        #expect(try runTool([DaemonFixture.undoctlBinary, "help", command]).output == result.output)
        #expect(try runTool([DaemonFixture.undoctlBinary, "--help", command]).output == result.output)
    }

    @Test func helpWinsOverOtherMistakes() throws {
        let result = try runTool([DaemonFixture.undoctlBinary, "undo", "--frob", "a", "b", "--help"])
        result.expectSuccess()
        #expect(result.output.hasPrefix("undoctl undo — "))
    }

    @Test func aWordFarFromEveryCommandSuggestsNone() throws {
        let result = try runTool([DaemonFixture.undoctlBinary, "bogus"], environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
        #expect(result.status == 2)
        #expect(result.errors.contains("unknown command \"bogus\""))
        #expect(!result.errors.contains("did you mean"), "“bogus” is two letters from “focus”, too far: \(result.errors)")
    }

    @Test func version() throws {
        let result = try runTool([DaemonFixture.undoctlBinary, "--version"])
        result.expectSuccess()
        #expect(result.output == "undoctl 0.1.0\n")
    }

    @Test(arguments: [
        (["frob"], "unknown command \"frob\""),
        (["lsit"], "did you mean list"),
        (["histroy"], "did you mean history"),
        (["list", "--frob"], "unknown option \"--frob\""),
        (["undo", "-n"], "the option -n needs a value"),
        (["undo", "-n", "0"], "at least 1"),
        (["undo", "-n", "x"], "at least 1"),
        (["undo", "-n", "1", "-n", "2"], "the option -n/--count is given twice"),
        (["undo", "a", "b"], "at most one TARGET"),
        (["undo", ""], "TARGET is empty"),
        (["list", "extra"], "list takes no arguments"),
        (["watch", "extra"], "watch takes no arguments"),
        (["focus"], "focus needs a TARGET"),
        (["--json=yes", "list"], "takes no value"),
        (["--address"], "needs a value"),
        (["--address=", "list"], "--address needs a bus address"),
        (["help", "frob"], "there is no command"),
    ])
    func usageErrorsExit2(_ arguments: [String], _ message: String) throws {
        // No daemon and no bus: a usage error is found before anything is asked.
        let result = try runTool([DaemonFixture.undoctlBinary] + arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
        #expect(result.status == 2, "\(arguments): \(result.errors)")
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("undoctl: "))
        #expect(result.errors.contains(message), "\(result.errors)")
        #expect(result.errors.contains("Try 'undoctl"))
    }

    @Test(arguments: ["status", "list", "undo", "redo", "history", "watch"])
    func noBusExits3(_ command: String) throws {
        let missing = try runTool([DaemonFixture.undoctlBinary, "--address", "unix:path=/nonexistent/undod-test-bus", command])
        #expect(missing.status == 3)
        #expect(missing.errors.hasPrefix("undoctl: cannot reach the bus at"))
        let unset = try runTool([DaemonFixture.undoctlBinary, command],
                                environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent"])
        #expect(unset.status == 3)
        #expect(unset.errors.contains("DBUS_SESSION_BUS_ADDRESS"))
    }

    /// Without `DBUS_SESSION_BUS_ADDRESS`, the session bus is the socket
    /// `$XDG_RUNTIME_DIR/bus`, as sd-bus and GLib clients find it.
    @Test func withoutTheAddressTheBusIsTheRuntimeDirectorysSocket() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("undod-runtime-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let socket = String(f.bus.address.split(separator: ",")[0].dropFirst("unix:path=".count))
        try FileManager.default.createSymbolicLink(atPath: runtime.appendingPathComponent("bus").path,
                                                   withDestinationPath: socket)
        let found = try f.undoctlBare(["list"], environment: ["DBUS_SESSION_BUS_ADDRESS": "",
                                                              "XDG_RUNTIME_DIR": runtime.path])
        #expect(found.status == 0, "\(found.errors)")
        #expect(found.output.contains("Text Editor"))
        // A runtime directory without the socket: no bus, said so.
        let none = try f.undoctlBare(["list"], environment: ["DBUS_SESSION_BUS_ADDRESS": "",
                                                             "XDG_RUNTIME_DIR": f.bus.directory.path + "/none"])
        #expect(none.status == 3)
        #expect(none.errors.contains("XDG_RUNTIME_DIR/bus"), "\(none.errors)")
    }

    @Test func aBusWithoutUndodExits3() throws {
        let f = try DaemonFixture(daemon: false)
        for command in [["status"], ["list"], ["undo"], ["redo", "org.example.Editor"], ["history"],
                        ["focus", "1"], ["forget", "1"]] {
            let result = try f.undoctl(command)
            #expect(result.status == 3, "\(command): \(result.errors)")
            #expect(result.errors.hasPrefix("undoctl: undod is not running on this bus (nothing owns org.undod.Undo1)"))
        }
    }

    @Test func theSessionBusIsTheDefault() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", title: "Text Editor", pushing: ["Typing"])
        let result = try f.undoctlBare(["undo"], environment: ["DBUS_SESSION_BUS_ADDRESS": f.bus.address])
        result.expectSuccess()
        #expect(result.output == "Undid \"Typing\" in Text Editor\n")
    }

    @Test func aDaemonThatStoppedExits3() throws {
        let f = try DaemonFixture()
        try f.app("org.example.Editor", pushing: ["Typing"])
        f.daemon?.signal(SIGTERM)
        #expect(f.daemon?.waitForExit(loop: f.loop) == 0)
        let result = try f.undoctl(["undo"])
        #expect(result.status == 3)
    }
}

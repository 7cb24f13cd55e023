import BusHarness
import DBus
import Foundation
import Testing

/// Signals, config, the command line, and robustness against bad calls.
@Suite struct LifecycleTests {
    @Test func usr1UndoesAndUsr2RedoesTheFocusedStack() throws {
        let f = try DaemonFixture()
        let signals = try f.recordSignals()
        let app = try f.app("app.signals", pushing: ["Typing"])
        f.daemon.signal(SIGUSR1)
        #expect(f.wait { app.applied.count == 1 })
        #expect(app.applied.first?.direction == "undo")
        #expect(f.wait { signals.announced(app.stack, "RedoDepth", .uint32(1)) })
        f.daemon.signal(SIGUSR2)
        #expect(f.wait { app.applied.count == 2 })
        #expect(app.applied.last?.direction == "redo")
    }

    /// README's line that signals undod reaches the undod of the session
    /// bus it names, not another one running on another bus.
    @Test func theReadmesSignalLineReachesTheUndodOfItsOwnBus() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("kill -USR1 ") })
        let command = (lines[start] + "\n" + lines[start + 1]).replacingOccurrences(of: "\\\n", with: " ")
            .components(separatedBy: "  #").first ?? ""
        let mine = try DaemonFixture()
        let other = try DaemonFixture()
        let app = try mine.app("app.mine", pushing: ["Typing"])
        let bystander = try other.app("app.other", pushing: ["Typing"])
        let result = try runTool(["bash", "-c", command], loop: mine.loop,
                                 environment: ["DBUS_SESSION_BUS_ADDRESS": mine.bus.address])
        #expect(result.status == 0, "\(command): \(result.errors)")
        #expect(mine.wait { app.applied.count == 1 }, "the session bus's undod undid")
        #expect(!other.wait(timeout: 500) { !bystander.applied.isEmpty }, "the other undod did nothing")
    }

    /// With `--verbose`, every undo and redo says who asked for it: the
    /// owner, another caller (as undoctl is) or a trigger.
    @Test func verboseLogsEveryUndoAndRedoWithWhoAsked() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.verbose", pushing: ["Typing", "Bold"])
        // Each line names who asked (a unique name, a word of its own) and the group moved.
        func names(_ text: String, _ who: String) -> Bool { text.split(separator: " ").contains { $0 == who } }
        _ = try app.call("Undo")
        #expect(f.waitForLogKey("call.applied"))
        _ = try f.manager("RedoFocused")
        #expect(f.waitForLogKey("call.applied", count: 2))
        let applied = f.daemon.logLines(withKey: "call.applied")
        #expect(applied.count == 2 && names(applied[0], app.name) && applied[0].contains("Bold"), "the owner: \(applied)")
        #expect(applied.count == 2 && names(applied[1], f.watcher.uniqueName) && applied[1].contains("Bold"),
                "another caller: \(applied)")
        _ = try f.stack(app.stack, "Undo")
        _ = try f.stack(app.stack, "Undo")
        let refused = errorOf { () throws(DBusError) in try f.stack(app.stack, "Undo") }
        #expect(refused?.name == undodError("NothingToUndo"))
        #expect(f.waitForLogKey("call.refused", holding: undodError("NothingToUndo")))
        #expect(f.daemon.logLines(withKey: "call.refused").allSatisfy { names($0, f.watcher.uniqueName) })
        f.daemon.signal(SIGUSR2)
        #expect(f.waitForLogKey("trigger.applied", holding: "Typing"), "a trigger says so too")
        #expect(f.daemon.logKeyCount("trigger.applied", holding: "SIGUSR2") == 1, "naming the signal")
    }

    @Test func sigtermStopsCleanly() throws {
        let f = try DaemonFixture()
        _ = try f.app("app.a", pushing: ["1"])
        f.daemon.signal(SIGTERM)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
        #expect(f.daemon.logKeyCount("daemon.stopped") == 1)
    }

    @Test func sigintStopsCleanlyToo() throws {
        let f = try DaemonFixture()
        f.daemon.signal(SIGINT)
        #expect(f.daemon.waitForExit(loop: f.loop) == 0)
    }

    @Test func theTotalBudgetTakesFromTheLeastRecentlyActiveStackFirst() throws {
        let f = try DaemonFixture(config: "[limits]\nmax_total_bytes = 64B\n")
        let sixteen = { (byte: UInt8) in [UInt8](repeating: byte, count: 8) }
        let old = try f.app("app.old")
        try old.push("o1", undo: sixteen(1), redo: sixteen(1))
        try old.push("o2", undo: sixteen(2), redo: sixteen(2))
        let recent = try f.app("app.recent")
        try recent.push("r1", undo: sixteen(3), redo: sixteen(3))
        try recent.push("r2", undo: sixteen(4), redo: sixteen(4))
        #expect(try old.property("UndoDepth") == .uint32(2), "64 bytes fit exactly")
        try recent.push("r3", undo: sixteen(5), redo: sixteen(5))
        #expect(try old.property("UndoDepth") == .uint32(1), "the least recently active stack lost its oldest")
        #expect(try old.property("UndoName") == .string("o2"))
        #expect(try recent.property("UndoDepth") == .uint32(3))
    }

    @Test func emptyActionsCountSixteenBytesEachAgainstTheBudget() throws {
        let f = try DaemonFixture(config: "[limits]\nmax_total_bytes = 1KiB\n")
        let app = try f.app("app.empty")
        let empties = DBusValue.array(element: "(ayay)", Array(repeating: .structure([.bytes([]), .bytes([])]), count: 40))
        let refused = errorOf { () throws(DBusError) in _ = try app.call("PushGroup", [.string("Nothing"), empties, .vardict([:])]) }
        #expect(refused == nil, "the group itself fits the stack's 64 MiB")
        #expect(try app.property("Bytes") == .uint64(640))
        for _ in 0..<2 { _ = try app.call("PushGroup", [.string("Nothing"), empties, .vardict([:])]) }
        #expect(try app.property("Bytes") == .uint64(640), "the budget of 1 KiB keeps one group of 40 empty actions")
        #expect(try app.property("UndoDepth") == .uint32(1))
    }

    @Test func sighupReloadsAndABadFileKeepsTheOldConfig() throws {
        let f = try DaemonFixture(config: "[limits]\nlevels = 5\n")
        let signals = try f.recordSignals()
        let app = try f.app("app.reload")
        #expect(try app.property("Limit") == .uint32(5))
        try "[limits]\nlevels = 3\n".write(to: f.daemon.configFile, atomically: false, encoding: .utf8)
        f.daemon.signal(SIGHUP)
        #expect(f.wait { signals.announced(app.stack, "Limit", .uint32(3)) })
        try "[limits]\nlevels = lots\n".write(to: f.daemon.configFile, atomically: false, encoding: .utf8)
        f.daemon.signal(SIGHUP)
        #expect(f.waitForLogKey("config.not-reloaded", holding: "limits.levels"), "naming the key: \(f.daemon.log)")
        #expect(try app.property("Limit") == .uint32(3))
    }

    @Test func aSecondDaemonRefusesClearly() throws {
        let f = try DaemonFixture()
        // A state directory of its own (never the user's): the bus name
        // alone must be what it is refused for.
        let state = f.bus.directory.appendingPathComponent("second-state").path
        let second = try runTool([DaemonProcess.binary.path, "--address", f.bus.address,
                                  "--config", f.daemon.configFile.path, "--state-dir", state], loop: f.loop)
        #expect(second.status == 1)
        #expect(second.errors.contains("another undod is already running on this bus"))
        #expect(second.errors.split(separator: "\n").count == 1, "one clear line")
    }

    @Test func checkConfigNamesFileLineAndKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("undod-cfg-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("undod.conf")
        try "# comment\n[apply]\ntimeout_ms = soon\n".write(to: file, atomically: false, encoding: .utf8)
        let bad = try runTool([DaemonProcess.binary.path, "--check-config", "--config", file.path])
        #expect(bad.status == 1)
        #expect(bad.errors.contains("\(file.path):3: apply.timeout_ms:"))
        // The file may also follow --check-config itself, as people write it.
        for form in [["--check-config", file.path], ["--check-config=\(file.path)"]] {
            let same = try runTool([DaemonProcess.binary.path] + form)
            #expect(same.status == 1 && same.errors.contains("\(file.path):3: apply.timeout_ms:"), "\(form): \(same.errors)")
        }
        try String(contentsOfFile: Repository.root.appendingPathComponent("Config/undod.conf").path, encoding: .utf8)
            .write(to: file, atomically: false, encoding: .utf8)
        let good = try runTool([DaemonProcess.binary.path, "--check-config", "--config", file.path])
        #expect(good.status == 0, "the shipped config is valid: \(good.errors)")
        #expect(good.errors.isEmpty, "and has no unknown keys: \(good.errors)")
        let running = try runTool([DaemonProcess.binary.path, "--config", file.path + ".missing", "--address", "unix:path=/nonexistent",
                                   "--state-dir", directory.appendingPathComponent("state").path])
        #expect(running.status == 1)
        #expect(running.errors.contains(".missing"))
    }

    /// Three mistakes, one run: every error and warning at once, unknown
    /// keys with the nearest known one, and a file with warnings is not
    /// called valid without a word about them.
    @Test func checkConfigReportsEveryProblemInOneRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("undod-cfg-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("undod.conf")
        try "[apply]\ntimout_ms = 2s\nqueue = lots\n[limits]\nlevels = many\n[focuss]\nstrategy = x11\n"
            .write(to: file, atomically: false, encoding: .utf8)
        let bad = try runTool([DaemonProcess.binary.path, "--check-config", "--config", file.path])
        #expect(bad.status == 1)
        let lines = bad.errors.split(separator: "\n").map(String.init)
        #expect(lines.contains("undod: warning: \(file.path):2: unknown key apply.timout_ms is ignored; "
                               + "did you mean apply.timeout_ms?"), "\(bad.errors)")
        #expect(lines.contains("undod: warning: \(file.path):6: unknown section [focuss] is ignored; did you mean focus?"))
        #expect(lines.contains { $0.hasPrefix("undod: error: \(file.path):3: apply.queue:") })
        #expect(lines.contains { $0.hasPrefix("undod: error: \(file.path):5: limits.levels:") })
        #expect(lines.last == "undod: \(file.path) is not a valid config: 2 errors.")

        try "[apply]\ntimout_ms = 2s\n".write(to: file, atomically: false, encoding: .utf8)
        let warned = try runTool([DaemonProcess.binary.path, "--check-config", "--config", file.path])
        #expect(warned.status == 0)
        #expect(warned.errors.contains("did you mean apply.timeout_ms?"))
        #expect(warned.output == "\(file.path): the config is valid, but see the warning above: what it names is ignored.\n")
        try "[apply]\nfrobnicate = 1\n".write(to: file, atomically: false, encoding: .utf8)
        let far = try runTool([DaemonProcess.binary.path, "--check-config", "--config", file.path])
        #expect(far.errors.contains("unknown key apply.frobnicate is ignored.\n"), "no wild guess: \(far.errors)")
    }

    @Test func versionHelpAndBadOptions() throws {
        let version = try runTool([DaemonProcess.binary.path, "--version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("undod "))
        let help = try runTool([DaemonProcess.binary.path, "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--check-config"))
        let bad = try runTool([DaemonProcess.binary.path, "--frobnicate"])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("--frobnicate"))
    }

    @Test func introspectionMatchesTheShippedXML() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.introspect", pushing: ["1"])
        let shipped = try String(contentsOfFile: Repository.root.appendingPathComponent("Service/org.undod.Undo1.xml").path,
                                 encoding: .utf8)
        let printed = try runTool([DaemonProcess.binary.path, "--introspect"])
        #expect(printed.output == shipped, "Service/org.undod.Undo1.xml is what undod --introspect prints")
        let manager = try f.watcher.callAndWait(destination: "org.undod.Undo1", path: "/org/undod/Undo1",
                                                interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        let stack = try f.watcher.callAndWait(destination: "org.undod.Undo1", path: app.stack,
                                              interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        #expect(Self.element("org.undod.Undo1.Manager", in: shipped) == Self.element("org.undod.Undo1.Manager", in: manager.first?.string ?? ""))
        #expect(Self.element("org.undod.Undo1.Stack", in: shipped) == Self.element("org.undod.Undo1.Stack", in: stack.first?.string ?? ""))
        #expect(Self.element("org.undod.Undo1.Client", in: shipped) != nil)
        for standard in ["org.freedesktop.DBus.ObjectManager", "org.freedesktop.DBus.Properties",
                         "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer"] {
            #expect(manager.first?.string?.contains("<interface name=\"\(standard)\">") == true)
        }
    }

    @Test func badCallsGetClearErrorsAndTheDaemonStaysUp() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.robust", pushing: ["1"])
        let address = "--address=\(f.bus.address)"
        let wrongSignature = try runTool(["busctl", address, "call", "org.undod.Undo1", "/org/undod/Undo1",
                                          "org.undod.Undo1.Manager", "Register", "u", "7"], loop: f.loop)
        #expect(wrongSignature.status != 0)
        #expect(wrongSignature.errors.contains("(sa{sv})"))
        let unknownMember = try runTool(["gdbus", "call", "--address", f.bus.address, "--dest", "org.undod.Undo1",
                                         "--object-path", app.stack, "--method", "org.undod.Undo1.Stack.Explode"],
                                        loop: f.loop)
        #expect(unknownMember.errors.contains("org.freedesktop.DBus.Error.UnknownMethod"))
        let unknownPath = try runTool(["gdbus", "call", "--address", f.bus.address, "--dest", "org.undod.Undo1",
                                       "--object-path", "/org/undod/Undo1/stack/77", "--method",
                                       "org.undod.Undo1.Stack.Undo"], loop: f.loop)
        #expect(unknownPath.errors.contains("org.freedesktop.DBus.Error.UnknownObject"))
        let badPush = try runTool(["busctl", address, "call", "org.undod.Undo1", app.stack, "org.undod.Undo1.Stack",
                                   "Push", "say", "x", "0"], loop: f.loop)
        #expect(badPush.errors.contains("(sayaya{sv})"))
        let notOwner = try runTool(["busctl", address, "call", "org.undod.Undo1", app.stack, "org.undod.Undo1.Stack",
                                    "Push", "sayaya{sv}", "x", "1", "1", "1", "2", "0"], loop: f.loop)
        #expect(notOwner.errors.contains("Only the owner"))
        #expect(try app.property("UndoDepth") == .uint32(1))
        #expect(try f.managerProperty("FocusedStack") == .objectPath(app.stack), "undod still answers")
    }

    @Test func whatACallerSentIsQuotedEscapedAndCutInTheError() throws {
        let f = try DaemonFixture()
        let app = try f.app("app.quoting", pushing: ["1"])
        let sent = "bad\nline\u{1B}[2J" + String(repeating: "x", count: 1 << 20)
        do {
            _ = try app.register(sent)
            Issue.record("an invalid app id was accepted")
        } catch {
            #expect(error.name == "org.undod.Undo1.Error.InvalidAppId")
            #expect(!error.message.contains("\n") && !error.message.contains("\u{1B}"), "no control character")
            #expect(error.message.contains("“bad\\nline\\u{1B}[2J"))
            #expect(error.message.count < 1_000, "at most 256 characters of it: \(error.message.count) in all")
        }
        let unknown = try f.send(from: f.watcher, "/org/undod/Undo1/stack/9" + String(repeating: "9", count: 5_000),
                                 "org.undod.Undo1.Stack", "Undo")
        #expect(f.wait { unknown.isDone })
        #expect((unknown.error?.message.count ?? 0) < 1_000)
        #expect(try app.property("UndoDepth") == .uint32(1))
    }

    /// A stack's title is the caller's text too (up to 4,096 bytes, no
    /// control characters): every sentence and log line that names the
    /// stack quotes it escaped and cut (found by the fuzzer, seed 20261202:
    /// a NothingToUndo of 4,159 characters).
    @Test func aStacksTitleIsEscapedAndCutWhereverTheStackIsNamed() throws {
        let f = try DaemonFixture()
        let title = "My “best” doc " + String(repeating: "t", count: 4_000)
        let app = try f.app("app.titled", pushing: [], options: ["title": .string(title)])
        do {
            _ = try app.call("Undo")
            Issue.record("an undo of an empty stack was accepted")
        } catch {
            #expect(error.name == "org.undod.Undo1.Error.NothingToUndo")
            #expect(error.message.contains("“My \\u{201C}best\\u{201D} doc tttt"), "\(error.message)")
            #expect(error.message.contains("t…” (stack "), "cut, and the cut marked")
            #expect(error.message.count < 1_000, "at most 256 characters of the title: \(error.message.count) in all")
        }
        #expect(try app.property("Title") == .string(title), "the title itself is kept as given")
    }

    /// The `<interface name="NAME">…</interface>` element of `xml`.
    static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<interface name=\"\(name)\">") else { return nil }
        guard let end = xml.range(of: "</interface>", range: start.upperBound..<xml.endIndex) else { return nil }
        return String(xml[start.lowerBound..<end.upperBound])
    }
}

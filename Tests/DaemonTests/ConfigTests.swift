import BusHarness
import Caretaker
import DBus
import Foundation
import Testing
import UndoDaemon
import X11

/// `undod.conf`: every key, its syntax, and errors that name file, line and key.
@Suite struct ConfigTests {
    func parse(_ text: String) throws(ConfigError) -> ConfigParser.Outcome {
        try ConfigParser(file: "undod.conf").parse(text)
    }

    @Test func emptyFileGivesTheSpecDefaults() throws {
        let config = try parse("").config
        #expect(config == DaemonConfig())
        #expect(config.service.levels == 100)
        #expect(config.service.maxBytes == 64 << 20)
        #expect(config.service.maxTotalBytes == 1 << 30)
        #expect(config.service.stacksPerClient == 256)
        #expect(config.service.applyTimeoutMilliseconds == 5_000)
        #expect(config.service.applyQueue == 16)
        #expect(config.service.mergeWindowMilliseconds == 1_000)
        #expect(config.service.persist)
        #expect(config.service.detachedTTLMilliseconds == 7 * 86_400_000)
        #expect(config.focusStrategy == .auto)
        #expect(config.service.focusFollowsPush)
        #expect(config.hotkeyUndo?.description == "Ctrl+Alt+z")
        #expect(config.hotkeyRedo?.description == "Ctrl+Alt+Shift+z")
        #expect(config.notifyEnabled)
        #expect(config.notifyConfirm == .whileGuessing)
    }

    @Test func everyKeyIsRead() throws {
        let config = try parse("""
            # a comment
            ; another
            [limits]
            levels = 0
            max_bytes = 2KiB   # trailing comment
            max_total_bytes = 3GiB
            stacks_per_client = 7
            [apply]
            timeout_ms = 2s
            queue = 4
            [merge]
            window_ms = 250
            [stacks]
            persist = no
            detached_ttl = 90   ; seconds when bare
            [focus]
            strategy = recent
            follows_push = off
            [hotkey]
            undo = Super+z
            redo =
            [notify]
            enabled = false
            confirm = yes
            """).config
        #expect(config.service.levels == 0)
        #expect(config.service.maxBytes == 2_048)
        #expect(config.service.maxTotalBytes == 3 << 30)
        #expect(config.service.stacksPerClient == 7)
        #expect(config.service.applyTimeoutMilliseconds == 2_000)
        #expect(config.service.applyQueue == 4)
        #expect(config.service.mergeWindowMilliseconds == 250)
        #expect(!config.service.persist)
        #expect(config.service.detachedTTLMilliseconds == 90_000)
        #expect(config.focusStrategy == .recent)
        #expect(!config.service.focusFollowsPush)
        #expect(config.hotkeyUndo?.description == "Super+z")
        #expect(config.hotkeyRedo == nil)
        #expect(!config.notifyEnabled)
        #expect(config.notifyConfirm == .always)
    }

    @Test(arguments: [
        ("Ctrl+Alt+z", "Ctrl+Alt+z"), ("Super+BackSpace", "Super+BackSpace"), ("Ctrl+Alt+Shift+z", "Ctrl+Alt+Shift+z"),
        ("ctrl+alt+Z", "Ctrl+Alt+z"), ("super+backspace", "Super+BackSpace"), ("Ctrl++", "Ctrl+plus"),
        ("Ctrl+Esc", "Ctrl+Escape"), ("Alt+PgUp", "Alt+Prior"), ("Ctrl+;", "Ctrl+semicolon"), ("Win+F12", "Super+F12"),
        ("Ctrl + Alt + z", "Ctrl+Alt+z"),
    ] as [(String, String)])
    func hotkeysAsPeopleWriteThem(_ text: String, _ canonical: String) throws {
        #expect(try parse("[hotkey]\nredo =\nundo = \(text)\n").config.hotkeyUndo?.description == canonical)
    }

    @Test(arguments: [
        ("[hotkey]\nundo = Ctrl+Alt+foo\n", 2, "hotkey.undo", "unknown key “foo”"),
        ("[hotkey]\nredo = Hyperdrive+z\n", 2, "hotkey.redo", "unknown modifier “Hyperdrive”"),
        ("[hotkey]\nundo = Ctrl+Alt\n", 2, "hotkey.undo", "modifier “Alt”"),
        ("[hotkey]\nundo = Ctrl+Shift_L\n", 2, "hotkey.undo", "modifier “Shift_L”"),
        ("[hotkey]\nundo = Ctrl+Alt+y\nredo = ctrl+alt+Y\n", 3, "hotkey.redo", "same key as hotkey.undo"),
    ] as [(String, Int, String, String)])
    func badHotkeysNameFileLineAndKey(_ text: String, _ line: Int, _ key: String, _ words: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line && error.key == key && error.reason.contains(words), "\(error)")
        }
    }

    @Test(arguments: [
        ("1B", 1), ("17", 17), ("4KiB", 4_096), ("3 MiB", 3 << 20), ("1GiB", 1 << 30),
    ] as [(String, UInt64)])
    func sizes(_ text: String, _ bytes: UInt64) throws {
        #expect(try parse("[limits]\nmax_bytes = \(text)\n").config.service.maxBytes == bytes)
    }

    @Test(arguments: [
        ("500ms", 500), ("2s", 2_000), ("3m", 180_000), ("1h", 3_600_000), ("2d", 172_800_000), ("45", 45_000),
    ] as [(String, UInt64)])
    func durations(_ text: String, _ milliseconds: UInt64) throws {
        #expect(try parse("[stacks]\ndetached_ttl = \(text)\n").config.service.detachedTTLMilliseconds == milliseconds)
    }

    @Test(arguments: [
        ("[limits]\nlevels = many\n", 2, "limits.levels"),
        ("[limits]\n\nmax_bytes = 12 parsecs\n", 3, "limits.max_bytes"),
        ("[apply]\ntimeout_ms = 0\n", 2, "apply.timeout_ms"),
        ("[stacks]\npersist = maybe\n", 2, "stacks.persist"),
        ("[focus]\nstrategy = wayland\n", 2, "focus.strategy"),
        ("[hotkey]\nundo = Ctrl+\n", 2, "hotkey.undo"),
        ("[merge]\nwindow_ms = -5\n", 2, "merge.window_ms"),
        ("[notify]\nenabled\n", 2, ""),
        ("levels = 3\n", 1, "levels"),
        ("[limits\n", 1, ""),
    ] as [(String, Int, String)])
    func badValuesNameFileLineAndKey(_ text: String, _ line: Int, _ key: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.file == "undod.conf")
            #expect(error.line == line)
            #expect(error.key == key)
            #expect(error.description.hasPrefix("undod.conf:\(line): "))
        }
    }

    @Test func unknownSectionsAndKeysAreWarnings() throws {
        let outcome = try parse("[limits]\nlevels = 5\ncolour = blue\n[future]\nthing = 1\n")
        #expect(outcome.config.service.levels == 5)
        #expect(outcome.warnings.count == 2)
        #expect(outcome.warnings[0].contains("undod.conf:3") && outcome.warnings[0].contains("limits.colour"))
        #expect(outcome.warnings[1].contains("[future]"))
    }
}

/// The config is read with care: only a regular file of at most 1 MiB (a
/// link to one is fine), opened without blocking; anything else is an
/// error naming the file, at start (undod exits 1) and on reload (the old
/// config stays and nothing is lost).
@Suite struct ConfigFileRuleTests {
    /// The kinds of file undod must refuse, made in `directory`.
    static func hostileFiles(in directory: URL) throws -> [(path: String, reason: String)] {
        let fifo = directory.appendingPathComponent("fifo.conf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let zero = directory.appendingPathComponent("zero.conf")
        try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
        let big = directory.appendingPathComponent("big.conf")
        try Data(repeating: UInt8(ascii: "#"), count: 2 << 20).write(to: big)
        return [(fifo, "is a FIFO"), (zero.path, "is a device"), (directory.path, "is a directory"),
                (big.path, "a config file may be at most 1 MiB")]
    }

    @Test func atStartAHostileFileIsAnErrorNamingIt() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        for (path, reason) in try Self.hostileFiles(in: bus.directory) {
            let result = try runTool([DaemonProcess.binary.path, "--config", path, "--check-config"], timeout: 10)
            #expect(result.status == 1, "\(path): \(result.errors)")
            #expect(result.errors.contains("\(path): ") && result.errors.contains(reason), "\(result.errors)")
            let started = try runTool([DaemonProcess.binary.path, "--config", path, "--address", bus.address,
                                       "--state-dir", bus.directory.appendingPathComponent("state").path], timeout: 10)
            #expect(started.status == 1, "undod refuses to start on \(path)")
        }
    }

    @Test func onReloadAHostileFileKeepsTheOldConfigAndEveryMemoryOnlyStack() throws {
        let f = try DaemonFixture(config: "[stacks]\npersist = false\n")
        let app = try f.app("org.example.Memory", pushing: ["One", "Two"])
        for (path, reason) in try Self.hostileFiles(in: f.bus.directory) {
            try FileManager.default.removeItem(at: f.daemon.configFile)
            if reason == "is a directory" {
                try FileManager.default.createSymbolicLink(atPath: f.daemon.configFile.path, withDestinationPath: path)
            } else {
                try FileManager.default.moveItem(atPath: path, toPath: f.daemon.configFile.path)
            }
            f.daemon.signal(SIGHUP)
            #expect(f.waitForLogKey("config.not-reloaded", holding: reason), "\(f.daemon.log)")
            #expect(try f.stackProperty(app.stack, "UndoDepth") == .uint32(2), "the memory-only history survives")
            try f.ping()
        }
    }
}

import BusHarness
import DBus
import Foundation
import Testing

/// The Trust section: a stack's payloads go only to the program that made
/// it. Real programs, each in its own process: python3 scripts at two
/// paths, `busctl`, and python3 in a Flatpak-shaped `bwrap` sandbox.
@Suite struct TrustTests {
    /// `Tests/Clients/origin_client.py` copied to `name` in a folder of its
    /// own: one more program, as far as undod can tell.
    static func script(_ name: String, in directory: URL) throws -> String {
        let source = Repository.root.appendingPathComponent("Tests/Clients/origin_client.py")
        let copy = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: source, to: copy)
        return copy.path
    }

    /// Runs `script` (through `wrapper`, if any) against `f`'s bus; the JSON it printed.
    static func run(_ script: String, _ arguments: [String], _ f: DaemonFixture,
                    wrapper: [String] = []) throws -> [String: Any] {
        let run = try runTool(wrapper + ["/usr/bin/python3", script, f.bus.address] + arguments, loop: f.loop)
        #expect(run.status == 0, "\(run.errors)")
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
    }

    @Test func anotherProgramCannotAdoptADetachedStackNorSeeItsPayloads() throws {
        let f = try DaemonFixture()
        let notes = try Self.script("notes.py", in: f.bus.directory)
        let thief = try Self.script("thief.py", in: f.bus.directory)
        let secret = ["org.example.Secret", "--memory-only"]
        let made = try Self.run(notes, secret + ["--push", "delete:hunter2-secret"], f)
        let path = try #require(made["path"] as? String)
        #expect(f.wait { (try? f.stackProperty(path, "Owner")) == .string("") }, "the app quit: its stack detached")

        // Another script, another executable, and a push meant for the real app: all refused.
        let stolen = try Self.run(thief, secret + ["--undo"], f)
        #expect(stolen["error"] as? String == undodError("NotAllowed"))
        let sentence = stolen["message"] as? String ?? ""
        #expect(sentence.contains("notes.py") && sentence.contains("thief.py"), "\(sentence)")
        #expect(!sentence.contains("hunter2"))
        let planted = try Self.run(thief, secret + ["--push", "EVIL: delete whole file"], f)
        #expect(planted["error"] as? String == undodError("NotAllowed"))
        let busctl = try runTool(["busctl", "--address=\(f.bus.address)", "call", "org.undod.Undo1", "/org/undod/Undo1",
                                  "org.undod.Undo1.Manager", "Register", "sa{sv}", "org.example.Secret", "0"],
                                 loop: f.loop)
        #expect(busctl.status != 0)
        #expect(busctl.errors.contains("bin/busctl"), "\(busctl.errors)")
        #expect(try f.stackProperty(path, "UndoDepth") == .uint32(1), "the refusals changed nothing")
        #expect(try f.stackProperty(path, "Owner") == .string(""))

        // The app itself, back, adopts it and undoes what it pushed, and nothing else.
        let back = try Self.run(notes, secret + ["--undo"], f)
        #expect(back["path"] as? String == path)
        #expect(back["applied"] as? [String] == ["delete:hunter2-secret"])
    }

    /// A newer bus (Debian 13's dbus-daemon gives `ProcessFD`) in a pid
    /// namespace of its own, as a containerised bus would be: it knows no
    /// pid of undod's callers, only their pidfds. undod learns each
    /// caller's program from the pidfd, so another program still cannot
    /// adopt the stack (with the pid alone, no origin: anyone could).
    @Test(.enabled(if: DesktopRelease.tested.contains { !$0.isHost && $0.canRun }, "no newer Debian root to run"),
          arguments: DesktopRelease.tested.filter { !$0.isHost })
    func theBussPidfdTellsTheProgramWhereNoPidCan(release: DesktopRelease) throws {
        let f = try DaemonFixture(busRelease: release)
        let notes = try Self.script("notes.py", in: f.bus.directory)
        let thief = try Self.script("thief.py", in: f.bus.directory)
        let made = try Self.run(notes, ["org.example.Contained", "--push", "secret"], f)
        let path = try #require(made["path"] as? String)
        #expect(f.wait { (try? f.stackProperty(path, "Owner")) == .string("") })
        let stolen = try Self.run(thief, ["org.example.Contained", "--undo"], f)
        #expect(stolen["error"] as? String == undodError("NotAllowed"), "\(stolen)")
        #expect((stolen["message"] as? String ?? "").contains("notes.py"), "\(stolen)")
        let back = try Self.run(notes, ["org.example.Contained", "--undo"], f)
        #expect(back["path"] as? String == path)
        #expect(back["applied"] as? [String] == ["secret"])
    }

    @Test func theDocumentsStateTagLetsAMovedAppAdopt() throws {
        let f = try DaemonFixture()
        let old = try Self.script("editor.py", in: f.bus.directory)
        let moved = try Self.script("editor-2.py", in: f.bus.directory)
        let made = try Self.run(old, ["org.example.Editor", "--document", "/tmp/a.txt", "--state-tag", "v7"], f)
        let path = try #require(made["path"] as? String)
        #expect(f.wait { (try? f.stackProperty(path, "Owner")) == .string("") })
        let wrongTag = try Self.run(moved, ["org.example.Editor", "--document", "/tmp/a.txt", "--state-tag", "v6"], f)
        #expect(wrongTag["error"] as? String == undodError("NotAllowed"), "a tag that does not match proves nothing")
        let rightTag = try Self.run(moved, ["org.example.Editor", "--document", "/tmp/a.txt", "--state-tag", "v7"], f)
        #expect(rightTag["path"] as? String == path)
        #expect(f.wait { (try? f.stackProperty(path, "Owner")) == .string("") })
        let oldAgain = try Self.run(old, ["org.example.Editor", "--document", "/tmp/a.txt"], f)
        #expect(oldAgain["error"] as? String == undodError("NotAllowed"), "the stack went with the moved app")
    }

    @Test func theOriginSurvivesARestart() throws {
        let f = try DaemonFixture()
        let notes = try Self.script("notes.py", in: f.bus.directory)
        let thief = try Self.script("thief.py", in: f.bus.directory)
        let made = try Self.run(notes, ["org.example.Kept", "--push", "secret"], f)
        let path = try #require(made["path"] as? String)
        try f.restart()
        let stolen = try Self.run(thief, ["org.example.Kept", "--undo"], f)
        #expect(stolen["error"] as? String == undodError("NotAllowed"))
        let back = try Self.run(notes, ["org.example.Kept", "--undo"], f)
        #expect(back["path"] as? String == path)
        #expect(back["applied"] as? [String] == ["secret"])
    }

    /// A Flatpak-shaped sandbox: a fresh root of the host's `/usr` and
    /// `/etc` with `/.flatpak-info` naming `org.example.Sandboxed`.
    static func sandbox(in directory: URL) throws -> [String] {
        let info = directory.appendingPathComponent("flatpak-info")
        try "[Application]\nname=org.example.Sandboxed\nruntime=runtime/org.example.Platform/x86_64/1\n"
            .write(to: info, atomically: true, encoding: .utf8)
        return ["bwrap", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc",
                "--unshare-pid", "--bind", "/tmp", "/tmp", "--ro-bind", info.path, "/.flatpak-info"]
    }

    @Test func aSandboxedAppRegistersOnlyItsOwnAppIdAndAdoptsNothingElse() throws {
        let f = try DaemonFixture()
        let notes = try Self.script("notes.py", in: f.bus.directory)
        let sandbox = try Self.sandbox(in: f.bus.directory)
        let other = try Self.run(notes, ["org.example.Other"], f, wrapper: sandbox)
        #expect(other["error"] as? String == undodError("InvalidAppId"))
        #expect((other["message"] as? String)?.contains("org.example.Sandboxed") == true)
        let prefixOnly = try Self.run(notes, ["org.example.SandboxedEvil"], f, wrapper: sandbox)
        #expect(prefixOnly["error"] as? String == undodError("InvalidAppId"), "beneath means after a dot")
        let own = try Self.run(notes, ["org.example.Sandboxed", "--push", "mine"], f, wrapper: sandbox)
        let path = try #require(own["path"] as? String)
        #expect(try Self.run(notes, ["org.example.Sandboxed.Document1"], f, wrapper: sandbox)["path"] != nil)

        // The same script outside the sandbox is another program, and so the other way round.
        #expect(f.wait { (try? f.stackProperty(path, "Owner")) == .string("") })
        let outside = try Self.run(notes, ["org.example.Sandboxed", "--undo"], f)
        #expect(outside["error"] as? String == undodError("NotAllowed"))
        #expect((outside["message"] as? String)?.contains("the Flatpak app org.example.Sandboxed") == true)
        let unsandboxed = try Self.run(notes, ["org.example.Sandboxed.Plain", "--push", "plain"], f)
        #expect(unsandboxed["path"] != nil)
        let inside = try Self.run(notes, ["org.example.Sandboxed.Plain", "--undo"], f, wrapper: sandbox)
        #expect(inside["error"] as? String == undodError("NotAllowed"))
        let back = try Self.run(notes, ["org.example.Sandboxed", "--undo"], f, wrapper: sandbox)
        #expect(back["applied"] as? [String] == ["mine"])
    }

    @Test func aSandboxedAppSeesOnlyTheAppIdAndTitleOfOthersStacks() throws {
        let f = try DaemonFixture()
        let notes = try Self.script("notes.py", in: f.bus.directory)
        let sandbox = try Self.sandbox(in: f.bus.directory)
        let others = try Self.run(notes, ["org.example.Bank", "--push", "transfer"], f)
        let othersPath = try #require(others["path"] as? String)
        let own = try Self.run(notes, ["org.example.Sandboxed", "--push", "mine"], f, wrapper: sandbox)
        let ownPath = try #require(own["path"] as? String)

        let inside = try Self.run(notes, ["--look", othersPath], f, wrapper: sandbox)
        #expect(inside["properties"] as? [String] == ["AppId", "Title"])
        #expect(inside["history_error"] as? String == undodError("NotAllowed"))
        #expect(inside["undo_name_error"] as? String == "org.freedesktop.DBus.Error.AccessDenied")
        let itsOwn = try Self.run(notes, ["--look", ownPath], f, wrapper: sandbox)
        #expect((itsOwn["properties"] as? [String])?.count == 16)
        #expect(itsOwn["history"] as? [String] == ["Change"])
        #expect(itsOwn["undo_name"] as? String == "Change")
        let outside = try Self.run(notes, ["--look", othersPath], f)
        #expect((outside["properties"] as? [String])?.count == 16, "outside a sandbox, everything as before")
        #expect(outside["history"] as? [String] == ["Change"])
    }
}

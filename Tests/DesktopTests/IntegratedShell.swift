import BusHarness
import Foundation
import Loop

/// An interactive bash with the shell's undo loaded, for a real terminal
/// to run: a home and a working folder of its own (holding `notes.txt`),
/// its start-up file, and a FIFO through which it says it is ready, which
/// the test's loop watches (no polling, no sleeping).
final class IntegratedShell {
    let home: URL
    let work: URL
    /// `notes.txt` in the working folder, "my notes" at first.
    let notes: URL
    /// What the terminal runs: `bash --rcfile RC -i`.
    let command: [String]
    private(set) var isReady = false
    private let loop: EventLoop
    private let readyEnd: Int32
    private var watch: EventLoop.Token?

    /// Everything in `folder`, the FIFO watched on `loop`; `first`, a
    /// command line the shell runs through the functions once they are
    /// loaded, before it says it is ready.
    init(in folder: URL, loop: EventLoop, first: String? = nil) throws {
        self.loop = loop
        home = folder.appendingPathComponent("home")
        work = folder.appendingPathComponent("work")
        for made in [home, work] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        notes = work.appendingPathComponent("notes.txt")
        try Data("my notes".utf8).write(to: notes)
        let ready = folder.appendingPathComponent("ready")
        guard mkfifo(ready.path, 0o600) == 0 else { throw HarnessError("mkfifo \(ready.path) failed") }
        readyEnd = open(ready.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let rc = folder.appendingPathComponent("bashrc")
        try """
            eval "$(undoctl shell-init bash)"
            cd '\(work.path)'
            PS1='$ '
            \(first ?? "")
            echo $$ > '\(ready.path)'
            """.write(to: rc, atomically: true, encoding: .utf8)
        command = ["bash", "--rcfile", rc.path, "-i"]
        watch = loop.watch(fd: readyEnd, events: .readable) { [unowned self] in self.isReady = true }
    }

    deinit {
        if let watch { loop.remove(watch) }
        close(readyEnd)
    }

    /// The environment the terminal runs with: `base` (its display), the
    /// test's bus as the session bus, the home, the built undoctl on PATH.
    func environment(_ base: [String: String], bus: TestBus) -> [String: String] {
        base.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path, "XDG_DATA_HOME": "",
                      "PATH": DaemonProcess.undoctl.deletingLastPathComponent().path + ":/usr/bin:/bin"]) { $1 }
    }
}

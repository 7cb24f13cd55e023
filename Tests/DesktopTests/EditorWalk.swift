import BusHarness
import DBus
import Foundation
import Rig
import Testing

/// A random walk of typing, an example editor's own Ctrl+Z / Ctrl+Shift+Z
/// and the global keys (xdotool under Xvfb), checked against a model of one
/// history: the local and the global undo never diverge. Merging is off
/// (`config`): each keystroke is a group of its own.
enum EditorWalk {
    /// undod's config for a walk: no merging.
    static let config = "[merge]\nwindow_ms = 0\n"

    /// Walks 40 random steps on `editor` (in front, its stack `stack`),
    /// checking every applied text against the model. `UNDOD_WALK_SEED`
    /// replays a walk; the seed is in every failure.
    static func run(on f: DesktopFixture, editor: ScriptedProcess, stack: String) throws {
        let seed = ProcessInfo.processInfo.environment["UNDOD_WALK_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970)
        var random = SplitMix64(seed: seed)
        let signals = try f.daemon.recordSignals()

        var done: [Character] = []    // the undo side, oldest first
        var undone: [Character] = []  // the redo side, next redo last
        var steps: [String] = []
        for _ in 0..<40 {
            let choice = random.weighted([4, done.isEmpty ? 0 : 2, done.isEmpty ? 0 : 2,
                                          undone.isEmpty ? 0 : 1, undone.isEmpty ? 0 : 1])
            switch choice {
            case 0:
                let letter = random.pick(Array("abcdefghij"))
                steps.append("type \(letter)")
                let pushed = signals.arguments(of: "Pushed").count
                try f.desktop.xdotool(["type", String(letter)], loop: f.loop)
                try #require(f.daemon.wait { signals.arguments(of: "Pushed").count == pushed + 1 },
                             "seed \(seed): no push after \(steps)")
                done.append(letter)
                undone.removeAll()
            default:
                let undo = choice == 1 || choice == 2
                let keys = [1: "ctrl+alt+z", 2: "ctrl+z", 3: "ctrl+alt+shift+z", 4: "ctrl+shift+z"][choice]!
                steps.append(keys)
                try f.desktop.press(keys, loop: f.loop)
                let applied = try editor.next(event: "applied")
                if undo { undone.append(done.removeLast()) } else { done.append(undone.removeLast()) }
                try #require(applied["direction"] as? String == (undo ? "undo" : "redo"), "seed \(seed): \(steps)")
                try #require(applied["text"] as? String == String(done),
                             "seed \(seed): after \(steps) the text is \(applied["text"] ?? "none"), not \(String(done))")
            }
        }
        #expect(try f.daemon.stackProperty(stack, "UndoDepth")?.uint32 == UInt32(done.count), "seed \(seed)")
        #expect(try f.daemon.stackProperty(stack, "RedoDepth")?.uint32 == UInt32(undone.count), "seed \(seed)")
    }
}

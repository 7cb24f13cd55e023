import FileUndo
import Foundation
import SystemCalls
import Testing

/// A replay that meets a full disk halfway: refused, with every step it
/// had done done back, so the files are exactly as before it.
@Suite struct FullDiskReplayTests {
    @Test func aRedoThatRunsOutOfRoomHalfwayLeavesEverythingAsItWas() throws {
        let f = try FilesFixture()
        for name in ["a", "b", "c"] { try f.file(name, name) }
        let outcome = f.run("rm a b c")
        try f.replay.undo(outcome.change)
        let before = f.snapshot()
        // The second .trashinfo the redo writes finds no room.
        let armed = SystemCallFaults.arm(.init(.write, under: f.root + "/home/.local/share/Trash", errno: Errno(ENOSPC),
                                               skipping: 1))
        defer { SystemCallFaults.disarm(armed) }
        #expect(throws: FileUndoError.self) { try f.replay.redo(outcome.change) }
        #expect(f.snapshot() == before)
        SystemCallFaults.disarm(armed)
        try f.replay.redo(outcome.change)
        #expect(f.snapshot().isEmpty)
    }
}

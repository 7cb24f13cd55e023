import DBus
import Testing
@testable import UndoDaemon

/// How undod reads GNOME Shell's `GetExtensionInfo` answer for its
/// extension: a dead key is said only for a state the Shell has settled.
@Suite struct GnomeExtensionStateTests {
    @Test func anEmptyAnswerIsAnExtensionNotInstalled() {
        #expect(GnomeExtensionState(info: [:]) == .notInstalled)
    }

    /// GNOME Shell 45 and later create every extension's object, metadata
    /// only, before loading any: an answer then has no state, and the
    /// extension is on its way (found under load in CI, told as missing).
    @Test func metadataWithoutAStateIsAnExtensionStillLoading() {
        #expect(GnomeExtensionState(info: ["uuid": .string("undod@undod.org"), "name": .string("undod")]) == nil)
    }

    @Test(arguments: [(1.0, true), (2.0, true), (3.0, true)])
    func statesOnTheWayToActiveSayNothing(state: Double, enabled: Bool) {
        #expect(GnomeExtensionState(info: ["state": .double(state), "enabled": .bool(enabled)]) == nil)
    }

    @Test func settledStatesAreSaid() {
        #expect(GnomeExtensionState(info: ["state": .double(2), "enabled": .bool(false)]) == .disabled)
        #expect(GnomeExtensionState(info: ["state": .double(4)]) == .outOfDate)
        #expect(GnomeExtensionState(info: ["state": .double(3), "error": .string("boom")]) == .failed(error: "boom"))
        #expect(GnomeExtensionState(info: ["state": .double(99)]) == .notInstalled)
    }
}

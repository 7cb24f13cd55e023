import UndoCore
package import UndoStore

/// The turn's side of the service: ending each turn, and saving on the way out.
extension UndoService: TurnHost {
    /// Ends the loop's turn: announces the focus if it may have moved,
    /// commits, then sends the held replies and the announcements
    /// (`TurnTransaction.end`). undod calls it at every turn's end.
    package func endTurn() {
        if focusMayHaveMoved { announceFocusNow() }
        turn.end(self)
    }

    /// Writes everything pending now (on the way out).
    package func save() throws(StoreError) {
        settleAllDepartures()
        try turn.save(counters: counters)
    }

    func record(_ number: UInt64) -> StackRecord? {
        registry.byNumber[number]
    }

    func settings(of record: StackRecord) -> StackSettings {
        record.stackSettings(under: settings)
    }

    func restore(_ record: StackRecord, to history: UndoStack) {
        record.stack = history
        applySettings(to: record)
        registry.countBytes(of: record)
    }

    func announce(_ record: StackRecord) {
        announcer.changed(record)
    }

    func turnTakenBack() {
        announceFocusNow()
    }

    func send(_ announcement: Announcement) {
        publisher.send(announcement)
    }
}

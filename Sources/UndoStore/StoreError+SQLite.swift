/// A SQLite error as the store says it: in words where SQLite's own are
/// unclear, and marked corrupt when SQLite says the file is.
extension StoreError {
    /// `error`, met while reading.
    init(reading error: SQLiteError) {
        self.init(error.meansCorrupt ? "the store is corrupt: \(error)" : "\(error)", corruption: error.meansCorrupt)
    }

    /// `error`, met while writing: what went wrong.
    init(writing error: SQLiteError) {
        let primary = error.code & 0xFF
        let words = primary == 13 ? "the disk is full" : primary == 8 ? "the store is read-only" : error.description
        self.init(words, corruption: error.meansCorrupt)
    }
}

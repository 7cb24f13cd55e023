/// The stable name of a kind of line in undod's log ("portal.bound"),
/// written in brackets at the line's start: `undod: [portal.bound] the
/// global keys are bound …`. A key names what happened and stays when
/// the sentence after it is reworded, so a script or an admin greps for
/// the key, not the sentence (Docs/USING.md, "The log", lists them).
///
/// An open set, as `Errno` is: each key is a static constant declared
/// beside the code that logs it (`extension LogKey { static let … }`).
/// A key is words of lowercase letters and digits, joined by `-` within a
/// part and by `.` between parts: the first part names the subject
/// (`x11`, `portal`, `store`, `trigger`, …), the rest what happened.
package struct LogKey: RawRepresentable, Hashable, Sendable {
    /// The key as the log writes it, without its brackets.
    package let rawValue: String

    /// The key `rawValue`.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The key `rawValue`, as a declaration reads best: `LogKey("portal.bound")`.
    package init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

extension LogKey {
    /// Repeats held back: "… repeated N times" (`Log`).
    static let repeated = LogKey("log.repeated")
}

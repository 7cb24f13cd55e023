/// Why undod has no X server to talk to, in a sentence.
public enum X11Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// `DISPLAY` is not set (and no display was named).
    case noDisplay
    /// The display could not be opened.
    case cannotConnect(String, reason: String)
    /// The display took the connection but did not answer in time.
    case noAnswer(String, milliseconds: Int)

    /// The sentence.
    public var description: String {
        switch self {
        case .noDisplay: "no X display (DISPLAY is not set)"
        case .cannotConnect(let display, let reason): "cannot open the X display \(display) (\(reason))"
        case .noAnswer(let display, let milliseconds):
            "the X display \(display) did not answer within \(milliseconds) ms"
        }
    }
}

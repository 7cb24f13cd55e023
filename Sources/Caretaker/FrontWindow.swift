/// The window in front, as a display server or compositor reports it: the
/// process that made it, the sandbox it runs in, and (on X11) the windows a
/// stack may have declared for it. What the app calls itself is not here:
/// it is never evidence of which stack is in front.
package struct FrontWindow: Equatable, Sendable {
    /// The window's process as the display server records it; 0 when no
    /// window has focus or its process is unknown.
    package var processID: UInt32
    /// The sandboxed app id the compositor knows for the window (a
    /// Flatpak's), or `""`.
    package var sandboxAppID: String
    /// The window's X11 id and those it is transient for, nearest first
    /// (`[]` elsewhere): what a stack's `windows` may name.
    package var windows: [UInt32]
    /// How a sentence names the window: `xterm (pid 4242)`.
    package var label: String

    /// A window of `processID`, labelled `label`.
    package init(processID: UInt32, sandboxAppID: String = "", windows: [UInt32] = [], label: String) {
        self.processID = processID
        self.sandboxAppID = sandboxAppID
        self.windows = windows
        self.label = label
    }
}

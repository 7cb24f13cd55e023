import Caretaker

/// One desktop's answer to "which window is in front, made by which
/// process": sway's IPC, KWin's or GNOME Shell's reports. `WindowFocus`
/// applies the rule every window strategy shares to it, so adding a desktop
/// means adding a source, never another matcher. (X11's source, the active
/// window tracker, also knows declared windows and dialogs: `X11Focus`.)
protocol FrontWindowSource: AnyObject {
    /// The strategy's name: `sway`, `kwin`, `gnome`.
    var name: String { get }
    /// The window in front as last learned; nil while the source cannot say
    /// (why: `silence`).
    var front: WindowReport? { get }
    /// Why the source says nothing, while `front` is nil.
    var silence: NoFocus { get }
    /// Called when `front` changes.
    var onChange: (() -> Void)? { get set }
    /// Brings `front` up to date (a round trip where the source can ask),
    /// then calls `done`.
    func refresh(then done: @escaping () -> Void)
}

/// A desktop's word on the window in front.
struct WindowReport: Equatable {
    /// The window's process as the desktop knows it; 0: no window has focus.
    var processID: UInt32
    /// The app id the window gave itself: named in sentences, never used to
    /// pick a stack.
    var appID: String
    /// The sandbox's app id where the desktop knows one, else `""`.
    var sandboxAppID: String
}

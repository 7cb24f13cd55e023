import DBus
import Loop
import ProcessEnvironment
import X11

/// Follows the window manager's `_NET_ACTIVE_WINDOW` through PropertyNotify
/// on the root window (never by polling) and learns of each active window
/// what the `x11` strategy matches stacks by: the window, the windows it is
/// `WM_TRANSIENT_FOR` (a dialog's parent, its parent's parent …), and the
/// local process that owns it — as the X server knows it (X-Resource), or
/// else as the window says (`_NET_WM_PID`) when its `WM_CLIENT_MACHINE` is
/// this host. Every answer is read afresh: window ids are reused, and a
/// window's properties may change. Confined to the loop.
final class ActiveWindowTracker {
    /// The active window and what it belongs to.
    struct ActiveWindow: Equatable {
        /// The active window.
        let window: XWindow
        /// The window, then the windows it is transient for, nearest first.
        let family: [XWindow]
        /// The local process that owns the nearest of them that says.
        let processID: UInt32?
    }

    /// The active window as last learned; nil when there is none.
    private(set) var current: ActiveWindow?
    /// Called when `current` changes.
    var onChange: (() -> Void)?

    /// How many windows of a dialog's chain of parents are looked at.
    static let maximumFamily = 4

    private let session: X11Session
    private let hostName = Environment.hostName
    private var requested = 0
    private var applied = 0
    private var following = false
    private var followAgain = false

    /// Starts following the active window of `session`.
    init(session: X11Session) {
        self.session = session
        let root = session.connection.root
        let activeWindow = session.atoms.activeWindow
        session.addListener { [weak self] event in
            guard case .propertyChanged(let window, let atom, _) = event, window == root, atom == activeWindow else { return }
            self?.follow()
        }
        follow()
    }

    /// Follows a change of the property: one refresh at a time, and one
    /// more after it for all the changes that came meanwhile, so that a
    /// client rewriting the property in a loop costs a refresh per answer,
    /// not a refresh per change.
    private func follow() {
        guard !following else {
            followAgain = true
            return
        }
        following = true
        refresh { [weak self] in
            guard let self else { return }
            self.following = false
            if self.followAgain {
                self.followAgain = false
                self.follow()
            }
        }
    }

    /// Reads `_NET_ACTIVE_WINDOW` again and learns about the window it
    /// names; `done` runs once that is known (the X server answers requests
    /// in order, so this is the active window as of this call).
    func refresh(then done: (() -> Void)? = nil) {
        guard session.isLive else {
            current = nil
            done?()
            return
        }
        requested += 1
        let generation = requested
        session.connection.property(session.atoms.activeWindow, of: session.connection.root) { [weak self] value in
            guard let self else { return }
            let finish: (ActiveWindow?) -> Void = { result in
                // An older answer never overwrites a newer one.
                if generation > self.applied {
                    self.applied = generation
                    if result != self.current {
                        self.current = result
                        self.onChange?()
                    }
                }
                done?()
            }
            guard let window = value?.window, window != .none else { return finish(nil) }
            self.resolve(window, then: finish)
        }
    }

    /// Learns `window`'s family and process.
    private func resolve(_ window: XWindow, then done: @escaping (ActiveWindow) -> Void) {
        var family: [XWindow] = []
        var processID: UInt32?
        func step(_ member: XWindow) {
            family.append(member)
            describe(member) { parent, owner in
                if processID == nil { processID = owner }
                if let parent, parent != .none, !family.contains(parent), family.count < Self.maximumFamily {
                    step(parent)
                } else {
                    done(ActiveWindow(window: window, family: family, processID: processID))
                }
            }
        }
        step(window)
    }

    /// Reads what matters of `window` in one round trip: the window it is
    /// transient for, and its local process.
    private func describe(_ window: XWindow, then done: @escaping (_ parent: XWindow?, _ processID: UInt32?) -> Void) {
        var parent: XWindow?
        var verified: UInt32?
        var claimed: UInt32?
        var machine: String?
        let connection = session.connection
        var left = session.hasResourceExtension ? 4 : 3
        let finish = { [hostName] in
            left -= 1
            guard left == 0 else { return }
            done(parent, verified ?? (Self.isLocal(machine, hostName: hostName) ? claimed : nil))
        }
        connection.property(.wmTransientFor, of: window) { parent = $0?.window; finish() }
        connection.property(session.atoms.wmPID, of: window) { claimed = $0?.cardinal; finish() }
        connection.property(.wmClientMachine, of: window) { machine = $0?.text; finish() }
        if session.hasResourceExtension {
            connection.clientProcessID(of: window) { verified = $0; finish() }
        }
    }

    /// Whether a window's `WM_CLIENT_MACHINE` names this host: a process id
    /// from another machine (or from a window that does not say) names no
    /// process here.
    static func isLocal(_ machine: String?, hostName: String) -> Bool {
        guard let machine, !machine.isEmpty, !hostName.isEmpty else { return false }
        if machine == hostName || machine == "localhost" { return true }
        return machine.hasPrefix(hostName + ".") || hostName.hasPrefix(machine + ".")
    }
}

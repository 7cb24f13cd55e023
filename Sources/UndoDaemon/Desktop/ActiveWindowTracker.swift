#if canImport(Glibc)
import Glibc
#endif
import DBus
import X11

/// Follows the window manager's `_NET_ACTIVE_WINDOW` through PropertyNotify
/// on the root window (never by polling) and learns of each active window
/// what the `x11` strategy matches stacks by: the window, the windows it is
/// `WM_TRANSIENT_FOR` (a dialog's parent, its parent's parent …), and the
/// process that owns it (`_NET_WM_PID`, ignored when `WM_CLIENT_MACHINE`
/// names another host). Confined to the loop.
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

    /// How many transient-for links are followed from the active window.
    static let maximumFamily = 4

    private let session: X11Session
    private let hostName: String
    private var requested = 0
    private var applied = 0

    /// Starts following the active window of `session`.
    init(session: X11Session) {
        self.session = session
        var buffer = [CChar](repeating: 0, count: 256)
        hostName = gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        session.addListener { [weak self] event in
            guard let self, case .propertyChanged(let window, let atom, _) = event,
                  window == session.connection.root, atom == session.atoms.activeWindow else { return }
            self.refresh()
        }
        refresh()
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
            if let current = self.current, current.window == window { return finish(current) }
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

    /// Reads the three properties of `window` that matter, in one round trip.
    private func describe(_ window: XWindow, then done: @escaping (_ parent: XWindow?, _ processID: UInt32?) -> Void) {
        var parent: XWindow?
        var processID: UInt32?
        var machine: String?
        var left = 3
        let connection = session.connection
        let finish = { [hostName] in
            left -= 1
            guard left == 0 else { return }
            done(parent, Self.isLocal(machine, hostName: hostName) ? processID : nil)
        }
        connection.property(.wmTransientFor, of: window) { parent = $0?.window; finish() }
        connection.property(session.atoms.wmPID, of: window) { processID = $0?.cardinal; finish() }
        connection.property(.wmClientMachine, of: window) { machine = $0?.text; finish() }
    }

    /// Whether a window's `WM_CLIENT_MACHINE` is this host (or unset): a
    /// process id from another machine names no process here.
    static func isLocal(_ machine: String?, hostName: String) -> Bool {
        guard let machine, !machine.isEmpty, !hostName.isEmpty else { return true }
        if machine == hostName || machine == "localhost" { return true }
        return machine.hasPrefix(hostName + ".") || hostName.hasPrefix(machine + ".")
    }
}

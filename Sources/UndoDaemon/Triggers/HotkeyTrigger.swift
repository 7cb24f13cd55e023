import DBus
import Loop
import Logging
import UndoCore
import X11

/// The global keys on X11 (`hotkey.undo`, `hotkey.redo`): a passive grab on
/// the root window for every Num Lock / Caps Lock variant of each key, so the
/// key reaches undod whatever window has the focus. Key codes are looked up
/// in the server's keyboard mapping (its first group: the layout in use) and
/// grabbed again whenever it changes (MappingNotify); a symbol on a key's
/// shifted level takes Shift. A key another program holds already
/// (BadAccess) is reported in one line, and undod goes on without it.
/// Confined to the loop.
final class HotkeyTrigger {
    /// One key and what it does.
    private struct Binding: Equatable {
        /// Undo or redo.
        let direction: Direction
        /// The key.
        let key: KeyCombination
        /// The config key that named it, for the log.
        let configKey: String
    }

    /// One passive grab: a key code with an exact modifier mask.
    private struct Grab: Hashable {
        /// The key code.
        let keycode: UInt8
        /// The modifiers held, lock variants included.
        let modifiers: UInt16
    }

    /// A binding as grabbed: the key codes and masks that fire it.
    private struct Grabbed {
        /// The binding.
        let binding: Binding
        /// Each key code that fires it, with its mask (locks left out).
        let presses: [UInt8: UInt16]
    }

    private let session: X11Session
    private let log: Log
    private var bindings: [Binding]
    private var bits = ModifierBits()
    /// The bindings grabbed in the last round.
    private var grabbed: [Grabbed] = []
    /// Every grab in force.
    private var grabs: Set<Grab> = []
    private var fire: ((Direction, String) -> Void)?
    private var grabbing = false
    private var grabAgain = false
    /// The binding each grab request of the round in progress is for, by
    /// the request's sequence number.
    private var grabRequests: [UInt32: Binding] = [:]
    /// Bindings of the round in progress that another program holds.
    private var refused: [Binding] = []
    /// The keys last reported in the log, so that a grab renewed unchanged says nothing.
    private var announced = ""
    /// Keys already reported as taken by another program (said once).
    private var reportedTaken: Set<String> = []

    /// The keys `undo` and `redo` (nil: none) on `session`.
    init(session: X11Session, undo: KeyCombination?, redo: KeyCombination?, log: Log) {
        self.session = session
        self.log = log
        bindings = Self.bindings(undo: undo, redo: redo)
        session.addListener { [weak self] event in self?.handle(event) }
    }

    private static func bindings(undo: KeyCombination?, redo: KeyCombination?) -> [Binding] {
        [undo.map { Binding(direction: .undo, key: $0, configKey: "hotkey.undo") },
         redo.map { Binding(direction: .redo, key: $0, configKey: "hotkey.redo") }].compactMap { $0 }
    }

    /// Grabs the keys; each press calls `fire`.
    func start(fire: @escaping (Direction, String) -> Void) {
        self.fire = fire
        grab()
    }

    /// New keys from a reloaded config: grabs no key needs are released.
    func rebind(undo: KeyCombination?, redo: KeyCombination?) {
        let next = Self.bindings(undo: undo, redo: redo)
        guard next != bindings else { return }
        bindings = next
        grab()
    }

    private func handle(_ event: X11Event) {
        switch event {
        case .keyPressed(let keycode, let state):
            let pressed = bits.significant(state)
            guard let match = grabbed.first(where: { $0.presses[keycode] == pressed }) else { return }
            fire?(match.binding.direction, "the key \(match.binding.key)")
        case .mappingChanged:
            log.debug("the keyboard mapping changed: grabbing the global keys again.")
            grab()
        case .error(let error):
            guard let binding = grabRequests[error.sequence], error.code == X11RequestError.badAccess,
                  !refused.contains(binding) else { return }
            refused.append(binding)
        default:
            break
        }
    }

    /// Reads the keyboard and modifier mappings, grabs each key's codes
    /// with its modifiers and every lock variant, and releases grabs no key
    /// needs any more. Grabs that stay the same are left in place, so a
    /// mapping change elsewhere on the keyboard never drops a key press.
    private func grab() {
        guard session.isLive else { return }
        guard !grabbing else {
            grabAgain = true
            return
        }
        grabbing = true
        let connection = session.connection
        connection.keyboardMapping { [weak self] mapping in
            connection.modifierMapping { modifiers in
                guard let self else { return }
                guard let mapping, let modifiers else {
                    self.log.warning(.x11NoKeyboard, "the X server did not describe its keyboard: the global keys are not grabbed.")
                    return self.finishRound()
                }
                self.bits = ModifierBits(modifiers: modifiers, mapping: mapping)
                self.grabAll(with: mapping)
            }
        }
    }

    private func grabAll(with mapping: KeyboardMapping) {
        let connection = session.connection
        let round = bindings
        grabRequests.removeAll()
        refused.removeAll()
        var wanted: [Grabbed] = []
        var needed: [Grab: Binding] = [:]
        for binding in round {
            let placements = mapping.placements(of: binding.key.symbol)
            guard !placements.isEmpty else {
                log.warning(.x11NoSuchKey, "\(binding.configKey) = \(binding.key): this keyboard has no key \(binding.key.keyName), "
                    + "so it is not grabbed; choose another key in undod.conf.")
                continue
            }
            var presses: [UInt8: UInt16] = [:]
            for placement in placements {
                let mask = binding.key.mask(bits) | (placement.shifted ? ModifierBits.shift : 0)
                presses[placement.keycode] = mask
                for lock in bits.lockVariants { needed[Grab(keycode: placement.keycode, modifiers: mask | lock)] = binding }
            }
            wanted.append(Grabbed(binding: binding, presses: presses))
        }
        for grab in grabs where needed[grab] == nil {
            connection.ungrabKey(grab.keycode, modifiers: grab.modifiers, on: connection.root)
        }
        for (grab, binding) in needed.sorted(by: { ($0.key.keycode, $0.key.modifiers) < ($1.key.keycode, $1.key.modifiers) })
        where !grabs.contains(grab) {
            if let sequence = connection.grabKey(grab.keycode, modifiers: grab.modifiers, on: connection.root) {
                grabRequests[sequence] = binding
            }
        }
        grabs = Set(needed.keys)
        // After one round trip every refusal has arrived.
        connection.sync { [weak self] in self?.concludeRound(wanted) }
    }

    /// Keeps the bindings nobody refused, releases the others and says so
    /// once, and logs what is grabbed.
    private func concludeRound(_ wanted: [Grabbed]) {
        var kept: [Grabbed] = []
        for entry in wanted {
            guard refused.contains(entry.binding) else {
                kept.append(entry)
                continue
            }
            release(entry)
            guard reportedTaken.insert(entry.binding.key.description).inserted else { continue }
            log.warning(.x11KeyTaken, "\(entry.binding.key) (\(entry.binding.configKey)) is already taken by another program on "
                + "\(session.displayName), so undod cannot use it: free it there, or choose another key in undod.conf.")
        }
        grabbed = kept
        let summary = kept.map { "\($0.binding.key) (\($0.binding.direction == .undo ? "undo" : "redo"))" }
            .joined(separator: ", ")
        if summary != announced, !summary.isEmpty {
            log.notice(.x11KeysGrabbed, "the global keys on \(session.displayName): \(summary).")
        }
        announced = summary
        log.debug(.x11KeyCodes, "grabbed the global keys: " + kept.map { entry in
            let codes = entry.presses.keys.sorted().map(String.init).joined(separator: ", ")
            return "\(entry.binding.key) on key code\(entry.presses.count == 1 ? "" : "s") \(codes)"
        }.joined(separator: "; ") + ".")
        grabRequests.removeAll()
        finishRound()
    }

    /// Releases every grab of `entry` (another program holds the key).
    private func release(_ entry: Grabbed) {
        let connection = session.connection
        for (keycode, mask) in entry.presses {
            for lock in bits.lockVariants {
                let grab = Grab(keycode: keycode, modifiers: mask | lock)
                if grabs.remove(grab) != nil {
                    connection.ungrabKey(keycode, modifiers: grab.modifiers, on: connection.root)
                }
            }
        }
    }

    private func finishRound() {
        grabbing = false
        if grabAgain {
            grabAgain = false
            grab()
        }
    }
}

import DBus
import UndoCore
import X11

/// The global keys on X11 (`hotkey.undo`, `hotkey.redo`): a passive grab on
/// the root window for every Num Lock / Caps Lock variant of each key, so the
/// key reaches undod whatever window has the focus. Key codes are looked up
/// in the server's keyboard mapping and grabbed again whenever it changes
/// (MappingNotify). A key another program holds already (BadAccess) is
/// reported in one line, and undod goes on without it. Confined to the loop.
final class HotkeyTrigger: TriggerSource {
    /// One key and what it does.
    private struct Binding {
        let direction: Direction
        let key: KeyCombination
        let configKey: String
    }

    /// One grab in force: what to release before grabbing again.
    private struct Grab: Hashable {
        let keycode: UInt8
        let modifiers: UInt16
    }

    private let session: X11Session
    private let log: Log
    private var bindings: [Binding]
    private var bits = ModifierBits()
    /// Key code and modifier mask of each binding, as last grabbed.
    private var active: [(binding: Binding, keycodes: Set<UInt8>, mask: UInt16)] = []
    private var grabs: Set<Grab> = []
    private var fire: ((Direction, String) -> Void)?
    private var grabbing = false
    private var grabAgain = false
    /// Sequence numbers of the grab requests of the round in progress.
    private var requests: [UInt32: Int] = [:]
    private var refused: Set<Int> = []
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
    func start(on loop: EventLoop, fire: @escaping (Direction, String) -> Void) {
        self.fire = fire
        grab()
    }

    /// New keys from a reloaded config: the old grabs are released first.
    func rebind(undo: KeyCombination?, redo: KeyCombination?) {
        let next = Self.bindings(undo: undo, redo: redo)
        guard next.map(\.key) != bindings.map(\.key) else { return }
        bindings = next
        grab()
    }

    private func handle(_ event: X11Event) {
        switch event {
        case .keyPressed(let keycode, let state):
            let pressed = bits.significant(state)
            guard let match = active.first(where: { $0.keycodes.contains(keycode) && $0.mask == pressed }) else { return }
            fire?(match.binding.direction, "the key \(match.binding.key)")
        case .mappingChanged:
            log.debug("the keyboard mapping changed: grabbing the global keys again.")
            grab()
        case .error(let error):
            guard let index = requests[error.sequence] else { return }
            if error.code == X11RequestError.badAccess { refused.insert(index) }
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
                    self.log.warning("the X server did not describe its keyboard: the global keys are not grabbed.")
                    return self.finishRound()
                }
                self.bits = ModifierBits(modifiers: modifiers, mapping: mapping)
                self.grabAll(with: mapping)
            }
        }
    }

    private func grabAll(with mapping: KeyboardMapping) {
        let connection = session.connection
        requests.removeAll()
        refused.removeAll()
        var wanted: [(binding: Binding, keycodes: Set<UInt8>, mask: UInt16)] = []
        var needed: [Grab: Int] = [:]
        for (index, binding) in bindings.enumerated() {
            let keycodes = Set(mapping.keycodes(for: binding.key.symbol))
            guard !keycodes.isEmpty else {
                log.warning("\(binding.configKey) = \(binding.key): this keyboard has no key \(binding.key.keyName), "
                    + "so it is not grabbed; choose another key in undod.conf.")
                continue
            }
            let mask = binding.key.mask(bits)
            wanted.append((binding, keycodes, mask))
            for keycode in keycodes {
                for lock in bits.lockVariants { needed[Grab(keycode: keycode, modifiers: mask | lock)] = index }
            }
        }
        for grab in grabs where needed[grab] == nil {
            connection.ungrabKey(grab.keycode, modifiers: grab.modifiers, on: connection.root)
        }
        for (grab, index) in needed.sorted(by: { ($0.key.keycode, $0.key.modifiers) < ($1.key.keycode, $1.key.modifiers) })
        where !grabs.contains(grab) {
            requests[connection.grabKey(grab.keycode, modifiers: grab.modifiers, on: connection.root)] = index
        }
        grabs = Set(needed.keys)
        // After one round trip every refusal has arrived.
        connection.sync { [weak self] in
            guard let self else { return }
            var kept: [(binding: Binding, keycodes: Set<UInt8>, mask: UInt16)] = []
            for (index, entry) in wanted.enumerated() {
                let bindingIndex = self.bindings.firstIndex { $0.key == entry.binding.key && $0.direction == entry.binding.direction }
                if let bindingIndex, self.refused.contains(bindingIndex) {
                    self.release(entry.keycodes, mask: entry.mask)
                    guard self.reportedTaken.insert(entry.binding.key.description).inserted else { continue }
                    self.log.warning("\(entry.binding.key) (\(entry.binding.configKey)) is already taken by another "
                        + "program on \(self.session.displayName), so undod cannot use it: free it there, or choose "
                        + "another key in undod.conf.")
                } else {
                    kept.append(wanted[index])
                }
            }
            self.active = kept
            let summary = kept.map { "\($0.binding.key) (\($0.binding.direction == .undo ? "undo" : "redo"))" }
                .joined(separator: ", ")
            if summary != self.announced, !summary.isEmpty {
                self.log.notice("the global keys on \(self.session.displayName): \(summary).")
            }
            self.announced = summary
            self.log.debug("grabbed the global keys: " + kept.map { entry in
                "\(entry.binding.key) on key code\(entry.keycodes.count == 1 ? "" : "s") "
                    + entry.keycodes.sorted().map(String.init).joined(separator: ", ")
            }.joined(separator: "; ") + ".")
            self.requests.removeAll()
            self.finishRound()
        }
    }

    private func release(_ keycodes: Set<UInt8>, mask: UInt16) {
        let connection = session.connection
        for keycode in keycodes {
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

internal import CXCB
internal import CXCBShim
#if canImport(Glibc)
import Glibc
#endif

/// The requests undod makes of the X server, each answered on the loop
/// (see `request`): atoms, properties, windows, the key grabs and maps.
extension X11Connection {
    /// Interns `names` (creating atoms the server lacks); the handler gets
    /// every name's atom, or nil when the server refused or did not answer.
    public func internAtoms(_ names: [String], then handler: @escaping ([String: XAtom]?) -> Void) {
        var atoms: [String: XAtom] = [:]
        var failed = false
        var left = names.count
        guard left > 0 else { return handler([:]) }
        for name in names {
            request({ name.withCString { xcb_intern_atom(raw, 0, UInt16(strlen($0)), $0).sequence } }) { reply in
                if let body = reply.body {
                    atoms[name] = XAtom(body.assumingMemoryBound(to: xcb_intern_atom_reply_t.self).pointee.atom)
                } else {
                    failed = true
                }
                left -= 1
                if left == 0 { handler(failed ? nil : atoms) }
            }
        }
    }

    /// Reads `property` of `window` (up to `maximumBytes`); the handler gets
    /// nil when the window does not exist or the property is not set.
    public func property(_ property: XAtom, of window: XWindow, maximumBytes: Int = 4_096,
                         then handler: @escaping (X11Property?) -> Void) {
        let words = UInt32(max(1, (maximumBytes + 3) / 4))
        request({ xcb_get_property(raw, 0, window.id, property.id, 0 /* AnyPropertyType */, 0, words).sequence }) {
            reply in
            guard let body = reply.body else { return handler(nil) }
            let typed = body.assumingMemoryBound(to: xcb_get_property_reply_t.self)
            guard typed.pointee.type != 0 else { return handler(nil) }
            let length = Int(xcb_get_property_value_length(typed))
            var bytes: [UInt8] = []
            if length > 0, let value = xcb_get_property_value(typed) {
                bytes = Array(UnsafeRawBufferPointer(start: value, count: length))
            }
            handler(X11Property(type: XAtom(typed.pointee.type), format: typed.pointee.format, bytes: bytes))
        }
    }

    /// Whether `window` exists (a `GetWindowAttributes` that succeeds).
    public func windowExists(_ window: XWindow, then handler: @escaping (Bool) -> Void) {
        request({ xcb_get_window_attributes(raw, window.id).sequence }) { reply in handler(reply.body != nil) }
    }

    /// Whether the server has the extension `name`.
    public func hasExtension(_ name: String, then handler: @escaping (Bool) -> Void) {
        request({ name.withCString { xcb_query_extension(raw, UInt16(strlen($0)), $0).sequence } }) { reply in
            handler(reply.body?.assumingMemoryBound(to: xcb_query_extension_reply_t.self).pointee.present == 1)
        }
    }

    /// Asks libxcb to learn the X-Resource extension's opcode now, so that
    /// `clientProcessID` never waits for it later.
    public func prefetchResourceExtension() {
        guard !closed else { return }
        cxcb_prefetch_resource_extension(raw)
        flush()
    }

    /// The process of the local client that created `window`, as the X
    /// server knows it from the socket (X-Resource's `LocalClientPID`);
    /// nil for a remote client, or when the server has no X-Resource (ask
    /// `hasExtension("X-Resource")` first).
    public func clientProcessID(of window: XWindow, then handler: @escaping (UInt32?) -> Void) {
        let localClientPID = UInt32(XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID.rawValue)
        var spec = xcb_res_client_id_spec_t(client: window.id, mask: localClientPID)
        request({ xcb_res_query_client_ids(raw, 1, &spec).sequence }) { reply in
            guard let body = reply.body else { return handler(nil) }
            let typed = body.assumingMemoryBound(to: xcb_res_query_client_ids_reply_t.self)
            var ids = xcb_res_query_client_ids_ids_iterator(typed)
            var found: UInt32?
            while ids.rem > 0, let item = ids.data {
                if item.pointee.spec.mask & localClientPID != 0, item.pointee.length >= 4,
                   let value = xcb_res_client_id_value_value(item) {
                    found = value.pointee
                }
                xcb_res_client_id_value_next(&ids)
            }
            handler(found)
        }
    }

    /// Asks for `events` on `window` (replacing what this client asked
    /// before); returns false when nothing was sent (the server is stalled).
    @discardableResult
    public func selectEvents(_ events: X11EventMask, on window: XWindow) -> Bool {
        guard !closed, !isStalled else { return false }
        var values: [UInt32] = [events.rawValue]
        _ = xcb_change_window_attributes(raw, window.id, UInt32(XCB_CW_EVENT_MASK.rawValue), &values)
        flush()
        return true
    }

    /// Grabs `keycode` with exactly `modifiers` on `window`, both devices
    /// left running (asynchronous mode). Returns the request's sequence
    /// number — a refusal comes back as an `.error` event carrying it — or
    /// nil when nothing was sent (the server is stalled).
    public func grabKey(_ keycode: UInt8, modifiers: UInt16, on window: XWindow) -> UInt32? {
        guard !closed, !isStalled else { return nil }
        let mode = UInt8(XCB_GRAB_MODE_ASYNC.rawValue)
        let cookie = xcb_grab_key(raw, 1, window.id, modifiers, keycode, mode, mode)
        flush()
        return cookie.sequence
    }

    /// Releases a grab made by `grabKey`.
    public func ungrabKey(_ keycode: UInt8, modifiers: UInt16, on window: XWindow) {
        guard !closed, !isStalled else { return }
        _ = xcb_ungrab_key(raw, keycode, window.id, modifiers)
        flush()
    }

    /// Reads the keyboard mapping: which key symbols each key code carries.
    public func keyboardMapping(then handler: @escaping (KeyboardMapping?) -> Void) {
        let first = keycodes.lowerBound
        let count = UInt8(clamping: Int(keycodes.upperBound) - Int(first) + 1)
        request({ xcb_get_keyboard_mapping(raw, first, count).sequence }) { reply in
            guard let body = reply.body else { return handler(nil) }
            let typed = body.assumingMemoryBound(to: xcb_get_keyboard_mapping_reply_t.self)
            let length = Int(xcb_get_keyboard_mapping_keysyms_length(typed))
            var symbols: [UInt32] = []
            if length > 0, let start = xcb_get_keyboard_mapping_keysyms(typed) {
                symbols = Array(UnsafeBufferPointer(start: start, count: length))
            }
            handler(KeyboardMapping(firstKeycode: first, symbolsPerKeycode: Int(typed.pointee.keysyms_per_keycode),
                                    symbols: symbols))
        }
    }

    /// Reads the modifier mapping: the key codes of each of the eight
    /// modifiers (Shift, Lock, Control, Mod1 … Mod5).
    public func modifierMapping(then handler: @escaping ([[UInt8]]?) -> Void) {
        request({ xcb_get_modifier_mapping(raw).sequence }) { reply in
            guard let body = reply.body else { return handler(nil) }
            let typed = body.assumingMemoryBound(to: xcb_get_modifier_mapping_reply_t.self)
            let perModifier = Int(typed.pointee.keycodes_per_modifier)
            let length = Int(xcb_get_modifier_mapping_keycodes_length(typed))
            guard perModifier > 0, length >= perModifier * 8, let start = xcb_get_modifier_mapping_keycodes(typed) else {
                return handler(Array(repeating: [], count: 8))
            }
            let all = Array(UnsafeBufferPointer(start: start, count: length))
            handler((0..<8).map { modifier in
                all[(modifier * perModifier)..<((modifier + 1) * perModifier)].filter { $0 != 0 }
            })
        }
    }

    /// Calls `handler` once the server has handled every request made so
    /// far (one round trip): by then the errors of earlier requests, if any,
    /// have been delivered as events.
    public func sync(then handler: @escaping () -> Void) {
        request({ xcb_get_input_focus(raw).sequence }) { _ in handler() }
    }
}

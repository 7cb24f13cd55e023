internal import CXCB

/// What the X server tells a client, reduced to what undod listens for.
public enum X11Event: Sendable, Equatable {
    /// A property of `window` changed (or was deleted).
    case propertyChanged(window: XWindow, atom: XAtom, deleted: Bool)
    /// A window was destroyed (for windows whose structure events were asked for).
    case destroyed(window: XWindow)
    /// A key was pressed: its key code and the modifier state before it.
    case keyPressed(keycode: UInt8, state: UInt16)
    /// The keyboard or modifier mapping changed: key codes must be looked
    /// up again (grabs made by key code may now hold the wrong key).
    case mappingChanged
    /// A request without a reply handler failed.
    case error(X11RequestError)

    /// Decodes a raw event as libxcb delivers it; nil for kinds nobody
    /// here listens for.
    init?(raw: UnsafeRawPointer) {
        let kind = raw.load(as: UInt8.self) & 0x7F
        switch kind {
        case 0:
            self = .error(X11RequestError(raw: raw))
        case UInt8(XCB_KEY_PRESS):
            let event = raw.load(as: xcb_key_press_event_t.self)
            self = .keyPressed(keycode: event.detail, state: event.state)
        case UInt8(XCB_DESTROY_NOTIFY):
            let event = raw.load(as: xcb_destroy_notify_event_t.self)
            self = .destroyed(window: XWindow(event.window))
        case UInt8(XCB_PROPERTY_NOTIFY):
            let event = raw.load(as: xcb_property_notify_event_t.self)
            self = .propertyChanged(window: XWindow(event.window), atom: XAtom(event.atom),
                                    deleted: event.state == UInt8(XCB_PROPERTY_DELETE.rawValue))
        case UInt8(XCB_MAPPING_NOTIFY):
            let event = raw.load(as: xcb_mapping_notify_event_t.self)
            // Pointer mapping changes (request 2) do not move keys.
            guard event.request != UInt8(XCB_MAPPING_POINTER.rawValue) else { return nil }
            self = .mappingChanged
        default:
            return nil
        }
    }
}

#!/usr/bin/python3
"""A scripted stand-in for xdg-desktop-portal's GlobalShortcuts portal.

Debian 12 ships no portal with org.freedesktop.portal.GlobalShortcuts, so
undod's Wayland hotkey path is tested against this process on a private bus.

It follows version 1 of org.freedesktop.portal.GlobalShortcuts as published
in flatpak/xdg-desktop-portal, data/org.freedesktop.portal.GlobalShortcuts.xml
("This documentation describes version 1 of this interface": CreateSession,
BindShortcuts, ListShortcuts; signals Activated, Deactivated,
ShortcutsChanged; property version = 1), together with
org.freedesktop.portal.Request (Close; signal Response(u, a{sv})) and
org.freedesktop.portal.Session (Close; signal Closed(a{sv}); property
version). ConfigureShortcuts, added in version 2 (xdg-desktop-portal 1.19+
reports version 2), is not implemented, and `version` says 1. As the portal
itself does (src/global-shortcuts.c), the CreateSession result
"session_handle" is sent as a string (s), not an object path (the XML notes
this as a historical mistake kept for compatibility), and Request.Response,
Session.Closed, Activated, Deactivated and ShortcutsChanged are unicast
signals whose destination is the unique name that created the request or
session (python-dbus's low-level SignalMessage.set_destination does this).

Usage: /usr/bin/python3 scripted_portal.py --bus ADDRESS [--refuse]

Owns org.freedesktop.portal.Desktop; object /org/freedesktop/portal/desktop.
Request objects: /org/freedesktop/portal/desktop/request/SENDER/TOKEN,
session objects: /org/freedesktop/portal/desktop/session/SENDER/TOKEN
(SENDER: the caller's unique name without ':' and with '.' -> '_'; TOKEN:
options "handle_token" / "session_handle_token", else "t<N>" / "s<N>").
Each method replies with the request path at once; Response follows from an
idle callback (after the reply), and the request object is then unexported.
With --refuse every Response is (1, {}) and no session is created.

Errors, as the portal gives them: a method called with the wrong signature
-> org.freedesktop.DBus.Error.InvalidArgs; a known option or shortcut key of
the wrong type, a token that is not an object-path element, or an empty
shortcut id -> org.freedesktop.portal.Error.InvalidArgument; a session that
does not exist or is not the caller's -> org.freedesktop.DBus.Error.AccessDenied.

stdout (JSON lines, each flushed):
  {"event":"ready"}                                  once the name is owned
  {"event":"session","session":PATH,"sender":":1.5"}  after CreateSession
  {"event":"bound","session":PATH,"sender":S,
   "shortcuts":[{"id":"undo","description":"...","preferred_trigger":"..."|null},...]}
  {"event":"listed","session":PATH}                   after ListShortcuts
  {"event":"refused","method":"CreateSession","sender":S}   (--refuse)
  {"event":"session_closed","session":PATH,"reason":"client-close"|"client-vanished"|"portal"}
  {"event":"request_closed","request":PATH}           Request.Close before Response
stdin (JSON lines), each answered by one line:
  {"cmd":"activate","id":"undo","session":PATH?}  -> Activated(session, id, t, {}) then
        Deactivated(session, id, t', {}) to the session's owner; t in ms of
        CLOCK_MONOTONIC; session defaults to the newest open one
        -> {"event":"activated","id":"undo","session":PATH}
  {"cmd":"shortcuts_changed","session":PATH?}  -> ShortcutsChanged(session, bound list)
        -> {"event":"shortcuts_changed","session":PATH}
  {"cmd":"close_session","session":PATH?}  -> the portal closes it: Closed({})
        -> {"event":"session_closed","session":PATH,"reason":"portal"}
  {"cmd":"refuse","on":true|false}  -> {"event":"refuse","on":B}
  {"cmd":"quit"}  -> {"event":"bye"}, exit 0 (EOF on stdin also exits 0)
  failures: {"event":"error","cmd":CMD,"message":TEXT}
"""
import argparse
import itertools
import json
import os
import re
import sys
import time

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib
from json_lines import emit

BUS_NAME = "org.freedesktop.portal.Desktop"
DESKTOP_PATH = "/org/freedesktop/portal/desktop"
GS_IFACE = "org.freedesktop.portal.GlobalShortcuts"
REQUEST_IFACE = "org.freedesktop.portal.Request"
SESSION_IFACE = "org.freedesktop.portal.Session"
PROPS_IFACE = "org.freedesktop.DBus.Properties"
INTERFACE_VERSION = 1
SESSION_VERSION = 1
TOKEN_RE = re.compile(r"^[A-Za-z0-9_]+$")

state = {
    "bus": None, "refuse": False, "sessions": {}, "order": [],
    "counter": itertools.count(1), "requests": {},
}


class PortalError(dbus.exceptions.DBusException):
    def __init__(self, name, message):
        super().__init__(message, name=name)


def invalid_argument(message):
    return PortalError("org.freedesktop.portal.Error.InvalidArgument", message)


def check_signature(message, expected):
    got = message.get_signature() or ""
    if got != expected:
        raise PortalError("org.freedesktop.DBus.Error.InvalidArgs",
                          "Type of message, '(%s)', does not match expected type '(%s)'" % (got, expected))


def send_signal(destination, path, interface, member, signature, *args):
    """Emits a signal addressed to one connection (destination set)."""
    message = dbus.lowlevel.SignalMessage(path, interface, member)
    message.set_destination(destination)
    message.append(*args, signature=signature)
    state["bus"].send_message(message)


def sender_element(sender):
    return sender[1:].replace(".", "_") if sender.startswith(":") else sender.replace(".", "_")


def token_from(options, key, prefix):
    if key in options:
        value = options[key]
        if not isinstance(value, dbus.String):
            raise invalid_argument("Expected type 's' for option '%s', got '%s'"
                                   % (key, getattr(value, "signature", type(value).__name__)))
        if not TOKEN_RE.match(str(value)):
            raise invalid_argument("Invalid token '%s'" % value)
        return str(value)
    return "%s%d" % (prefix, next(state["counter"]))


def empty_vardict():
    return dbus.Dictionary({}, signature="sv")


def shortcut_array(shortcuts, variant_level=0):
    return dbus.Array(
        [dbus.Struct((dbus.String(s["id"]), dbus.Dictionary({
            "description": dbus.String(s["description"], variant_level=1),
            "trigger_description": dbus.String(s["trigger_description"], variant_level=1),
        }, signature="sv")), signature="sa{sv}") for s in shortcuts],
        signature="(sa{sv})", variant_level=variant_level)


class WithProperties(dbus.service.Object):
    """org.freedesktop.DBus.Properties for read-only u properties, listed in Introspect."""

    properties = {}

    @dbus.service.method(PROPS_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        values = self.properties.get(str(interface), {})
        if str(name) not in values:
            raise PortalError("org.freedesktop.DBus.Error.InvalidArgs",
                              "No such property '%s' on interface '%s'" % (name, interface))
        return dbus.UInt32(values[str(name)], variant_level=1)

    @dbus.service.method(PROPS_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return dbus.Dictionary({k: dbus.UInt32(v, variant_level=1)
                                for k, v in self.properties.get(str(interface), {}).items()},
                               signature="sv")

    @dbus.service.method(PROPS_IFACE, in_signature="ssv", out_signature="")
    def Set(self, interface, name, value):
        raise PortalError("org.freedesktop.DBus.Error.PropertyReadOnly",
                          "Property '%s' is read-only" % name)

    @dbus.service.method(dbus.service.INTROSPECTABLE_IFACE, in_signature="", out_signature="s",
                         path_keyword="object_path", connection_keyword="connection")
    def Introspect(self, object_path, connection):
        xml = dbus.service.Object.Introspect(self, object_path, connection)
        for interface, values in self.properties.items():
            tag = '<interface name="%s">' % interface
            props = "".join('\n    <property name="%s" type="u" access="read"/>' % name
                            for name in values)
            xml = xml.replace(tag, tag + props, 1)
        return xml


class Request(dbus.service.Object):
    def __init__(self, bus, path, sender):
        super().__init__(bus, path)
        self.path = path
        self.sender = sender
        self.done = False
        state["requests"][path] = self

    def respond(self, response, results):
        if self.done:
            return False
        self.done = True
        send_signal(self.sender, self.path, REQUEST_IFACE, "Response", "ua{sv}",
                    dbus.UInt32(response), results)
        self.unexport()
        return False

    def unexport(self):
        state["requests"].pop(self.path, None)
        try:
            self.remove_from_connection()
        except LookupError:
            pass

    @dbus.service.method(REQUEST_IFACE, in_signature="", out_signature="", sender_keyword="sender")
    def Close(self, sender):
        if sender != self.sender:
            raise PortalError("org.freedesktop.DBus.Error.AccessDenied", "Not the request's owner")
        if not self.done:
            self.done = True
            self.unexport()
            emit({"event": "request_closed", "request": self.path})

    @dbus.service.signal(REQUEST_IFACE, signature="ua{sv}")
    def Response(self, response, results):  # introspection only: sent with send_signal
        pass


def make_request(options, sender):
    token = token_from(options, "handle_token", "t")
    path = "%s/request/%s/%s" % (DESKTOP_PATH, sender_element(sender), token)
    if path in state["requests"]:
        raise PortalError("org.freedesktop.DBus.Error.Failed", "A request %s is pending" % path)
    return Request(state["bus"], path, sender)


def refused(method, options, sender):
    """What a portal told to refuse answers to METHOD: a request whose
    Response is (1, {})."""
    request = make_request(options, sender)
    emit({"event": "refused", "method": method, "sender": sender})
    GLib.idle_add(request.respond, 1, empty_vardict())
    return dbus.ObjectPath(request.path)


class Session(WithProperties):
    properties = {SESSION_IFACE: {"version": SESSION_VERSION}}

    def __init__(self, bus, path, sender):
        super().__init__(bus, path)
        self.path = path
        self.sender = sender
        self.shortcuts = []
        self.closed = False
        state["sessions"][path] = self
        state["order"].append(path)
        self.watch = bus.watch_name_owner(sender, self.owner_changed)

    def owner_changed(self, owner):
        if not owner and not self.closed:
            self.close("client-vanished", notify=False)

    def close(self, reason, notify):
        if self.closed:
            return
        self.closed = True
        if notify:
            send_signal(self.sender, self.path, SESSION_IFACE, "Closed", "a{sv}", empty_vardict())
        state["sessions"].pop(self.path, None)
        if self.path in state["order"]:
            state["order"].remove(self.path)
        try:
            self.watch.cancel()
        except Exception:
            pass
        try:
            self.remove_from_connection()
        except LookupError:
            pass
        emit({"event": "session_closed", "session": self.path, "reason": reason})

    @dbus.service.method(SESSION_IFACE, in_signature="", out_signature="", sender_keyword="sender")
    def Close(self, sender):
        if sender != self.sender:
            raise PortalError("org.freedesktop.DBus.Error.AccessDenied", "Not the session's owner")
        # The real portal closes silently when the client asks; as briefed,
        # this stand-in emits Closed anyway, after the reply.
        GLib.idle_add(lambda: self.close("client-close", notify=True) and False)

    @dbus.service.signal(SESSION_IFACE, signature="a{sv}")
    def Closed(self, details):  # introspection only
        pass


def session_for(handle, sender):
    session = state["sessions"].get(str(handle))
    if session is None or session.sender != sender or session.closed:
        raise PortalError("org.freedesktop.DBus.Error.AccessDenied", "Invalid session")
    return session


class GlobalShortcuts(WithProperties):
    properties = {GS_IFACE: {"version": INTERFACE_VERSION}}

    @dbus.service.method(GS_IFACE, in_signature="a{sv}", out_signature="o",
                         sender_keyword="sender", message_keyword="message")
    def CreateSession(self, options, sender, message):
        check_signature(message, "a{sv}")
        sender = str(sender)
        session_token = token_from(options, "session_handle_token", "s")
        request = make_request(options, sender)
        session_path = "%s/session/%s/%s" % (DESKTOP_PATH, sender_element(sender), session_token)
        if state["refuse"]:
            emit({"event": "refused", "method": "CreateSession", "sender": sender})
            GLib.idle_add(request.respond, 1, empty_vardict())
            return dbus.ObjectPath(request.path)
        if session_path in state["sessions"]:
            request.unexport()
            raise PortalError("org.freedesktop.DBus.Error.Failed",
                              "Session %s already exists" % session_path)
        Session(state["bus"], session_path, sender)
        emit({"event": "session", "session": session_path, "sender": sender})
        results = dbus.Dictionary({"session_handle": dbus.String(session_path, variant_level=1)},
                                  signature="sv")
        GLib.idle_add(request.respond, 0, results)
        return dbus.ObjectPath(request.path)

    @dbus.service.method(GS_IFACE, in_signature="oa(sa{sv})sa{sv}", out_signature="o",
                         sender_keyword="sender", message_keyword="message")
    def BindShortcuts(self, session_handle, shortcuts, parent_window, options, sender, message):
        check_signature(message, "oa(sa{sv})sa{sv}")
        sender = str(sender)
        bound = []
        for shortcut_id, values in shortcuts:
            if not shortcut_id:
                raise invalid_argument("Unexpected empty shortcut id")
            entry = {"id": str(shortcut_id)}
            for key in ("description", "preferred_trigger"):
                if key in values and not isinstance(values[key], dbus.String):
                    raise invalid_argument("Expected type 's' for option '%s'" % key)
                entry[key] = str(values[key]) if key in values else None
            bound.append(entry)
        if state["refuse"]:
            return refused("BindShortcuts", options, sender)
        session = session_for(session_handle, sender)
        request = make_request(options, sender)
        session.shortcuts = [{
            "id": s["id"], "description": s["description"] or "",
            # made from preferred_trigger, as a portal shows the key it bound
            "trigger_description": s["preferred_trigger"] or "",
        } for s in bound]
        emit({"event": "bound", "session": session.path, "sender": sender, "shortcuts": bound})
        results = dbus.Dictionary({"shortcuts": shortcut_array(session.shortcuts, 1)},
                                  signature="sv")
        GLib.idle_add(request.respond, 0, results)
        return dbus.ObjectPath(request.path)

    @dbus.service.method(GS_IFACE, in_signature="oa{sv}", out_signature="o",
                         sender_keyword="sender", message_keyword="message")
    def ListShortcuts(self, session_handle, options, sender, message):
        check_signature(message, "oa{sv}")
        sender = str(sender)
        if state["refuse"]:
            return refused("ListShortcuts", options, sender)
        session = session_for(session_handle, sender)
        request = make_request(options, sender)
        emit({"event": "listed", "session": session.path})
        results = dbus.Dictionary({"shortcuts": shortcut_array(session.shortcuts, 1)},
                                  signature="sv")
        GLib.idle_add(request.respond, 0, results)
        return dbus.ObjectPath(request.path)

    # Declared for introspection only; they are sent with send_signal so that
    # they reach the session's owner alone, as the portal's do.
    @dbus.service.signal(GS_IFACE, signature="osta{sv}")
    def Activated(self, session_handle, shortcut_id, timestamp, options):
        pass

    @dbus.service.signal(GS_IFACE, signature="osta{sv}")
    def Deactivated(self, session_handle, shortcut_id, timestamp, options):
        pass

    @dbus.service.signal(GS_IFACE, signature="oa(sa{sv})")
    def ShortcutsChanged(self, session_handle, shortcuts):
        pass


def pick_session(cmd):
    path = cmd.get("session")
    if path is None:
        if not state["order"]:
            raise ValueError("no open session")
        path = state["order"][-1]
    session = state["sessions"].get(path)
    if session is None:
        raise ValueError("no open session %s" % path)
    return session


def now_ms():
    return dbus.UInt64(int(time.monotonic() * 1000))


def handle(cmd, loop):
    name = cmd.get("cmd")
    if name == "activate":
        shortcut_id = str(cmd.get("id", ""))
        session = pick_session(cmd)
        for member in ("Activated", "Deactivated"):
            send_signal(session.sender, DESKTOP_PATH, GS_IFACE, member, "osta{sv}",
                        dbus.ObjectPath(session.path), dbus.String(shortcut_id), now_ms(),
                        empty_vardict())
        emit({"event": "activated", "id": shortcut_id, "session": session.path})
    elif name == "shortcuts_changed":
        session = pick_session(cmd)
        send_signal(session.sender, DESKTOP_PATH, GS_IFACE, "ShortcutsChanged", "oa(sa{sv})",
                    dbus.ObjectPath(session.path), shortcut_array(session.shortcuts))
        emit({"event": "shortcuts_changed", "session": session.path})
    elif name == "close_session":
        pick_session(cmd).close("portal", notify=True)
    elif name == "refuse":
        state["refuse"] = bool(cmd.get("on", True))
        emit({"event": "refuse", "on": state["refuse"]})
    elif name == "quit":
        emit({"event": "bye"})
        loop.quit()
    else:
        raise ValueError("unknown command %r" % (name,))


def main():
    parser = argparse.ArgumentParser(description="scripted GlobalShortcuts portal for tests")
    parser.add_argument("--bus", required=True, help="D-Bus address of the (private) bus")
    parser.add_argument("--refuse", action="store_true",
                        help="answer every request with response 1 (cancelled)")
    args = parser.parse_args()
    state["refuse"] = args.refuse
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(args.bus)
    state["bus"] = bus
    loop = GLib.MainLoop()
    GlobalShortcuts(bus, DESKTOP_PATH)
    reply = bus.request_name(BUS_NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if reply not in (dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER,
                     dbus.bus.REQUEST_NAME_REPLY_ALREADY_OWNER):
        sys.stderr.write("scripted_portal: %s is already owned on this bus\n" % BUS_NAME)
        sys.exit(1)
    emit({"event": "ready"})

    buffer = [b""]

    def run_line(line):
        cmd = None
        try:
            cmd = json.loads(line.decode("utf-8", errors="replace"))
            if not isinstance(cmd, dict):
                raise ValueError("a command is a JSON object")
            handle(cmd, loop)
        except (ValueError, TypeError, dbus.exceptions.DBusException) as error:
            emit({"event": "error", "cmd": cmd.get("cmd") if isinstance(cmd, dict) else None,
                  "message": str(error)})

    def on_stdin(fd, condition):
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            if buffer[0].strip():
                run_line(buffer[0].strip())
            loop.quit()
            return False
        buffer[0] += data
        while b"\n" in buffer[0]:
            line, buffer[0] = buffer[0].split(b"\n", 1)
            if line.strip():
                run_line(line.strip())
        return True

    GLib.io_add_watch(0, GLib.PRIORITY_DEFAULT,
                      GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR, on_stdin)
    loop.run()
    sys.exit(0)


if __name__ == "__main__":
    main()

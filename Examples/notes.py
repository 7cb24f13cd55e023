#!/usr/bin/python3
"""Notes: a small GTK 3 text editor whose undo and redo live in undod.

This is the example to copy when adopting undod. It shows the whole client:
register a stack, export org.undod.Undo1.Client, push one group per edit
(keystrokes coalesce into one "Typing" group), serve Apply for undo and redo
whoever triggers them (Ctrl+Z here, the global key, `undoctl undo`), and keep
working when undod is not running.

  /usr/bin/python3 notes.py [--address BUS_ADDRESS] [--trace] [--app-id ID] [--title TITLE] [--file FILE]

Each window edits one file (--file, by default
$XDG_DATA_HOME/undod-notes/notes.txt), saved as you type; the file's path is
the stack's document, so two windows on two files have two histories (as in
an editor), and a second window on the same file is told so. Restarted on an
unchanged file, Notes finds its history again: the state tag matches.

Needs python3-gi, gir1.2-gtk-3.0 and python3-dbus (Debian). --trace prints
JSON lines on stdout and reads commands on stdin ("print", "quit"); see
trace() and on_stdin().
"""
import argparse
import hashlib
import json
import os
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

try:  # Only present (and only useful) on X11.
    gi.require_version("GdkX11", "3.0")
    from gi.repository import GdkX11
except (ImportError, ValueError):
    GdkX11 = None

NAME = "org.undod.Undo1"                      # the daemon's well-known name
MANAGER_PATH, MANAGER = "/org/undod/Undo1", "org.undod.Undo1.Manager"
STACK = "org.undod.Undo1.Stack"
CLIENT_PATH, CLIENT = "/org/undod/Undo1/Client", "org.undod.Undo1.Client"
PROPERTIES = "org.freedesktop.DBus.Properties"
NOT_RUNNING = ("org.freedesktop.DBus.Error.ServiceUnknown",
               "org.freedesktop.DBus.Error.NameHasNoOwner")
BAD_PAYLOAD = "org.undod.examples.Notes.Error.BadPayload"

TRACE = False


def trace(**event):
    """One JSON line per event, for tests and the curious."""
    if TRACE:
        print(json.dumps(event, ensure_ascii=False, separators=(",", ":")), flush=True)


# Payloads are opaque to undod: only this app reads them. Here each is a small
# UTF-8 JSON document, one edit of the text at a character offset:
#   {"op": "insert", "offset": 5, "text": "ab"}   insert "ab" before character 5
#   {"op": "delete", "offset": 5, "text": "ab"}   delete characters 5..7, which must be "ab"
# Carrying the deleted text lets Apply check that the document still matches.
def payload(op, offset, text):
    edit = {"op": op, "offset": offset, "text": text}
    return json.dumps(edit, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def plan(text, payloads):
    """Checks every payload against (a copy of) the text, in order, before any is
    applied: returns [(op, offset, text)], or raises ValueError saying what is wrong."""
    steps = []
    for raw in payloads:
        try:
            edit = json.loads(bytes(raw).decode("utf-8"))
            op, offset, piece = edit["op"], edit["offset"], edit["text"]
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"payload is not an edit: {error}") from None
        if op not in ("insert", "delete") or type(offset) is not int or not isinstance(piece, str):
            raise ValueError(f"payload is not an edit: {edit!r:.200}")
        if not 0 <= offset <= len(text):
            raise ValueError(f"offset {offset} is outside the text (0..{len(text)})")
        if op == "insert":
            text = text[:offset] + piece + text[offset:]
        elif text[offset:offset + len(piece)] == piece:
            text = text[:offset] + text[offset + len(piece):]
        else:
            raise ValueError(f"the text at offset {offset} is not the text to delete")
        steps.append((op, offset, piece))
    return steps


def state_tag(text):
    """A tag of the document's content. undod discards an adopted history whose
    present state has another tag (see Register), so a history never meets a
    text it does not belong to (say, the edits made while undod was away)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class Client(dbus.service.Object):
    """org.undod.Undo1.Client: undod calls Apply on the owner of a stack."""

    def __init__(self, bus, notes):
        super().__init__(bus, CLIENT_PATH)
        self.notes = notes

    @dbus.service.method(CLIENT, in_signature="otsaay", out_signature="", byte_arrays=True)
    def Apply(self, stack, group, direction, payloads):
        # Raising a DBusException replies with that error; undod then leaves
        # the stack exactly as it was.
        try:
            self.notes.apply(int(group), str(direction), payloads)
        except ValueError as error:
            trace(event="refused", direction=str(direction), group=int(group), error=str(error))
            raise dbus.exceptions.DBusException(f"Notes cannot apply group {int(group)}: {error}",
                                                name=BAD_PAYLOAD)


class Notes:
    def __init__(self, bus, app_id, title, path):
        self.bus, self.app_id, self.title, self.path = bus, app_id, title, path
        self.stack = None          # our stack's object path once registered
        self.registering = False   # a Register call is out
        self.again = False         # undod (re)appeared while it was out
        self.applying = False      # edits are ours (from Apply): do not record
        self.depth = 0             # nesting of GTK "user actions"
        self.edits = []            # (undo, redo) of the user action in progress
        self.outbox = []           # groups waiting for the Register reply
        self.names = {"UndoName": "", "RedoName": ""}
        self.note = ""             # one-off message for the status line

        self.window = Gtk.Window(title=self.title, default_width=560, default_height=380)
        self.window.connect("destroy", Gtk.main_quit)
        self.view = Gtk.TextView(wrap_mode=Gtk.WrapMode.WORD_CHAR, monospace=True)
        self.view.connect("key-press-event", self.on_key)
        self.buffer = self.view.get_buffer()
        self.buffer.set_text(self.load())     # before any handler: loading is no edit
        if self.buffer.find_property("enable-undo"):   # GTK 4 / GtkSourceView
            self.buffer.set_property("enable-undo", False)  # undod is the one undo
        # The default handlers of insert-text and delete-range make the change:
        # connect() runs before them (we see the text to delete), connect_after()
        # after (the change is made, so the state tag can be taken).
        self.buffer.connect("insert-text", self.on_insert)
        self.buffer.connect("delete-range", self.on_delete)
        self.buffer.connect_after("insert-text", self.on_changed)
        self.buffer.connect_after("delete-range", self.on_changed)
        # GTK brackets one user edit (a key, a paste over a selection) in
        # begin/end-user-action: its edits become one undo group.
        self.buffer.connect("begin-user-action", self.on_begin)
        self.buffer.connect("end-user-action", self.on_end)
        self.status = Gtk.Label(xalign=0, margin=4)
        scroller = Gtk.ScrolledWindow(vexpand=True)
        scroller.add(self.view)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        box.pack_start(scroller, True, True, 0)
        box.pack_start(self.status, False, False, 0)
        self.window.add(box)
        self.window.connect("notify::is-active", self.on_active)

        Client(bus, self)
        # Follow undod coming, going and restarting. Subscribe before the first
        # Register so that no appearance is missed.
        bus.add_signal_receiver(self.on_owner_changed, "NameOwnerChanged", "org.freedesktop.DBus",
                                "org.freedesktop.DBus", "/org/freedesktop/DBus", arg0=NAME)
        # undod sends a stack's PropertiesChanged only while some connection has
        # called Manager.Subscribe; we take them when they come, never wait for them.
        bus.add_signal_receiver(self.on_properties, "PropertiesChanged", PROPERTIES, NAME,
                                path_keyword="path")
        self.window.show_all()      # realizes the window: it has an X11 id now
        self.view.grab_focus()
        self.show("Connecting to undod…")
        self.register()

    # -- talking to undod: every call is asynchronous, so the UI never waits ---
    def call(self, path, interface, method, signature, args, reply=None, error=None):
        self.bus.call_async(NAME, path, interface, method, signature, args,
                            reply or (lambda *_: None), error or self.on_error, byte_arrays=True)

    # -- the file: read at start, written after every change ----------------
    def load(self):
        try:
            with open(self.path, encoding="utf-8") as file:
                return file.read()
        except FileNotFoundError:
            return ""

    def save(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        scratch = self.path + ".saving"
        with open(scratch, "w", encoding="utf-8") as file:
            file.write(self.text())
        os.replace(scratch, self.path)   # whole or not at all

    def text(self):
        return self.buffer.get_text(self.buffer.get_start_iter(), self.buffer.get_end_iter(), True)

    def xid(self):
        gdk_window = self.window.get_window()
        if GdkX11 and isinstance(gdk_window, GdkX11.X11Window):
            return gdk_window.get_xid()
        return None

    def register(self):
        if self.registering:
            self.again = True
            return
        self.registering, self.again = True, False
        xid = self.xid()
        options = {"title": self.title, "document": self.path, "state_tag": state_tag(self.text())}
        if xid is not None:   # lets the x11 focus strategy find this window
            options["windows"] = dbus.Array([dbus.UInt64(xid)], signature="t")
        self.call(MANAGER_PATH, MANAGER, "Register", "sa{sv}", (self.app_id, options),
                  lambda path: self.on_registered(path, xid), self.on_register_failed)

    def on_registered(self, path, xid):
        self.registering, self.stack = False, str(path)
        trace(event="registered", path=self.stack, xid=xid)
        self.refresh()
        for group in self.outbox:    # edits made while Register was out
            self.send(*group)
        self.outbox = []

    def on_register_failed(self, error):
        self.registering, self.stack, self.outbox = False, None, []
        if self.again:               # undod appeared meanwhile: try that one
            return self.register()
        if error.get_dbus_name() in NOT_RUNNING:
            self.show("undod is not running: editing works, undo does not")
        elif error.get_dbus_name() == "org.undod.Undo1.Error.AlreadyOwned":
            self.show(f"{os.path.basename(self.path)} is open in another Notes window: "
                      "undo lives there (open another file with --file)")
        else:
            self.show(f"No undo: {error.get_dbus_message()}")
        trace(event="error", call="Register", name=error.get_dbus_name())

    def on_owner_changed(self, name, old, new):
        if new:                      # undod started (or restarted): register
            self.register()          # again; it hands back our detached stack
        else:
            self.stack = None
            self.show("undod stopped: editing works, undo does not")

    def on_active(self, window, _param):
        """Tells undod where the user's focus is, for the `recent` strategy."""
        if not self.stack:
            return
        if window.is_active():                        # a window of ours has the focus
            self.call(self.stack, STACK, "Activate", "", ())
        elif not any(w.is_active() for w in Gtk.Window.list_toplevels()):
            self.call(self.stack, STACK, "Deactivate", "", ())   # the focus left the app

    def refresh(self):
        if self.stack:
            self.call(self.stack, PROPERTIES, "GetAll", "s", (STACK,), self.on_properties_read)

    def on_properties_read(self, props):
        self.names.update({k: str(v) for k, v in props.items() if k in self.names})
        self.show("")

    def on_properties(self, interface, changed, _invalidated, path=None):
        if interface == STACK and path == self.stack:
            self.on_properties_read(changed)

    def on_error(self, error, note=None):
        trace(event="error", name=error.get_dbus_name(), message=error.get_dbus_message())
        self.show(note or error.get_dbus_message())

    def show(self, note=None):
        if note is not None:
            self.note = note
        if self.stack:
            parts = [f"Undo: {self.names['UndoName'] or '(nothing)'}",
                     f"Redo: {self.names['RedoName'] or '(nothing)'}"]
        else:
            parts = []
        self.status.set_text("     ".join(parts + ([self.note] if self.note else [])))

    # -- recording the user's edits ---------------------------------------------
    def on_insert(self, buffer, where, text, _length_in_bytes):
        if not self.applying:        # offsets are in characters, not bytes
            offset = where.get_offset()
            self.edits.append(("insert", payload("delete", offset, text),
                               payload("insert", offset, text)))

    def on_delete(self, buffer, start, end):
        if not self.applying:
            offset, text = start.get_offset(), buffer.get_slice(start, end, True)
            self.edits.append(("delete", payload("insert", offset, text),
                               payload("delete", offset, text)))

    def on_begin(self, buffer):
        self.depth += 1

    def on_end(self, buffer):
        self.depth -= 1
        self.on_changed(buffer)

    def on_changed(self, buffer, *_):
        if self.depth > 0 or not self.edits:
            return                   # wait for the end of the user action
        edits, self.edits = self.edits, []
        self.save()
        # Keystrokes share merge_key "typing", so undod coalesces them into one
        # group (within its merge window, until an undo or redo intervenes).
        typed = any(kind == "insert" for kind, _, _ in edits)
        name, key = ("Typing", "typing") if typed else ("Delete", "delete")
        group = (name, key, [(u, r) for _, u, r in edits], state_tag(self.text()))
        if self.stack:
            self.send(*group)
        elif self.registering:
            self.outbox.append(group)
        # else: no undod, no history (Register's state_tag drops the stale one later).

    def send(self, name, key, actions, tag):
        hints = {"merge_key": key, "state_tag": tag}
        done = lambda group: self.on_pushed(int(group), name)  # noqa: E731
        # Calls on one connection arrive in the order sent, so pushes stay in order.
        if len(actions) == 1:
            self.call(self.stack, STACK, "Push", "sayaya{sv}", (name, *actions[0], hints),
                      done, self.on_push_failed)
        else:
            self.call(self.stack, STACK, "PushGroup", "sa(ayay)a{sv}", (name, actions, hints),
                      done, self.on_push_failed)

    def on_pushed(self, group, name):
        trace(event="pushed", group=group, name=name)
        self.names.update(UndoName=name, RedoName="")   # what a push does, per the spec
        self.show("")

    def on_push_failed(self, error):
        # An edit missing from the history would make later undos wrong (undod
        # refuses pushes with Busy while an Apply is out): start afresh instead.
        self.on_error(error)
        if self.stack:
            self.call(self.stack, STACK, "Clear", "", (), lambda: self.refresh())

    # -- undo and redo ----------------------------------------------------------
    def on_key(self, view, event):
        mods = event.state & Gtk.accelerator_get_default_mod_mask()
        key = Gdk.keyval_to_lower(event.keyval)
        ctrl, shift = Gdk.ModifierType.CONTROL_MASK, Gdk.ModifierType.SHIFT_MASK
        if mods == ctrl and key == Gdk.KEY_z:
            self.trigger("Undo")
        elif (mods == ctrl | shift and key == Gdk.KEY_z) or (mods == ctrl and key == Gdk.KEY_y):
            self.trigger("Redo")
        else:
            return False
        return True

    def trigger(self, method):
        """Our own Ctrl+Z goes through undod like any trigger: it calls Apply back."""
        if not self.stack:
            return self.show("No undo without undod")
        self.call(self.stack, STACK, method, "", (), lambda group, name: self.refresh(),
                  self.on_trigger_failed)

    def on_trigger_failed(self, error):
        short = {"NothingToUndo": "Nothing to undo", "NothingToRedo": "Nothing to redo"}
        self.on_error(error, short.get(error.get_dbus_name().rpartition(".")[2]))

    def apply(self, group, direction, payloads):
        if direction not in ("undo", "redo"):
            raise ValueError(f"unknown direction {direction!r}")
        steps = plan(self.text(), payloads)   # all checked before anything changes
        self.applying = True
        try:
            for op, offset, piece in steps:
                start = self.buffer.get_iter_at_offset(offset)
                if op == "insert":
                    self.buffer.insert(start, piece)
                    cursor = offset + len(piece)
                else:
                    self.buffer.delete(start, self.buffer.get_iter_at_offset(offset + len(piece)))
                    cursor = offset
                self.buffer.place_cursor(self.buffer.get_iter_at_offset(cursor))
        finally:
            self.applying = False
        self.save()
        self.view.scroll_mark_onscreen(self.buffer.get_insert())
        trace(event="applied", direction=direction, group=group, text=self.text())
        # undod moves the group once it has our reply; read the new names then.
        GLib.timeout_add(100, lambda: self.refresh() or False)


def on_stdin(notes, buffered):
    """--trace commands, one a line: "print" (the text as a JSON line), "quit"."""
    def ready(fd, condition):
        chunk = os.read(fd, 4096)
        if not chunk:
            return False             # stdin closed: keep running, stop reading
        buffered.extend(chunk)
        while b"\n" in buffered:
            line, _, rest = bytes(buffered).partition(b"\n")
            buffered[:] = rest
            command = line.decode("utf-8", "replace").strip()
            if command == "print":
                trace(event="text", text=notes.text())
            elif command == "quit":
                Gtk.main_quit()
            elif command:
                trace(event="error", message=f"unknown command {command!r}")
        return True
    GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, ready)


def main():
    global TRACE
    parser = argparse.ArgumentParser(description="A text editor whose undo lives in undod.")
    parser.add_argument("--address", help="D-Bus address of the bus (default: the session bus)")
    parser.add_argument("--trace", action="store_true",
                        help="print JSON lines on stdout; read print/quit on stdin")
    parser.add_argument("--app-id", default="org.undod.examples.Notes")
    parser.add_argument("--title", default="Notes")
    data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    parser.add_argument("--file", default=os.path.join(data, "undod-notes", "notes.txt"),
                        help="the file this window edits (default: %(default)s)")
    args = parser.parse_args()
    TRACE = args.trace
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(args.address) if args.address else dbus.SessionBus()
    path = os.path.abspath(os.path.expanduser(args.file))
    default = os.path.abspath(parser.get_default("file"))
    # The title names the file when it is not the default one, so that two
    # windows (and their notifications) tell their documents apart.
    title = args.title if path == default else f"{args.title} \u2014 {os.path.basename(path)}"
    notes = Notes(bus, args.app_id, title, path)
    if TRACE:
        on_stdin(notes, bytearray())
    Gtk.main()
    # Leaving the bus detaches the stack: the next start adopts its history
    # (unless the text differs, which the state tag tells undod).


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Counter: the smallest long-lived undod client, something to press undo on.

It holds a number. Each line typed on stdin changes it:

    +        add one                  -        subtract one
    N        set it to N (e.g. 42)    u / r    undo / redo, through undod
    q        quit (end of input too)

and every change is pushed to undod as a group of one action whose payloads
are the inverse and the redo, as JSON. undod calls Client.Apply back to
undo or redo, whoever asks: `u` here, `undoctl undo`, the global key.

    /usr/bin/python3 Examples/counter.py [--address BUS_ADDRESS]
    undoctl undo org.undod.examples.Counter      # in another terminal

It keeps working when undod is absent (without undo), registers again when
undod (re)starts, and so adopts the history undod kept on disk. Each state
of the counter is tagged with its value (state_tag), so a history that no
longer matches the counter (the counter starts at 0 again, or changed while
undod was away) is discarded by undod instead of applied.

Needs python3-dbus and python3-gi (Debian); run with /usr/bin/python3.
"""
import argparse
import json
import os
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

APP_ID, TITLE = "org.undod.examples.Counter", "Counter"
NAME = "org.undod.Undo1"                       # undod's well-known name
MANAGER_PATH, MANAGER = "/org/undod/Undo1", "org.undod.Undo1.Manager"
STACK = "org.undod.Undo1.Stack"
CLIENT_PATH, CLIENT = "/org/undod/Undo1/Client", "org.undod.Undo1.Client"
NOT_RUNNING = ("org.freedesktop.DBus.Error.ServiceUnknown",
               "org.freedesktop.DBus.Error.NameHasNoOwner",
               "org.freedesktop.DBus.Error.UnknownObject")
OBSOLETE = "org.undod.Undo1.Error.Obsolete"


def say(text):
    print(text, flush=True)


# A payload is one move of the counter, {"from": 5, "to": 4}: self-contained
# (it names the value it expects, so it can be checked before it is applied)
# and small. The undo payload of a change is its inverse; the redo, the change.
def move(old, new):
    return json.dumps({"from": old, "to": new}, separators=(",", ":")).encode()


def tag(value):
    """The state tag of a value: undod compares it on adoption (Register)."""
    return str(value)


class Client(dbus.service.Object):
    """org.undod.Undo1.Client: undod calls Apply on the stack's owner only."""

    def __init__(self, bus, counter):
        super().__init__(bus, CLIENT_PATH)
        self.counter = counter

    @dbus.service.method(CLIENT, in_signature="otsaay", out_signature="", byte_arrays=True,
                         sender_keyword="sender")
    def Apply(self, stack, group, direction, payloads, sender=None):
        # Anyone on the bus can call this method: take changes from undod only.
        if sender != self.counter.daemon or str(stack) != self.counter.stack:
            raise dbus.exceptions.DBusException("Only undod applies changes to the Counter.",
                                                name="org.freedesktop.DBus.Error.AccessDenied")
        # Returning applies the undo or redo; raising answers an error and
        # undod leaves the stack exactly as it was. Obsolete asks undod to drop
        # the group: it can never be applied (it does not fit this counter).
        try:
            self.counter.apply(str(direction), payloads)
        except ValueError as error:
            say(f"{direction} refused: {error}")
            raise dbus.exceptions.DBusException(
                f"Counter cannot apply group {int(group)}: {error}.", name=OBSOLETE)


class Counter:
    def __init__(self, bus):
        self.bus = bus
        self.value = 0
        self.stack = None          # our stack's object path while registered
        self.registering = False   # a Register call is out
        self.again = False         # undod (re)appeared while it was out
        self.outbox = []           # changes made while Register was out
        self.daemon = None         # undod's unique name: the only caller of Apply
        Client(bus, self)
        # Follow undod starting, stopping and restarting; subscribe before the
        # first Register so that no start is missed.
        bus.add_signal_receiver(self.on_owner_changed, "NameOwnerChanged", "org.freedesktop.DBus",
                                "org.freedesktop.DBus", "/org/freedesktop/DBus", arg0=NAME)
        bus.call_async("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                       "GetNameOwner", "s", (NAME,), self.on_daemon, lambda error: None)
        self.register()

    def on_daemon(self, owner):
        self.daemon = self.daemon or str(owner)

    # -- every call is asynchronous: the main loop must stay free to serve
    #    Apply, which undod sends while our own Undo call is still out --------
    def call(self, path, interface, method, signature, args, reply, error):
        self.bus.call_async(NAME, path, interface, method, signature, args, reply, error)

    def register(self):
        if self.registering:
            self.again = True
            return
        self.registering, self.again = True, False
        options = {"title": TITLE, "state_tag": tag(self.value)}
        self.call(MANAGER_PATH, MANAGER, "Register", "sa{sv}", (APP_ID, options),
                  self.on_registered, self.on_register_failed)

    def on_registered(self, path):
        self.registering, self.stack = False, str(path)
        say(f"registered with undod as {self.stack}")
        outbox, self.outbox = self.outbox, []
        for change in outbox:
            self.push(*change)
        if self.again:
            self.register()

    def on_register_failed(self, error):
        self.registering, self.stack, self.outbox = False, None, []
        if self.again:               # undod appeared meanwhile: try that one
            return self.register()
        if error.get_dbus_name() in NOT_RUNNING:
            say("undod is not running: the counter works, without undo; "
                "it registers by itself when undod starts")
        else:
            say(f"no undo: {error.get_dbus_message()}")

    def on_owner_changed(self, name, old, new):
        self.daemon = str(new) or None
        if new:                      # undod started or restarted: register
            say("undod is there: registering")
            self.register()          # again; it hands back our stack if it kept it
        else:
            self.stack = None
            say("undod went away: the counter works, without undo")

    # -- changes made here ------------------------------------------------------
    def change(self, name, new):
        old, self.value = self.value, new
        say(f"counter: {old} → {new}")
        if self.stack:
            self.push(name, old, new)
        elif self.registering:
            self.outbox.append((name, old, new))
        # else: no undod, no history (the state tag drops the stale one later)

    def push(self, name, old, new):
        hints = {"state_tag": tag(new)}   # the tag of the state this push leads to
        self.call(self.stack, STACK, "Push", "sayaya{sv}", (name, move(new, old), move(old, new), hints),
                  lambda group: None, self.on_push_failed)

    def on_push_failed(self, error):
        # A history with a change missing would undo to wrong values: start afresh.
        say(f"push refused ({error.get_dbus_name()}): {error.get_dbus_message()}")
        if error.get_dbus_name() in NOT_RUNNING:
            self.stack = None
        elif self.stack:
            self.call(self.stack, STACK, "Clear", "", (), lambda: None, lambda e: None)

    # -- undo and redo ----------------------------------------------------------
    def trigger(self, method):
        """Our own undo goes through undod like any trigger: it calls Apply back."""
        if not self.stack:
            return say("no undo without undod")
        self.call(self.stack, STACK, method, "", (), lambda group, name: None,
                  lambda error: say(error.get_dbus_message()))

    def apply(self, direction, payloads):
        """Checks every payload first, then applies them in the order given."""
        if direction not in ("undo", "redo"):
            raise ValueError(f"unknown direction {direction!r}")
        value, steps = self.value, []
        for raw in payloads:
            try:
                step = json.loads(bytes(raw).decode())
                old, new = step["from"], step["to"]
            except (ValueError, KeyError, TypeError):
                raise ValueError("a payload is not a move of the counter") from None
            if type(old) is not int or type(new) is not int:
                raise ValueError("a payload is not a move of the counter")
            if old != value:
                raise ValueError(f"it moves {old} → {new}, but the counter is {value}")
            steps.append((old, new))
            value = new
        for old, new in steps:
            say(f"{direction}: {old} → {new}")
        self.value = value


def number(text):
    try:
        return int(text)
    except ValueError:
        return None


def read_stdin(counter, loop):
    pending = bytearray()

    def ready(fd, _condition):
        chunk = os.read(fd, 4096)
        pending.extend(chunk)
        while b"\n" in pending or (not chunk and pending):
            line, _, rest = bytes(pending).partition(b"\n")
            pending[:] = rest
            command = line.decode(errors="replace").strip()
            if command == "+":
                counter.change("Add 1", counter.value + 1)
            elif command == "-":
                counter.change("Subtract 1", counter.value - 1)
            elif number(command) is not None:
                counter.change(f"Set to {number(command)}", number(command))
            elif command in ("u", "r"):
                counter.trigger("Undo" if command == "u" else "Redo")
            elif command == "q":
                loop.quit()
                return False
            elif command:
                say("? type +, -, a number, u, r or q")
        if not chunk:                # end of input: quit, as q does
            loop.quit()
            return False
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, ready)


def main():
    parser = argparse.ArgumentParser(description="A counter whose undo lives in undod.")
    parser.add_argument("--address", help="D-Bus address of the bus (default: the session bus)")
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(args.address) if args.address else dbus.SessionBus()
    counter = Counter(bus)
    loop = GLib.MainLoop()
    read_stdin(counter, loop)
    say(f"counter: {counter.value}   (type +, -, a number, u, r or q)")
    loop.run()
    # Leaving the bus detaches the stack; undod keeps it on disk for a later run
    # (which adopts it only if the counter has the value the history ends at).


if __name__ == "__main__":
    main()

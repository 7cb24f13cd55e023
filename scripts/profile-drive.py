#!/usr/bin/python3
"""Drives an undod running under callgrind phase by phase, for scripts/profile.sh.

Usage: profile-drive.py ADDRESS UNDOD_PID BUS_PID CALLS

Registers a memory-only and a persistent stack (both at the default 100-group
limit after the warm-up), then runs CALLS calls of each phase one at a time
and has callgrind dump both processes after each: ping (Peer.Ping to undod),
pushp (Push to the persistent stack), push (Push to the memory-only stack),
pingtrig (Ping from a second connection) and undofocused (UndoFocused from
that connection, at most 90 of them; this script's app answers Apply).
Nobody subscribes, so no stack signal is sent.
"""
import subprocess
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

address, undod_pid, bus_pid, calls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
DBusGMainLoop(set_as_default=True)
app = dbus.bus.BusConnection(address)
trigger = dbus.bus.BusConnection(address)
loop = GLib.MainLoop()


class Client(dbus.service.Object):
    @dbus.service.method("org.undod.Undo1.Client", in_signature="otsaay", out_signature="")
    def Apply(self, stack, group, direction, payloads):
        pass


Client(app, "/org/undod/Undo1/Client")
manager = app.get_object("org.undod.Undo1", "/org/undod/Undo1")
persistent = manager.Register("bench.persistent", dbus.Dictionary({"persist": True}, signature="sv"),
                              dbus_interface="org.undod.Undo1.Manager")
memory = manager.Register("bench.memory", dbus.Dictionary({"persist": False}, signature="sv"),
                          dbus_interface="org.undod.Undo1.Manager")
owner = app.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "GetNameOwner", "s", ["org.undod.Undo1"])
undo, redo = dbus.ByteArray(b"u" * 64), dbus.ByteArray(b"r" * 64)


def failed(error):
    print("profile-drive: %s" % error, file=sys.stderr)
    loop.quit()


def ping(done, connection=app):
    connection.call_async(owner, "/", "org.freedesktop.DBus.Peer", "Ping", "", [], done, failed)


def push(done, path=memory):
    app.call_async(owner, path, "org.undod.Undo1.Stack", "Push", "sayaya{sv}",
                   ["Edit", undo, redo, dbus.Dictionary({}, signature="sv")], done, failed)


def undo_focused(done):
    trigger.call_async(owner, "/org/undod/Undo1", "org.undod.Undo1.Manager", "UndoFocused", "", [], done, failed)


# (dump name or None, call, count); the memory-only stack is pushed last, so
# it has the focus for UndoFocused (focus.follows_push).
phases = [
    (None, push, 200), (None, lambda d: push(d, persistent), 200), (None, ping, 200),
    (None, lambda d: ping(d, trigger), 200), ("warm", undo_focused, 50),
    ("ping", ping, calls), ("pushp", lambda d: push(d, persistent), calls), ("push", push, calls),
    ("pingtrig", lambda d: ping(d, trigger), calls), ("undofocused", undo_focused, min(calls, 90)),
]


def next_phase():
    if not phases:
        loop.quit()
        return False
    name, make_call, count = phases.pop(0)
    left = [count]

    def one(*_):
        if left[0] == 0:
            if name:
                for pid in (undod_pid, bus_pid):
                    subprocess.run(["callgrind_control", "-d", name, pid], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, check=False)
            GLib.idle_add(next_phase)
            return
        left[0] -= 1
        make_call(one)

    one()
    return False


GLib.idle_add(next_phase)
loop.run()

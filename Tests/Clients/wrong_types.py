#!/usr/bin/python3
"""Sends undod options and hints of the wrong D-Bus type, a file descriptor
among them, and prints (as JSON) the error each call got and the stack's
depth after the refused push, and whether undod let go of the descriptor
(once the calls are answered and this script closes its own read end, the
write end hangs up only if no copy of the read end is left: undod must close
the fds a call brings). Usage: wrong_types.py BUS_ADDRESS"""
import gc
import json
import os
import select
import sys

import dbus

bus = dbus.bus.BusConnection(sys.argv[1])
manager = dbus.Interface(bus.get_object("org.undod.Undo1", "/org/undod/Undo1"), "org.undod.Undo1.Manager")
read_end, write_end = os.pipe()
fd = dbus.types.UnixFd(read_end)
result = {}


def error_of(call):
    try:
        call()
        return ""
    except dbus.exceptions.DBusException as error:
        return error.get_dbus_name() + ": " + error.get_dbus_message()


result["register_fd"] = error_of(lambda: manager.Register("org.example.Fd", {"limit": fd}))
result["register_string"] = error_of(lambda: manager.Register("org.example.Fd", {"limit": dbus.String("7")}))
path = manager.Register("org.example.Fd", {"title": "Fd"})
stack = dbus.Interface(bus.get_object("org.undod.Undo1", path), "org.undod.Undo1.Stack")
stack.Push("Typing", dbus.ByteArray(b"u"), dbus.ByteArray(b"r"), dbus.Dictionary({}, signature="sv"))
result["push_fd"] = error_of(lambda: stack.Push("Typing", dbus.ByteArray(b"u"), dbus.ByteArray(b"r"),
                                                 {"merge_key": fd}))
result["push_window_fd"] = error_of(lambda: stack.Push("Typing", dbus.ByteArray(b"u"), dbus.ByteArray(b"r"),
                                                        {"merge_window_ms": fd}))
properties = dbus.Interface(bus.get_object("org.undod.Undo1", path), "org.freedesktop.DBus.Properties")
result["undo_depth"] = int(properties.Get("org.undod.Undo1.Stack", "UndoDepth"))
result["ping"] = error_of(lambda: dbus.Interface(bus.get_object("org.undod.Undo1", "/org/undod/Undo1"),
                                                 "org.freedesktop.DBus.Peer").Ping())
os.close(read_end)
os.close(fd.take())   # UnixFd keeps a copy of its own
gc.collect()          # and so may the messages sent
poll = select.poll()
poll.register(write_end, 0)   # POLLERR alone: the last read end is gone
result["fd_closed"] = bool(poll.poll(10_000))
print(json.dumps(result))
